package io.lancetrino.tests.recovery;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Module;
import io.lancetrino.tests.LanceQueryRunner;
import io.trino.Session;
import io.trino.execution.FailureInjector.InjectedFailureType;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.operator.RetryPolicy;
import io.trino.plugin.exchange.filesystem.FileSystemExchangePlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.ExtendedFailureRecoveryTest;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Trino's own failure-recovery suite over the connector: every statement kind with failures injected at every point
 * the engine knows (task failures, lost task results, timeouts, failed task management requests), under
 * fault-tolerant execution with the file-system exchange manager spooling to local disk. After each, the suite checks
 * the query's answer, and for writes the table's content, against the same statement run without failures; every
 * write is also checked for its versions and files as it ends ({@link WriteOutcomeChecks}).
 * <p>
 * The cases run concurrently, as in Trino's own build: most of their time is spent waiting out injected timeouts,
 * and each uses tables of its own and failures keyed to its own queries. The Maven execution {@code failure-recovery}
 * (src/test/pom.xml) runs the suites apart from every other test with JUnit's parallel mode on. A case that runs far past its usual one to three minutes fails instead of
 * holding the build (the dynamic-filtering join waits up to an hour for its filter).
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
abstract class BaseLanceFailureRecoveryTest
        extends ExtendedFailureRecoveryTest
{
    private WriteOutcomeChecks writeChecks;

    protected BaseLanceFailureRecoveryTest(RetryPolicy retryPolicy)
    {
        super(retryPolicy);
    }

    @Override
    protected QueryRunner createQueryRunner(List<TpchTable<?>> requiredTpchTables, Map<String, String> configProperties, Map<String, String> coordinatorProperties, Module failureInjectionModule)
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-recovery");
        Path exchange = Files.createDirectories(warehouse.resolveSibling(warehouse.getFileName() + "-exchange"));
        writeChecks = new WriteOutcomeChecks(warehouse, "lance");
        DistributedQueryRunner runner = LanceQueryRunner.builder(warehouse)
                .withSchema("tpch")
                .setEventListener(writeChecks)
                .setExtraProperties(configProperties)
                .setCoordinatorProperties(coordinatorProperties)
                .setAdditionalModule(failureInjectionModule)
                .setAdditionalSetup(setup -> {
                    setup.installPlugin(new FileSystemExchangePlugin());
                    setup.loadExchangeManager("filesystem", ImmutableMap.of("exchange.base-directories", exchange.toUri().toString()));
                })
                .build();
        runner.execute("CREATE SCHEMA lance.tpch");
        for (TpchTable<?> table : requiredTpchTables) {
            runner.execute("CREATE TABLE lance.tpch.%s AS SELECT * FROM tpch.tiny.%s".formatted(table.getTableName(), table.getTableName()));
        }
        return runner;
    }

    /**
     * Every write the suite ran, failed or not, passed {@link WriteOutcomeChecks}; both kinds were seen.
     */
    @AfterAll
    void checkWriteOutcomes()
    {
        System.out.printf("%s: writes checked as they ended: %s succeeded, %s failed%n", getClass().getSimpleName(), writeChecks.checkedSuccesses(), writeChecks.checkedFailures());
        assertThat(writeChecks.violations()).isEmpty();
        assertThat(writeChecks.checkedSuccesses()).isPositive();
        assertThat(writeChecks.checkedFailures()).isPositive();
    }

    @Override
    protected boolean areWriteRetriesSupported()
    {
        return true;
    }

    @Override
    protected void createPartitionedLineitemTable(String tableName, List<String> columns, String partitionColumn)
    {
        // Lance tables have no partitions: the same rows, one table
        getQueryRunner().execute("CREATE TABLE %s AS SELECT %s FROM tpch.tiny.lineitem".formatted(tableName, String.join(", ", columns)));
    }

    /**
     * Writes to a branch and to a shallow clone with a failed writer task, and the coordinator-side maintenance
     * (optimize, merge_branch) under the retry policy: every row once, one version per statement.
     */
    @Test
    void testBranchCloneAndMaintenanceWrites()
    {
        String table = "branched_" + getRetryPolicy().name().toLowerCase(Locale.ROOT);
        String clone = table + "_clone";
        getQueryRunner().execute("CREATE TABLE %s WITH (max_rows_per_file = 2000) AS SELECT * FROM orders".formatted(table));
        getQueryRunner().execute("CREATE BRANCH dev IN TABLE " + table);
        executeWithFailedWriter("branch", "INSERT INTO %s @ dev SELECT orderkey + 1000000, custkey, orderstatus, totalprice, orderdate, orderpriority, clerk, shippriority, comment FROM orders".formatted(table));
        assertQuery("SELECT count(*), count(DISTINCT orderkey) FROM %s FOR VERSION AS OF 'dev'".formatted(table), "VALUES (30000, 30000)");
        assertQuery("SELECT count(*) FROM " + table, "VALUES 15000");

        getQueryRunner().execute("CALL lance.system.shallow_clone('tpch', '%s', 'tpch', '%s', NULL)".formatted(table, clone));
        executeWithFailedWriter("clone", "INSERT INTO %s SELECT orderkey + 2000000, custkey, orderstatus, totalprice, orderdate, orderpriority, clerk, shippriority, comment FROM orders".formatted(clone));
        assertQuery("SELECT count(*), count(DISTINCT orderkey) FROM " + clone, "VALUES (30000, 30000)");

        getQueryRunner().execute("ALTER TABLE %s EXECUTE merge_branch(source => 'dev')".formatted(table));
        assertQuery("SELECT count(*), count(DISTINCT orderkey) FROM " + table, "VALUES (30000, 30000)");
        getQueryRunner().execute("ALTER TABLE %s EXECUTE optimize(target_rows_per_fragment => 100000)".formatted(table));
        assertQuery("SELECT count(*), count(DISTINCT orderkey), sum(totalprice) FROM " + table,
                "SELECT 2 * count(*), 2 * count(*), 2 * sum(totalprice) FROM orders");
        getQueryRunner().execute("DROP TABLE " + clone);
        getQueryRunner().execute("DROP TABLE " + table);
    }

    // the first attempt of each writer task fails; Trino runs it again (TASK) or the query again (QUERY)
    private void executeWithFailedWriter(String name, String sql)
    {
        String traceToken = "lance-%s-%s".formatted(name, getRetryPolicy());
        for (int stage = 1; stage <= 3; stage++) {
            getDistributedQueryRunner().injectTaskFailure(traceToken, stage, 0, 0, InjectedFailureType.TASK_FAILURE, Optional.of(io.trino.spi.ErrorType.INTERNAL_ERROR));
        }
        getQueryRunner().execute(Session.builder(getSession()).setTraceToken(Optional.of(traceToken)).build(), sql);
    }

    @Test
    @Override
    protected void testAnalyzeTable()
    {
        // Lance tables keep no statistics Trino could collect
        assertThatThrownBy(super::testAnalyzeTable).hasMessageContaining("does not support analyze");
    }

    @Test
    @Override
    protected void testRefreshMaterializedView()
    {
        assertThatThrownBy(super::testRefreshMaterializedView).hasMessageContaining("does not support creating materialized views");
    }
}
