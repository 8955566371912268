package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;

import java.util.ArrayList;
import java.util.List;

import static io.lancetrino.benchmark.Measurements.cloneLineitem;
import static io.lancetrino.benchmark.Measurements.count;
import static io.lancetrino.benchmark.Measurements.median;
import static io.lancetrino.benchmark.Measurements.metric;

/**
 * {@code optimize} of a lineitem that took many small appends after it was indexed, with five scalar indexes and
 * without any: a Lance engine's compaction would remap the indexes into the compacted fragments; this connector's
 * leaves the fragments an index covers where they are and compacts the rest, so every index stays listed and keeps
 * answering. Point lookups on an indexed column are timed before and after, and the answers compared.
 */
public final class IndexedCompactionTimings
{
    private static final String SCHEMA = "bench_indexed_optimize";
    static final int APPENDS = 20;
    // two btrees, two bitmaps and a zone map, on columns the appends fill too
    static final List<String> INDEXES = List.of(
            "column => 'l_partkey', index_type => 'btree'",
            "column => 'l_suppkey', index_type => 'btree'",
            "column => 'l_shipmode', index_type => 'bitmap'",
            "column => 'l_returnflag', index_type => 'bitmap'",
            "column => 'l_shipdate', index_type => 'zonemap'");

    private IndexedCompactionTimings() {}

    /**
     * @param indexes indexes made before the appends
     * @param indexesAfter indexes listed after optimize
     * @param lookupSecondsBefore median time of {@code l_partkey = k} lookups before optimize
     */
    public record IndexedCompaction(int indexes, long rows, long fragmentsBefore, long fragmentsAfter, long fragmentsRewritten, double optimizeSeconds,
            double lookupSecondsBefore, double lookupSecondsAfter, long indexesAfter, boolean sameAnswers) {}

    public static List<IndexedCompaction> measure(BenchmarkEnvironment environment, int runs)
    {
        QueryRunner runner = environment.runner();
        List<IndexedCompaction> results = new ArrayList<>();
        for (boolean indexed : List.of(false, true)) {
            String table = indexed ? "li_indexed" : "li_plain";
            Session session = cloneLineitem(runner, SCHEMA, table);
            if (indexed) {
                for (String index : INDEXES) {
                    runner.execute(session, "ALTER TABLE %s EXECUTE create_index(%s)".formatted(table, index));
                }
            }
            for (int i = 0; i < APPENDS; i++) {
                runner.execute(session, "INSERT INTO %s SELECT * FROM lance.%s.lineitem WHERE l_orderkey %% 1000 = %s".formatted(table, BenchmarkEnvironment.SCHEMA, i));
            }
            List<String> lookups = lookups(runner, session, table);
            List<MaterializedResult> answersBefore = answers(runner, session, lookups);
            double lookupBefore = medianSeconds(runner, session, lookups, runs);
            long fragmentsBefore = count(runner, session, "SELECT count(*) FROM \"%s$fragments\"".formatted(table));

            long start = System.nanoTime();
            MaterializedResult optimize = runner.execute(session, "ALTER TABLE %s EXECUTE optimize".formatted(table));
            double optimizeSeconds = (System.nanoTime() - start) / 1e9;

            long fragmentsAfter = count(runner, session, "SELECT count(*) FROM \"%s$fragments\"".formatted(table));
            boolean sameAnswers = answers(runner, session, lookups).equals(answersBefore);
            double lookupAfter = medianSeconds(runner, session, lookups, runs);
            long indexesAfter = count(runner, session, "SELECT count(*) FROM \"%s$indexes\"".formatted(table));
            long rows = count(runner, session, "SELECT count(*) FROM " + table);
            long rewritten = metric(optimize, "fragments_rewritten");
            System.out.printf("optimize of %,d rows after %s appends, %s indexes: %s -> %s fragments (%s rewritten) in %.3fs, l_partkey lookups %.4fs -> %.4fs, %s indexes listed after%s%n",
                    rows, APPENDS, indexed ? INDEXES.size() : 0, fragmentsBefore, fragmentsAfter, rewritten, optimizeSeconds, lookupBefore, lookupAfter, indexesAfter, sameAnswers ? "" : ", DIFFERENT ANSWERS");
            results.add(new IndexedCompaction(indexed ? INDEXES.size() : 0, rows, fragmentsBefore, fragmentsAfter, rewritten, optimizeSeconds, lookupBefore, lookupAfter, indexesAfter, sameAnswers));
            runner.execute(session, "DROP TABLE " + table);
        }
        return results;
    }

    // a part key only base rows hold, and one the appends copied too
    private static List<String> lookups(QueryRunner runner, Session session, String table)
    {
        List<String> lookups = new ArrayList<>();
        for (String where : List.of("l_orderkey % 1000 >= 500", "l_orderkey % 1000 = 7")) {
            Object partKey = runner.execute(session, "SELECT min(l_partkey) FROM %s WHERE %s".formatted(table, where)).getOnlyValue();
            lookups.add("SELECT l_orderkey, l_linenumber, l_quantity FROM %s WHERE l_partkey = %s ORDER BY 1, 2".formatted(table, partKey));
        }
        return lookups;
    }

    private static List<MaterializedResult> answers(QueryRunner runner, Session session, List<String> lookups)
    {
        return lookups.stream().map(lookup -> runner.execute(session, lookup)).toList();
    }

    // one warm-up run, then the median of the timed ones (all lookups together)
    private static double medianSeconds(QueryRunner runner, Session session, List<String> lookups, int runs)
    {
        answers(runner, session, lookups);
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < Math.max(runs, 3); i++) {
            long start = System.nanoTime();
            answers(runner, session, lookups);
            seconds.add((System.nanoTime() - start) / 1e9 / lookups.size());
        }
        return median(seconds);
    }
}
