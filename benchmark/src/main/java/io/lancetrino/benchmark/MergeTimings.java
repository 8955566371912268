package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.testing.QueryRunner;

import java.util.ArrayList;
import java.util.List;

import static io.lancetrino.benchmark.Measurements.cloneLineitem;
import static io.lancetrino.benchmark.Measurements.count;
import static io.lancetrino.benchmark.Measurements.metric;

/**
 * {@code merge_branch} of a branch that changed 1% of lineitem's rows, into a main that deleted and inserted rows
 * too, once with nothing else in between and once after {@code optimize} rewrote every fragment on both sides (main
 * deleted an eighth of each fragment's rows, past Lance's threshold for rewriting it): a merge follows the base's rows
 * through the compactions, so its time and the bytes it writes should follow the changed rows, not the table.
 */
public final class MergeTimings
{
    private static final String MERGE_SCHEMA = "bench_merges";

    private MergeTimings() {}

    /**
     * @param bytesWritten bytes of the files the merge added to the table's directory
     * @param rewrittenByOptimize fragments the optimize runs rewrote before the merge, on both sides
     */
    public record MergeTime(boolean compacted, long rows, long rowsChangedOnBranch, long rewrittenByOptimize, double mergeSeconds, long bytesWritten, long tableBytes, boolean rightResult) {}

    public static List<MergeTime> measure(BenchmarkEnvironment environment)
    {
        QueryRunner runner = environment.runner();
        List<MergeTime> results = new ArrayList<>();
        for (boolean compacted : List.of(false, true)) {
            String table = compacted ? "li_compacted" : "li_plain";
            Session session = cloneLineitem(runner, MERGE_SCHEMA, table);
            runner.execute(session, "CREATE BRANCH exp IN TABLE " + table);
            long changed = updateCount(runner, session, "UPDATE %s @ exp SET l_comment = 'reviewed' WHERE l_orderkey %% 100 = 3".formatted(table));
            runner.execute(session, "DELETE FROM %s WHERE l_orderkey %% 8 = 1 AND l_orderkey %% 100 <> 3".formatted(table));
            runner.execute(session, "INSERT INTO %s SELECT * FROM lance.%s.lineitem WHERE l_orderkey %% 1000 = 9".formatted(table, BenchmarkEnvironment.SCHEMA));
            long rewritten = 0;
            if (compacted) {
                rewritten += metric(runner.execute(session, "ALTER TABLE %s EXECUTE optimize".formatted(table)), "fragments_rewritten");
                rewritten += metric(runner.execute(session, "ALTER TABLE %s EXECUTE optimize(branch => 'exp')".formatted(table)), "fragments_rewritten");
            }
            long expectedReviewed = count(runner, session, "SELECT count(*) FROM %s WHERE l_orderkey %% 100 = 3".formatted(table));
            long expectedRows = count(runner, session, "SELECT count(*) FROM " + table);
            long before = TpchData.directoryBytes(environment.lanceTable(MERGE_SCHEMA, table));
            long start = System.nanoTime();
            runner.execute(session, "ALTER TABLE %s EXECUTE merge_branch(source => 'exp')".formatted(table));
            double seconds = (System.nanoTime() - start) / 1e9;
            long after = TpchData.directoryBytes(environment.lanceTable(MERGE_SCHEMA, table));
            boolean right = count(runner, session, "SELECT count(*) FROM %s WHERE l_comment = 'reviewed'".formatted(table)) == expectedReviewed
                    && count(runner, session, "SELECT count(*) FROM " + table) == expectedRows;
            long rows = count(runner, session, "SELECT count(*) FROM " + table);
            System.out.printf("merge_branch of %,d changed rows into %,d rows%s: %.3fs, %,d bytes written%s%n",
                    changed, rows, compacted ? " after optimize on both sides (%,d fragments rewritten)".formatted(rewritten) : "", seconds, after - before, right ? "" : ", WRONG RESULT");
            results.add(new MergeTime(compacted, rows, changed, rewritten, seconds, after - before, after, right));
            runner.execute(session, "DROP TABLE " + table);
        }
        return results;
    }

    private static long updateCount(QueryRunner runner, Session session, String sql)
    {
        return runner.execute(session, sql).getUpdateCount().orElseThrow();
    }
}
