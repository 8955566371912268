package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.ServeProcess;
import io.trino.jdbc.TrinoResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * {@code bin/serve --workers 2}: a real coordinator and two worker processes with the plugin zip installed, reached
 * over JDBC. Scans run on both workers, writes commit once, and a worker killed with SIGKILL in the middle of an INSERT
 * under {@code retry_policy = 'TASK'} costs a retry, not a row.
 */
@TestInstance(PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class TestTrinoCluster
{
    private static final String COORDINATOR = "serve-1";

    private ServeProcess serve;

    @BeforeAll
    void start()
            throws Exception
    {
        Path root = TemporaryWarehouses.create("lance-cluster");
        Path warehouse = Files.createDirectories(root.resolve("warehouse"));
        Path sandbox = Files.createDirectories(root.resolve("sandbox"));
        serve = ServeProcess.start(root.resolve("server"), warehouse, sandbox, 2, 15, TimeUnit.MINUTES);
    }

    @AfterAll
    void stop()
            throws Exception
    {
        if (serve != null) {
            serve.stop(2, TimeUnit.MINUTES);
        }
    }

    @Test
    @Order(1)
    void testScansRunOnBothWorkers()
            throws Exception
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA lance.cluster");
            statement.execute("CREATE TABLE lance.cluster.orders WITH (max_rows_per_file = 5000) AS SELECT * FROM tpch.tiny.orders");
            String queryId;
            try (ResultSet rows = statement.executeQuery("SELECT count(*), sum(totalprice) FROM lance.cluster.orders")) {
                queryId = rows.unwrap(TrinoResultSet.class).getQueryId();
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).isEqualTo(15000);
            }
            assertThat(scalar(statement, "SELECT sum(totalprice) = (SELECT sum(totalprice) FROM tpch.tiny.orders) FROM lance.cluster.orders")).isEqualTo(true);
            // the scan's splits ran on both workers
            assertThat(scalar(statement, "SELECT count(DISTINCT node_id) FROM system.runtime.tasks WHERE query_id = '%s' AND node_id <> '%s' AND splits > 0".formatted(queryId, COORDINATOR)))
                    .isEqualTo(2L);
            assertThat(scalar(statement, "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active' AND NOT coordinator")).isEqualTo(2L);
        }
    }

    @Test
    @Order(2)
    void testWorkerKilledDuringInsertUnderTaskRetries()
            throws Exception
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE lance.cluster.items WITH (max_rows_per_file = 50000) AS SELECT * FROM tpch.tiny.lineitem WITH NO DATA");
        }
        Properties retries = new Properties();
        retries.setProperty("user", "cluster-test");
        retries.setProperty("sessionProperties", "retry_policy:TASK");
        CompletableFuture<Long> insert = CompletableFuture.supplyAsync(() -> {
            try (Connection connection = DriverManager.getConnection(serve.jdbcUrl(), retries); Statement statement = connection.createStatement()) {
                return statement.executeLargeUpdate("INSERT INTO lance.cluster.items SELECT * FROM tpch.sf1.lineitem WHERE orderkey % 4 = 0");
            }
            catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
        // once the INSERT runs tasks on worker 2, kill that worker outright
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (scalar(statement, "SELECT count(*) FROM system.runtime.tasks t JOIN system.runtime.queries q ON t.query_id = q.query_id "
                    + "WHERE q.query LIKE 'INSERT INTO lance.cluster.items%' AND q.state = 'RUNNING' AND t.node_id = 'serve-worker-2' AND t.state = 'RUNNING'").equals(0L)) {
                assertThat(insert).isNotDone();
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(200);
            }
        }
        ProcessHandle worker = serve.workerJvm(2).orElseThrow();
        assertThat(worker.destroyForcibly()).isTrue();
        long inserted = insert.get(10, TimeUnit.MINUTES);

        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            long expected = (Long) scalar(statement, "SELECT count(*) FROM tpch.sf1.lineitem WHERE orderkey % 4 = 0");
            assertThat(inserted).isEqualTo(expected);
            // every row exactly once, one new version
            assertThat(scalar(statement, "SELECT count(*) FROM lance.cluster.items")).isEqualTo(expected);
            assertThat(scalar(statement, "SELECT count(*) FROM (SELECT DISTINCT orderkey, linenumber FROM lance.cluster.items)")).isEqualTo(expected);
            assertThat(scalar(statement, "SELECT count(*) FROM lance.cluster.\"items$versions\"")).isEqualTo(2L);
        }
    }

    private Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(serve.jdbcUrl(), "cluster-test", null);
    }

    private static Object scalar(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getObject(1);
        }
    }
}
