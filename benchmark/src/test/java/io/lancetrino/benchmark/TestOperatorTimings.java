package io.lancetrino.benchmark;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class TestOperatorTimings
{
    // EXPLAIN ANALYZE of SELECT count(l_shipdate) FROM lineitem on the Lance catalog, TPC-H SF1, as Trino 483 prints it
    private static final String PLAN = """
            Fragment 1 [SINGLE]
                CPU: 11.08ms, Scheduled: 29.86ms, Blocked 3.85s (Input: 3.09s, Output: 0.00ns), Input: 6 rows (54B); per task: avg.: 6.00 std.dev.: 0.00, Output: 1 row (9B)
                Peak Memory: 104B, Tasks count: 1; per task: max: 104B
                Output layout: [count]
                Output partitioning: SINGLE []
                Aggregate[type = FINAL]
                │   Layout: [count:bigint]
                │   Estimates: {rows: 1 (9B), cpu: 51.51M, memory: 9B, network: 0B}
                │   CPU: 3.00ms (0.58%), Scheduled: 14.00ms (0.53%), Blocked: 0.00ns (0.00%), Output: 1 row (9B)
                │   Input avg.: 6.00 rows, Input std.dev.: 0.00%
                │   count := count(count_0)
                └─ LocalExchange[partitioning = SINGLE]
                   │   Layout: [count_0:bigint]
                   │   Estimates: {rows: 6001215 (51.51MB), cpu: 0, memory: 0B, network: 0B}
                   │   CPU: 1.00ms (0.19%), Scheduled: 3.00ms (0.11%), Blocked: 760.00ms (19.74%), Output: 6 rows (54B)
                   │   Input avg.: 1.50 rows, Input std.dev.: 110.55%
                   └─ RemoteSource[sourceFragmentIds = [2]]
                          Layout: [count_0:bigint]
                          CPU: 5.00ms (0.96%), Scheduled: 11.00ms (0.41%), Blocked: 3.09s (80.26%), Output: 6 rows (54B)
                          Input avg.: 1.50 rows, Input std.dev.: 110.55%
            Fragment 2 [SOURCE]
                CPU: 514.58ms, Scheduled: 2.64s, Blocked 0.00ns (Input: 0.00ns, Output: 0.00ns), Input: 6001215 rows (51.51MB); per task: avg.: 6001215.00 std.dev.: 0.00, Output: 6 rows (54B)
                Peak Memory: 1.57MB, Tasks count: 1; per task: max: 1.57MB
                Output layout: [count_0]
                Output partitioning: SINGLE []
                Aggregate[type = PARTIAL]
                │   Layout: [count_0:bigint]
                │   Estimates: {rows: 6001215 (51.51MB), cpu: ?, memory: ?, network: ?}
                │   CPU: 170.00ms (32.63%), Scheduled: 695.00ms (26.10%), Blocked: 0.00ns (0.00%), Output: 6 rows (54B)
                │   Input avg.: 1000202.50 rows, Input std.dev.: 7.74%
                │   count_0 := count(l_shipdate)
                └─ TableScan[table = lance:tpch.lineitem@main version 1]
                       Layout: [l_shipdate:date]
                       Estimates: {rows: 6001215 (28.62MB), cpu: 28.62M, memory: 0B, network: 0B}
                       CPU: 342.00ms (65.64%), Scheduled: 1.94s (72.85%), Blocked: 0.00ns (0.00%), Output: 6001215 rows (51.51MB)
                       Input avg.: 1000202.50 rows, Input std.dev.: 7.74%
                       l_shipdate := LanceColumnHandle[name=l_shipdate, fieldId=10, subtreeFieldIds=[10], type=date, nullable=true]
                       Input: 6001215 rows (51.51MB), Physical input: 51.51MB, Physical input time: 726.57ms, Splits: 6, Splits generation wait time: 4.27ms
            """;

    @Test
    void readsEachPlanNodesCpuAndNotItsFragments()
    {
        // the fragments' own CPU lines (11.08 ms and 514.58 ms) are their nodes' totals and belong to no node
        assertThat(OperatorTimings.parse(PLAN)).containsExactly(
                entry("Aggregate FINAL", 3.0),
                entry("LocalExchange", 1.0),
                entry("RemoteSource", 5.0),
                entry("Aggregate PARTIAL", 170.0),
                entry("scan lineitem", 342.0));
    }
}
