package io.lancetrino.benchmark;

import com.google.protobuf.Timestamp;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.split.LanceConfig;
import io.trino.Session;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.testing.TestingConnectorSession.SESSION;

/**
 * Cleanup on long synthetic histories: every version appends {@value #FRAGMENTS_PER_VERSION} fragments (each its own
 * data file, hard links of one real file) and every {@value #COMPACTION_EVERY} versions a compaction replaces them
 * all by one, so 10,000 versions reach 100,000 fragments with manifests of at most about 1,000 fragments. Timed: a
 * dry run (mark and list), a cleanup that keeps everything (threshold longer than the history), and a cleanup that
 * removes all but the latest version.
 */
public final class CleanupTimings
{
    private static final String SCHEMA = "bench_cleanup";
    private static final int FRAGMENTS_PER_VERSION = 10;
    private static final int COMPACTION_EVERY = 100;

    private CleanupTimings() {}

    public record CleanupTime(int versions, long fragments, double dryRunSeconds, double keepAllSeconds, double cleanupSeconds, long versionsRemoved, long filesRemoved) {}

    public static List<CleanupTime> measure(BenchmarkEnvironment environment, List<Integer> versionCounts)
            throws IOException
    {
        QueryRunner runner = environment.runner();
        Session session = Session.builder(BenchmarkEnvironment.session("lance", SCHEMA))
                .setCatalogSessionProperty("lance", "cleanup_min_retention", "0s")
                .build();
        runner.execute(session, "CREATE SCHEMA IF NOT EXISTS lance." + SCHEMA);
        List<CleanupTime> results = new ArrayList<>();
        for (int versions : versionCounts) {
            String name = "history_" + versions;
            runner.execute(session, "DROP TABLE IF EXISTS " + name);
            runner.execute(session, "CREATE TABLE %s AS SELECT BIGINT '1' AS id".formatted(name));
            Path root = environment.lanceTable(SCHEMA, name);
            long fragments = writeHistory(root, versions);

            double dryRun = seconds(() -> cleanup(runner, session, name, "0s", true));
            double keepAll = seconds(() -> cleanup(runner, session, name, "3650d", false));
            Map<String, Long> removed = new HashMap<>();
            double cleanup = seconds(() -> removed.putAll(cleanup(runner, session, name, "0s", false)));
            long files = removed.entrySet().stream().filter(entry -> entry.getKey().endsWith("_files_removed")).mapToLong(Map.Entry::getValue).sum();
            System.out.printf("cleanup, %,d versions / %,d fragments: dry run %.2fs, keeping all %.2fs, removing %,d versions and %,d files %.2fs%n",
                    versions, fragments, dryRun, keepAll, removed.get("versions_removed"), files, cleanup);
            results.add(new CleanupTime(versions, fragments, dryRun, keepAll, cleanup, removed.get("versions_removed"), files));
            runner.execute(session, "DROP TABLE " + name);
        }
        return results;
    }

    private static Map<String, Long> cleanup(QueryRunner runner, Session session, String table, String threshold, boolean dryRun)
    {
        MaterializedResult result = runner.execute(session, "ALTER TABLE %s EXECUTE cleanup(retention_threshold => '%s', dry_run => %s)".formatted(table, threshold, dryRun));
        Map<String, Long> metrics = new HashMap<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            metrics.put((String) row.getField(0), (Long) row.getField(1));
        }
        return metrics;
    }

    /**
     * Versions 2 to {@code versions} after the table's real first version, committed a day ago; returns the number of
     * fragments written in all.
     */
    private static long writeHistory(Path root, int versions)
            throws IOException
    {
        LanceTable table = Measurements.localTables(new LanceConfig()).open(SESSION.getIdentity(), root.toString(), root.getFileName().toString());
        TableSnapshot first = table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow());
        DataFragment template = first.manifest().getFragments(0);
        Path data = root.resolve("data");
        Path original = data.resolve(template.getFiles(0).getPath());
        Instant committed = Instant.now().minus(1, ChronoUnit.DAYS);
        FileTime old = FileTime.from(committed);
        List<DataFragment> current = new ArrayList<>(first.manifest().getFragmentsList());
        long nextId = first.manifest().getMaxFragmentId() + 1L;
        long written = 0;
        for (int version = 2; version <= versions; version++) {
            if (version % COMPACTION_EVERY == 0) {
                current.clear();
                current.add(fragment(template, data, original, "compacted-" + version, nextId++, old));
                written++;
            }
            else {
                for (int i = 0; i < FRAGMENTS_PER_VERSION; i++) {
                    current.add(fragment(template, data, original, "v%s-%s".formatted(version, i), nextId++, old));
                    written++;
                }
            }
            Manifest manifest = first.manifest().toBuilder()
                    .setVersion(version)
                    .clearFragments()
                    .addAllFragments(current)
                    .setMaxFragmentId((int) (nextId - 1))
                    .setTransactionFile("")
                    .setTimestamp(Timestamp.newBuilder().setSeconds(committed.getEpochSecond()))
                    .build();
            Path location = Path.of(TableFileSystem.join(table.versionsDirectory(Optional.empty()), ManifestNaming.V2.fileName(version)));
            Files.write(location, ManifestFile.serialize(manifest, Optional.empty(), Optional.empty()));
            Files.setLastModifiedTime(location, old);
        }
        try (var files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(file, old);
            }
        }
        Files.writeString(root.resolve("_versions/latest_version_hint.json"), "{\"version\":%s}".formatted(versions));
        return written;
    }

    private static DataFragment fragment(DataFragment template, Path data, Path original, String name, long id, FileTime old)
            throws IOException
    {
        String path = name + ".lance";
        try {
            Files.createLink(data.resolve(path), original);
        }
        catch (FileSystemException e) {
            // a file system's link limit (ext4: 65,000): the file is small, so copy it
            Files.copy(original, data.resolve(path));
        }
        DataFile file = template.getFiles(0).toBuilder().setPath(path).build();
        return template.toBuilder().setId(id).clearFiles().addFiles(file).build();
    }

    private interface Action
    {
        void run()
                throws Exception;
    }

    private static double seconds(Action action)
    {
        long start = System.nanoTime();
        try {
            action.run();
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
