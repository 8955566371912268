package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static io.lancetrino.benchmark.BenchmarkEnvironment.SCHEMA;
import static io.lancetrino.benchmark.BenchmarkEnvironment.session;

/**
 * Generates the TPC-H tables once per scale into both catalogs by CTAS from {@code tpch}, plus
 * {@code lineitem_deleted}: a copy of lineitem with 10% of its rows deleted by a second version.
 */
public final class TpchData
{
    public static final List<String> CATALOGS = List.of("lance", "iceberg");
    private static final List<String> TABLES = List.of("lineitem", "orders");
    private static final String COMPLETE_MARKER = "generated";

    private TpchData() {}

    /**
     * Seconds spent generating, or zero when the data of this scale was already there.
     */
    public static double ensureGenerated(BenchmarkEnvironment environment, BenchmarkOptions options)
    {
        Path marker = options.dataDirectory().resolve(COMPLETE_MARKER);
        if (Files.exists(marker) && !options.regenerate()) {
            return 0;
        }
        long start = System.nanoTime();
        QueryRunner runner = environment.runner();
        for (String catalog : CATALOGS) {
            Session session = session(catalog);
            runner.execute(session, "CREATE SCHEMA IF NOT EXISTS %s.%s".formatted(catalog, SCHEMA));
            for (String table : TABLES) {
                runner.execute(session, "DROP TABLE IF EXISTS " + table);
                runner.execute(session, "CREATE TABLE %s%s AS SELECT * FROM tpch.%s.%s".formatted(table, with(catalog, options), options.tpchSchema(), table));
            }
            runner.execute(session, "DROP TABLE IF EXISTS lineitem_deleted");
            runner.execute(session, "CREATE TABLE lineitem_deleted%s AS SELECT * FROM lineitem".formatted(with(catalog, options)));
            runner.execute(session, "DELETE FROM lineitem_deleted WHERE l_orderkey % 10 = 3");
        }
        try {
            Files.writeString(marker, options.tpchSchema());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static String with(String catalog, BenchmarkOptions options)
    {
        return catalog.equals("lance") ? options.lanceTableWithClause() : "";
    }

    /**
     * The version of {@code lineitem_deleted} before its DELETE, in each catalog's own terms.
     */
    public static String versionBeforeDelete(QueryRunner runner, String catalog)
    {
        Session session = session(catalog);
        Object version = switch (catalog) {
            case "lance" -> runner.execute(session, "SELECT min(version) FROM \"lineitem_deleted$versions\"").getOnlyValue();
            case "iceberg" -> runner.execute(session, "SELECT snapshot_id FROM \"lineitem_deleted$snapshots\" ORDER BY committed_at LIMIT 1").getOnlyValue();
            default -> throw new IllegalArgumentException(catalog);
        };
        return String.valueOf(version);
    }

    public record TableStorage(String table, long lanceDataBytes, long lanceTotalBytes, long icebergDataBytes, long icebergTotalBytes)
    {
        public double ratio()
        {
            return (double) lanceDataBytes / icebergDataBytes;
        }
    }

    /**
     * Bytes on disk: data files, and everything under the table's directory (manifests, transactions, deletion files;
     * for Iceberg metadata JSON, manifests, and position-delete files).
     */
    public static TableStorage storage(BenchmarkEnvironment environment, String table)
    {
        QueryRunner runner = environment.runner();
        Path lanceRoot = environment.lanceTable(SCHEMA, table);
        List<MaterializedRow> icebergFiles = runner.execute(session("iceberg"),
                "SELECT file_path, file_size_in_bytes, content FROM \"%s$files\"".formatted(table)).getMaterializedRows();
        long icebergDataBytes = icebergFiles.stream()
                .filter(row -> ((Number) row.getField(2)).intValue() == 0)
                .mapToLong(row -> ((Number) row.getField(1)).longValue())
                .sum();
        String anyFile = (String) icebergFiles.getFirst().getField(0);
        // local:///{schema}/{table}-{uuid}/data/{file}, relative to the catalog directory
        Path icebergRoot = environment.icebergCatalog().resolve(anyFile.replaceFirst("^local:/+", "")).getParent().getParent();
        return new TableStorage(table, directoryBytes(lanceRoot.resolve("data")), directoryBytes(lanceRoot), icebergDataBytes, directoryBytes(icebergRoot));
    }

    static long directoryBytes(Path directory)
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
