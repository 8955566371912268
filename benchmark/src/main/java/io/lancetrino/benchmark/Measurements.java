package io.lancetrino.benchmark;

import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceTables;
import io.lancetrino.split.fs.LanceFileSystems;
import io.lancetrino.split.fs.ObjectStoreOptions;
import io.trino.Session;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;

import java.nio.file.Path;
import java.util.List;

/**
 * What the measurements share: medians, shallow clones of lineitem to change, counts and procedure metrics, and the
 * connector's table access on local disk without a Trino engine.
 */
final class Measurements
{
    private Measurements() {}

    static double median(List<Double> values)
    {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /**
     * The nearest-rank percentile: the smallest value at least {@code fraction} of the values are at or below.
     */
    static double percentile(List<Double> values, double fraction)
    {
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(fraction * sorted.size());
        return sorted.get(Math.max(rank, 1) - 1);
    }

    /**
     * A fresh catalog-wide table access, with its own (empty) manifest cache.
     */
    static LanceTables localTables(LanceConfig config)
    {
        return new LanceTables(new LanceFileSystems(new LocalFileSystemFactory(Path.of("/")), ObjectStoreOptions.NONE, config), config);
    }

    /**
     * A fresh shallow clone of the shared lineitem in its own schema (made if missing), for a part that changes it; a
     * clone left by an interrupted run is dropped first.
     */
    static Session cloneLineitem(QueryRunner runner, String schema, String table)
    {
        runner.execute(BenchmarkEnvironment.session("lance"), "CREATE SCHEMA IF NOT EXISTS lance." + schema);
        Session session = BenchmarkEnvironment.session("lance", schema);
        runner.execute(session, "DROP TABLE IF EXISTS " + table);
        runner.execute(session, "CALL lance.system.shallow_clone('%s', 'lineitem', '%s', '%s', NULL)".formatted(BenchmarkEnvironment.SCHEMA, schema, table));
        return session;
    }

    static long count(QueryRunner runner, Session session, String sql)
    {
        return ((Number) runner.execute(session, sql).getOnlyValue()).longValue();
    }

    /** A figure of a table procedure's result (rows of metric name and value). */
    static long metric(MaterializedResult result, String name)
    {
        return result.getMaterializedRows().stream()
                .filter(row -> name.equals(row.getField(0)))
                .mapToLong(row -> ((Number) row.getField(1)).longValue())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no metric %s in %s".formatted(name, result.getMaterializedRows())));
    }
}
