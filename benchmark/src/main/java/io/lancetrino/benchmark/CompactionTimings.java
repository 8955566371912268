package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;

import java.util.ArrayList;
import java.util.List;

import static io.lancetrino.benchmark.Measurements.median;

/**
 * A table built by many single-row INSERTs, one fragment each, scanned before and after
 * {@code ALTER TABLE ... EXECUTE optimize} merges them: a scan pays per fragment (a split, a data file opened through
 * the SDK), so compaction should make it roughly as fast as one INSERT of all the rows.
 */
public final class CompactionTimings
{
    private static final String SCHEMA = "bench_compaction";
    private static final String TABLE = "small_inserts";
    private static final String SCAN = "SELECT count(*), sum(x), max(name), sum(price) FROM " + TABLE;

    private CompactionTimings() {}

    /**
     * @param insertSeconds the time of all the INSERTs that built the table
     * @param scanSecondsBefore median time of a scan of every column before optimize
     */
    public record Compaction(int inserts, long fragmentsBefore, long fragmentsAfter, double insertSeconds, double scanSecondsBefore, double optimizeSeconds, double scanSecondsAfter, boolean sameResult) {}

    public static Compaction measure(BenchmarkEnvironment environment, int inserts, int runs)
    {
        QueryRunner runner = environment.runner();
        runner.execute(BenchmarkEnvironment.session("lance"), "CREATE SCHEMA IF NOT EXISTS lance." + SCHEMA);
        Session session = BenchmarkEnvironment.session("lance", SCHEMA);
        runner.execute(session, "DROP TABLE IF EXISTS " + TABLE);
        runner.execute(session, "CREATE TABLE %s (x bigint, name varchar, price double)".formatted(TABLE));
        long start = System.nanoTime();
        for (int i = 0; i < inserts; i++) {
            runner.execute(session, "INSERT INTO %s VALUES (%s, 'name-%s', %s)".formatted(TABLE, i, i, i * 0.25));
        }
        double insertSeconds = (System.nanoTime() - start) / 1e9;
        long fragmentsBefore = fragments(runner, session);
        MaterializedResult before = runner.execute(session, SCAN);
        double scanBefore = medianSeconds(runner, session, runs);

        start = System.nanoTime();
        runner.execute(session, "ALTER TABLE %s EXECUTE optimize".formatted(TABLE));
        double optimizeSeconds = (System.nanoTime() - start) / 1e9;

        long fragmentsAfter = fragments(runner, session);
        boolean sameResult = runner.execute(session, SCAN).getMaterializedRows().equals(before.getMaterializedRows());
        double scanAfter = medianSeconds(runner, session, runs);
        runner.execute(session, "DROP TABLE " + TABLE);
        System.out.printf("compaction of %s single-row INSERTs: %s -> %s fragments, scan %.3fs -> %.3fs, optimize %.3fs%n",
                inserts, fragmentsBefore, fragmentsAfter, scanBefore, scanAfter, optimizeSeconds);
        return new Compaction(inserts, fragmentsBefore, fragmentsAfter, insertSeconds, scanBefore, optimizeSeconds, scanAfter, sameResult);
    }

    private static long fragments(QueryRunner runner, Session session)
    {
        return ((Number) runner.execute(session, "SELECT count(*) FROM \"%s$fragments\"".formatted(TABLE)).getOnlyValue()).longValue();
    }

    // one warm-up run, then the median of the timed ones
    private static double medianSeconds(QueryRunner runner, Session session, int runs)
    {
        runner.execute(session, SCAN);
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            runner.execute(session, SCAN);
            seconds.add((System.nanoTime() - start) / 1e9);
        }
        return median(seconds);
    }
}
