package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.spi.type.Type;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.lancetrino.benchmark.BenchmarkEnvironment.SCHEMA;
import static io.lancetrino.benchmark.BenchmarkEnvironment.session;

/**
 * Writes timed side by side: CTAS of lineitem and an INSERT of about a million rows, into Lance through the Java writer
 * and through the SDK writer, and into Iceberg (Parquet, ZSTD). Every write reads the same source, the Iceberg copy of
 * lineitem, so the writers differ only in what they write. Rounds rotate the order of the three. Afterwards the columns
 * of the two Lance copies are compared: encodings, bytes and the Java reader's decode CPU, beside Parquet's bytes.
 */
final class WriteTimings
{
    private static final String SOURCE = "iceberg.%s.lineitem".formatted(SCHEMA);
    private static final List<String> WRITERS = List.of("lance_java", "lance_sdk", "iceberg");

    private WriteTimings() {}

    /**
     * @param lance the Java writer's times (what the goal compares), shaped like a query's
     * @param lanceSdk the SDK writer's times; its CPU omits the SDK's native threads
     */
    record WriteResult(String name, String description, long rows, QueryTimings.Stats lance, QueryTimings.Stats lanceSdk, QueryTimings.Stats iceberg)
    {
        public double ratio()
        {
            return lance.medianSeconds() / iceberg.medianSeconds();
        }

        public double sdkRatio()
        {
            return lanceSdk.medianSeconds() / iceberg.medianSeconds();
        }
    }

    record ColumnComparison(String column, long javaBytes, long sdkBytes, long parquetBytes, double javaDecodeCpuSeconds, double sdkDecodeCpuSeconds, String javaEncodings, String sdkEncodings) {}

    record Result(List<WriteResult> writes, List<ColumnComparison> columns) {}

    /**
     * @param lanceWith the {@code WITH} clause of the Lance copies (the table properties of the generated data), or empty
     */
    static Result measure(BenchmarkEnvironment environment, int runs, String lanceWith)
    {
        DistributedQueryRunner runner = environment.runner();
        long insertRows = (long) runner.execute(session("iceberg"), "SELECT count(*) FROM %s WHERE l_orderkey <= 1000000".formatted(SOURCE)).getOnlyValue();
        long ctasRows = (long) runner.execute(session("iceberg"), "SELECT count(*) FROM " + SOURCE).getOnlyValue();
        WriteResult insert = time(runner, runs, "insert_1m", "INSERT of the lineitem rows with l_orderkey <= 1,000,000 into an empty table", insertRows, true, lanceWith);
        WriteResult ctas = time(runner, runs, "ctas_lineitem", "CREATE TABLE AS SELECT * FROM lineitem", ctasRows, false, lanceWith);
        List<WriteResult> writes = List.of(ctas, insert);

        // the last CTAS copies stay for the comparison of their columns
        List<MaterializedRow> columnRows = runner.execute(session("lance"), "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = '%s' AND table_name = 'write_lance_java' ORDER BY ordinal_position".formatted(SCHEMA)).getMaterializedRows();
        List<String> names = columnRows.stream().map(row -> (String) row.getField(0)).toList();
        List<Type> types = columnRows.stream().map(row -> environment.runner().getPlannerContext().getTypeManager().fromSqlType((String) row.getField(1))).toList();
        List<ColumnEncodings.ColumnResult> java = ColumnEncodings.measure(environment.lanceTable(SCHEMA, "write_lance_java"), names, types, 5);
        List<ColumnEncodings.ColumnResult> sdk = ColumnEncodings.measure(environment.lanceTable(SCHEMA, "write_lance_sdk"), names, types, 5);
        Map<Integer, Long> parquet = parquetColumnBytes(runner);
        List<ColumnComparison> columns = new ArrayList<>();
        for (int column = 0; column < names.size(); column++) {
            columns.add(new ColumnComparison(names.get(column), java.get(column).bytes(), sdk.get(column).bytes(), parquet.getOrDefault(column + 1, 0L),
                    java.get(column).decodeCpuSeconds(), sdk.get(column).decodeCpuSeconds(), java.get(column).encodings(), sdk.get(column).encodings()));
        }
        for (String writer : WRITERS) {
            runner.execute(writerSession(writer), "DROP TABLE IF EXISTS write_" + writer);
        }
        return new Result(writes, columns);
    }

    private static WriteResult time(DistributedQueryRunner runner, int runs, String name, String description, long rows, boolean insert, String lanceWith)
    {
        Map<String, List<QueryTimings.Run>> times = Map.of("lance_java", new ArrayList<>(), "lance_sdk", new ArrayList<>(), "iceberg", new ArrayList<>());
        // one unmeasured round first, then rounds that rotate which writer goes first
        for (int round = -1; round < runs; round++) {
            for (int i = 0; i < WRITERS.size(); i++) {
                String writer = WRITERS.get(Math.floorMod(round + i, WRITERS.size()));
                Session session = writerSession(writer);
                String table = "write_" + writer;
                String with = writer.equals("iceberg") ? "" : lanceWith;
                runner.execute(session, "DROP TABLE IF EXISTS " + table);
                String sql;
                if (insert) {
                    runner.execute(session, "CREATE TABLE %s%s AS SELECT * FROM %s WITH NO DATA".formatted(table, with, SOURCE));
                    sql = "INSERT INTO %s SELECT * FROM %s WHERE l_orderkey <= 1000000".formatted(table, SOURCE);
                }
                else {
                    sql = "CREATE TABLE %s%s AS SELECT * FROM %s".formatted(table, with, SOURCE);
                }
                QueryTimings.Run run = QueryTimings.timed(runner, session, sql);
                if (round >= 0) {
                    times.get(writer).add(run);
                }
            }
        }
        WriteResult result = new WriteResult(name, description, rows, QueryTimings.Stats.of(times.get("lance_java")), QueryTimings.Stats.of(times.get("lance_sdk")), QueryTimings.Stats.of(times.get("iceberg")));
        System.out.printf("%-14s lance (java) %.3fs  lance (sdk) %.3fs  iceberg %.3fs  ratio %.2f%n", name, result.lance().medianSeconds(), result.lanceSdk().medianSeconds(), result.iceberg().medianSeconds(), result.ratio());
        return result;
    }

    private static Session writerSession(String writer)
    {
        if (writer.equals("iceberg")) {
            return session("iceberg");
        }
        return Session.builder(session("lance"))
                .setCatalogSessionProperty("lance", "file_writer", writer.equals("lance_java") ? "java" : "sdk")
                .build();
    }

    /** Parquet bytes per column of the Iceberg CTAS copy, by field id (1 for the first column). */
    private static Map<Integer, Long> parquetColumnBytes(DistributedQueryRunner runner)
    {
        Map<Integer, Long> bytes = new java.util.HashMap<>();
        for (MaterializedRow row : runner.execute(session("iceberg"), "SELECT column_sizes FROM \"write_iceberg$files\" WHERE content = 0").getMaterializedRows()) {
            @SuppressWarnings("unchecked")
            Map<Integer, Long> sizes = (Map<Integer, Long>) row.getField(0);
            sizes.forEach((field, size) -> bytes.merge(field, size, Long::sum));
        }
        return bytes;
    }
}
