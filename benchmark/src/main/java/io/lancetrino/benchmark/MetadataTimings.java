package io.lancetrino.benchmark;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.LanceTables;
import io.trino.Session;
import io.trino.spi.connector.SchemaTableName;
import io.trino.testing.QueryRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import static io.lancetrino.benchmark.Measurements.median;
import static io.trino.testing.TestingConnectorSession.SESSION;

/**
 * Coordinator-side costs on synthetic tables: manifests with many fragments (all naming one small data file, which
 * planning never opens) and histories of many versions (copies of one manifest under successive version numbers).
 */
public final class MetadataTimings
{
    private static final String SCHEMA = "bench_meta";
    private static final int SAMPLES = 5;

    private MetadataTimings() {}

    public record SplitPlanning(int fragments, int splits, double coldSeconds, double warmSeconds) {}

    public record VersionResolution(int versions, double hintedLatestSeconds, double listedLatestSeconds, double countQuerySeconds, double versionsTableSeconds) {}

    public static List<SplitPlanning> splitPlanning(BenchmarkEnvironment environment, List<Integer> fragmentCounts)
            throws Exception
    {
        List<SplitPlanning> results = new ArrayList<>();
        for (int fragments : fragmentCounts) {
            String name = "fragments_" + fragments;
            Path root = createOneRowTable(environment, name);
            LanceTable table = open(Measurements.localTables(new LanceConfig()), root);
            TableSnapshot snapshot = latest(table);
            Manifest base = snapshot.manifest();
            DataFragment fragment = base.getFragments(0);
            Manifest.Builder manifest = base.toBuilder()
                    .setVersion(snapshot.version() + 1)
                    .clearFragments()
                    .setMaxFragmentId(fragments - 1);
            for (int id = 0; id < fragments; id++) {
                manifest.addFragments(fragment.toBuilder().setId(id));
            }
            writeManifest(table, manifest.build());
            int[] splitCount = new int[1];
            double cold = medianSeconds(() -> {
                LanceTables tables = Measurements.localTables(new LanceConfig());
                splitCount[0] = plan(tables, root, name);
                return null;
            });
            LanceTables warmTables = Measurements.localTables(new LanceConfig());
            plan(warmTables, root, name);
            double warm = medianSeconds(() -> plan(warmTables, root, name));
            System.out.printf("split planning, %s fragments: %.3fs cold, %.3fs with the manifest cached%n", fragments, cold, warm);
            results.add(new SplitPlanning(fragments, splitCount[0], cold, warm));
        }
        return results;
    }

    /**
     * Latest-version resolution with the hint file (as the SDK and this connector leave it) and by listing
     * {@code _versions/} (as when the hint is missing or stale), a query on the latest version, and {@code $versions}.
     */
    public static List<VersionResolution> versionResolution(BenchmarkEnvironment environment, int versionCount)
            throws Exception
    {
        List<VersionResolution> results = new ArrayList<>();
        for (int versions : List.of(10, versionCount)) {
            String name = "versions_" + versions;
            Path root = createOneRowTable(environment, name);
            LanceTable table = open(Measurements.localTables(new LanceConfig()), root);
            TableSnapshot snapshot = latest(table);
            Manifest base = snapshot.manifest();
            for (long version = snapshot.version() + 1; version <= versions; version++) {
                writeManifest(table, base.toBuilder().setVersion(version).build());
            }
            Path hint = root.resolve(LanceTable.VERSIONS_DIR).resolve("latest_version_hint.json");
            Files.writeString(hint, "{\"version\":%s}".formatted(versions));
            double hinted = medianSeconds(() -> latestVersion(root, versions));
            Files.delete(hint);
            double listed = medianSeconds(() -> latestVersion(root, versions));
            Files.writeString(hint, "{\"version\":%s}".formatted(versions));
            QueryRunner runner = environment.runner();
            Session session = session();
            double count = medianSeconds(() -> runner.execute(session, "SELECT count(*) FROM " + name));
            double history = medianSeconds(() -> checkCount(runner.execute(session, "SELECT count(*) FROM \"%s$versions\"".formatted(name)).getOnlyValue(), versions));
            System.out.printf("%s versions: latest %.4fs with hint, %.4fs by listing; count(*) %.3fs; $versions %.3fs%n", versions, hinted, listed, count, history);
            results.add(new VersionResolution(versions, hinted, listed, count, history));
        }
        return results;
    }

    private static Object checkCount(Object value, long expected)
    {
        if (((Number) value).longValue() != expected) {
            throw new IllegalStateException("$versions returned %s rows, expected %s".formatted(value, expected));
        }
        return value;
    }

    private static Object latestVersion(Path root, long expected)
    {
        LanceTable table = open(Measurements.localTables(new LanceConfig()), root);
        long latest = table.latestVersion(Optional.empty()).orElseThrow();
        if (latest != expected) {
            throw new IllegalStateException("Latest version of %s is %s, expected %s".formatted(root, latest, expected));
        }
        return latest;
    }

    private static int plan(LanceTables tables, Path root, String name)
            throws Exception
    {
        TableSnapshot snapshot = latest(open(tables, root));
        LanceTableHandle handle = LanceTableHandle.of(new SchemaTableName(SCHEMA, name), snapshot);
        return ReaderThroughput.splits(new LanceSplitManager(tables, new LanceConfig()), handle).size();
    }

    private static Path createOneRowTable(BenchmarkEnvironment environment, String name)
    {
        QueryRunner runner = environment.runner();
        runner.execute(session(), "CREATE SCHEMA IF NOT EXISTS lance." + SCHEMA);
        runner.execute(session(), "DROP TABLE IF EXISTS " + name);
        runner.execute(session(), "CREATE TABLE %s AS SELECT BIGINT '1' AS id".formatted(name));
        return environment.lanceTable(SCHEMA, name);
    }

    private static void writeManifest(LanceTable table, Manifest manifest)
            throws IOException
    {
        String location = TableFileSystem.join(table.versionsDirectory(Optional.empty()), ManifestNaming.V2.fileName(manifest.getVersion()));
        Files.write(Path.of(location), ManifestFile.serialize(manifest, Optional.empty(), Optional.empty()));
    }

    private static TableSnapshot latest(LanceTable table)
    {
        return table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow());
    }

    private static LanceTable open(LanceTables tables, Path root)
    {
        return tables.open(SESSION.getIdentity(), root.toString(), root.getFileName().toString());
    }

    private static Session session()
    {
        return BenchmarkEnvironment.session("lance", SCHEMA);
    }

    private static double medianSeconds(Callable<?> action)
            throws Exception
    {
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            long start = System.nanoTime();
            action.call();
            seconds.add((System.nanoTime() - start) / 1e9);
        }
        return median(seconds);
    }
}
