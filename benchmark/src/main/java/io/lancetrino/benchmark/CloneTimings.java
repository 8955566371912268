package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.testing.QueryRunner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.lancetrino.benchmark.Measurements.median;

/**
 * Shallow against deep clones of two tables whose data sizes differ about 100x (lineitem and a 1% sample of it): a
 * shallow clone writes only a manifest, so its time must not grow with the data; a deep clone copies every file.
 */
public final class CloneTimings
{
    private static final String CLONES_SCHEMA = "bench_clones";
    private static final int SAMPLES = 5;

    private CloneTimings() {}

    public record CloneTime(String table, long rows, long dataBytes, double shallowSeconds, double deepSeconds) {}

    public static List<CloneTime> measure(BenchmarkEnvironment environment)
    {
        QueryRunner runner = environment.runner();
        Session session = BenchmarkEnvironment.session("lance", BenchmarkEnvironment.SCHEMA);
        runner.execute(session, "CREATE SCHEMA IF NOT EXISTS lance." + CLONES_SCHEMA);
        runner.execute(session, "DROP TABLE IF EXISTS lineitem_1pct");
        runner.execute(session, "CREATE TABLE lineitem_1pct AS SELECT * FROM lineitem WHERE l_orderkey % 100 = 7");
        List<CloneTime> results = new ArrayList<>();
        for (String table : List.of("lineitem", "lineitem_1pct")) {
            long rows = ((Number) runner.execute(session, "SELECT count(*) FROM " + table).getOnlyValue()).longValue();
            Path root = environment.lanceTable(BenchmarkEnvironment.SCHEMA, table);
            long bytes = TpchData.directoryBytes(root.resolve("data"));
            double shallow = medianSeconds(runner, session, table, "shallow_clone");
            double deep = medianSeconds(runner, session, table, "deep_clone");
            System.out.printf("clone %s (%,d rows, %,d bytes): shallow %.4fs, deep %.3fs%n", table, rows, bytes, shallow, deep);
            results.add(new CloneTime(table, rows, bytes, shallow, deep));
        }
        runner.execute(session, "DROP TABLE lineitem_1pct");
        return results;
    }

    private static double medianSeconds(QueryRunner runner, Session session, String table, String procedure)
    {
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            String clone = "%s_%s_%s".formatted(table, procedure, i);
            runner.execute(session, "DROP TABLE IF EXISTS %s.%s".formatted(CLONES_SCHEMA, clone));
            long start = System.nanoTime();
            runner.execute(session, "CALL lance.system.%s('%s', '%s', '%s', '%s', NULL)".formatted(procedure, BenchmarkEnvironment.SCHEMA, table, CLONES_SCHEMA, clone));
            seconds.add((System.nanoTime() - start) / 1e9);
            runner.execute(session, "DROP TABLE %s.%s".formatted(CLONES_SCHEMA, clone));
        }
        return median(seconds);
    }
}
