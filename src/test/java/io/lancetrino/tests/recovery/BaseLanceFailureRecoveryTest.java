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
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Trino's own failure-recovery suite over the connector: every statement kind with failures injected at every point
 * the engine knows (task failures, lost task results, timeouts, failed task management requests), under
 * fault-tolerant execution with the file-system exchange manager spooling to local disk. After each, the suite checks
 * the query's answer, and for writes the table's content, against the same statement run without failures.
 */
abstract class BaseLanceFailureRecoveryTest
        extends ExtendedFailureRecoveryTest
{
    private Path warehouse;

    protected BaseLanceFailureRecoveryTest(RetryPolicy retryPolicy)
    {
        super(retryPolicy);
    }

    @Override
    protected QueryRunner createQueryRunner(List<TpchTable<?>> requiredTpchTables, Map<String, String> configProperties, Map<String, String> coordinatorProperties, Module failureInjectionModule)
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-recovery");
        Path exchange = Files.createDirectories(warehouse.resolveSibling(warehouse.getFileName() + "-exchange"));
        DistributedQueryRunner runner = LanceQueryRunner.builder(warehouse)
                .withSchema("tpch")
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
     * A writer task whose results the coordinator fails to fetch has written its files, and runs again: the retried
     * attempt's fragments are committed, the first attempt's files are removed by the commit, and no row is doubled.
     */
    @Test
    void testFilesOfUncountedAttemptsAreRemoved()
            throws Exception
    {
        String table = "attempts_" + getRetryPolicy().name().toLowerCase(Locale.ROOT);
        getQueryRunner().execute("CREATE TABLE %s AS SELECT * FROM orders WITH NO DATA".formatted(table));
        String traceToken = "lance-attempts-" + getRetryPolicy();
        for (int stage = 1; stage <= 3; stage++) {
            getDistributedQueryRunner().injectTaskFailure(traceToken, stage, 0, 0, InjectedFailureType.TASK_GET_RESULTS_REQUEST_FAILURE, Optional.empty());
        }
        Session session = Session.builder(getSession()).setTraceToken(Optional.of(traceToken)).build();
        MaterializedResultWithPlan result = getDistributedQueryRunner().executeWithPlan(session, "INSERT INTO %s SELECT * FROM orders".formatted(table));
        assertThat(result.result().getUpdateCount()).hasValue(15000);
        assertQuery("SELECT count(*), count(DISTINCT orderkey), sum(totalprice) FROM " + table, "SELECT count(*), count(DISTINCT orderkey), sum(totalprice) FROM orders");
        // a writer attempt was retried
        String queryId = result.queryId().toString();
        assertThat(computeActual("SELECT count(*) FROM system.runtime.tasks WHERE query_id = '%s' AND NOT task_id LIKE '%%.0'".formatted(queryId)).getOnlyValue())
                .isNotEqualTo(0L);
        // every data file is one the table references
        Set<String> referenced = computeActual("SELECT f FROM \"%s$fragments\" CROSS JOIN UNNEST(data_files) AS t(f)".formatted(table)).getOnlyColumnAsSet().stream()
                .map(file -> Path.of((String) file).getFileName().toString())
                .collect(Collectors.toSet());
        Path data = warehouse.resolve("tpch").resolve(table + ".lance").resolve("data");
        try (Stream<Path> files = Files.list(data)) {
            assertThat(files.map(file -> file.getFileName().toString()).collect(Collectors.toSet())).isEqualTo(referenced);
        }
        assertQuery("SELECT count(*) FROM \"%s$versions\"".formatted(table), "VALUES 2");
        getQueryRunner().execute("DROP TABLE " + table);
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
