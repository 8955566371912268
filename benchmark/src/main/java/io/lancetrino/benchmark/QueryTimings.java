package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.execution.QueryStats;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import io.trino.testing.MaterializedRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;

/**
 * Runs each query on both connectors, alternating so drift of the machine hits both alike, after a warm-up run each;
 * checks that both return the same rows.
 */
public final class QueryTimings
{
    private QueryTimings() {}

    public record Run(double seconds, double cpuSeconds) {}

    public record QueryResult(String name, String description, Stats lance, Stats iceberg, boolean sameResult)
    {
        public double ratio()
        {
            return lance.medianSeconds() / iceberg.medianSeconds();
        }
    }

    public record Stats(double medianSeconds, double minSeconds, double maxSeconds, double medianCpuSeconds)
    {
        static Stats of(List<Run> runs)
        {
            List<Double> seconds = runs.stream().map(Run::seconds).sorted().toList();
            List<Double> cpu = runs.stream().map(Run::cpuSeconds).sorted().toList();
            return new Stats(Measurements.median(seconds), seconds.getFirst(), seconds.getLast(), Measurements.median(cpu));
        }
    }

    public static List<QueryResult> run(DistributedQueryRunner runner, List<BenchmarkQuery> queries, int runs)
    {
        Map<String, String> versions = new HashMap<>();
        for (String catalog : TpchData.CATALOGS) {
            versions.put(catalog, TpchData.versionBeforeDelete(runner, catalog));
        }
        List<QueryResult> results = new ArrayList<>();
        for (BenchmarkQuery query : queries) {
            String lanceSql = query.sqlFor(versions.get("lance"));
            String icebergSql = query.sqlFor(versions.get("iceberg"));
            MaterializedResult lanceRows = runner.execute(session("lance"), lanceSql);
            MaterializedResult icebergRows = runner.execute(session("iceberg"), icebergSql);
            List<Run> lance = new ArrayList<>();
            List<Run> iceberg = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                lance.add(timed(runner, session("lance"), lanceSql));
                iceberg.add(timed(runner, session("iceberg"), icebergSql));
            }
            QueryResult result = new QueryResult(query.name(), query.description(), Stats.of(lance), Stats.of(iceberg), sameRows(lanceRows, icebergRows));
            System.out.printf("%-16s lance %.3fs  iceberg %.3fs  ratio %.2f%s%n", query.name(), result.lance().medianSeconds(), result.iceberg().medianSeconds(), result.ratio(),
                    result.sameResult() ? "" : "  RESULTS DIFFER");
            results.add(result);
        }
        return results;
    }

    static Run timed(DistributedQueryRunner runner, Session session, String sql)
    {
        long start = System.nanoTime();
        MaterializedResultWithPlan result = runner.executeWithPlan(session, sql);
        double seconds = (System.nanoTime() - start) / 1e9;
        QueryStats stats = runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats();
        return new Run(seconds, stats.getTotalCpuTime().toMillis() / 1e3);
    }

    /**
     * Same rows in the same order, doubles equal to 9 significant digits (sums of doubles depend on the order of
     * addition, which differs between connectors' splits).
     */
    static boolean sameRows(MaterializedResult first, MaterializedResult second)
    {
        return sameRows(first.getMaterializedRows(), second.getMaterializedRows());
    }

    static boolean sameRows(List<MaterializedRow> left, List<MaterializedRow> right)
    {
        if (left.size() != right.size()) {
            return false;
        }
        for (int row = 0; row < left.size(); row++) {
            List<Object> a = left.get(row).getFields();
            List<Object> b = right.get(row).getFields();
            if (a.size() != b.size()) {
                return false;
            }
            for (int field = 0; field < a.size(); field++) {
                if (!sameValue(a.get(field), b.get(field))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean sameValue(Object a, Object b)
    {
        if (a instanceof Double x && b instanceof Double y) {
            return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
        }
        return Objects.equals(a, b);
    }
}
