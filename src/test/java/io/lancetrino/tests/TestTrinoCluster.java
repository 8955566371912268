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
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * {@code bin/serve --workers 2}: a real coordinator and two worker processes with the plugin zip installed, reached
 * over JDBC: scans run on both workers, and writes under {@code retry_policy = 'TASK'} (fault-tolerant execution with the
 * file-system exchange manager {@code bin/serve} configures) commit once and leave no file the table does not reference.
 */
@TestInstance(PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class TestTrinoCluster
{
    private static final String COORDINATOR = "serve-1";

    private ServeProcess serve;
    private Path warehouse;

    @BeforeAll
    void start()
            throws Exception
    {
        Path root = TemporaryWarehouses.create("lance-cluster");
        warehouse = Files.createDirectories(root.resolve("warehouse"));
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
            assertThat(scalar(statement, "SELECT abs(sum(totalprice) - (SELECT sum(totalprice) FROM tpch.tiny.orders)) < 0.01 FROM lance.cluster.orders")).isEqualTo(true);
            // the scan's splits ran on both workers
            assertThat(scalar(statement, "SELECT count(DISTINCT node_id) FROM system.runtime.tasks WHERE query_id = '%s' AND node_id <> '%s' AND splits > 0".formatted(queryId, COORDINATOR)))
                    .isEqualTo(2L);
            assertThat(scalar(statement, "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active' AND NOT coordinator")).isEqualTo(2L);
        }
    }

    @Test
    @Order(2)
    void testWritesUnderTaskRetries()
            throws Exception
    {
        Properties retries = new Properties();
        retries.setProperty("user", "cluster-test");
        retries.setProperty("sessionProperties", "retry_policy:TASK");
        try (Connection connection = DriverManager.getConnection(serve.jdbcUrl(), retries); Statement statement = connection.createStatement()) {
            assertThat(statement.executeLargeUpdate("CREATE TABLE lance.cluster.items WITH (max_rows_per_file = 20000) AS SELECT * FROM tpch.tiny.lineitem"))
                    .isEqualTo(scalar(statement, "SELECT count(*) FROM tpch.tiny.lineitem"));
            assertThat(statement.executeLargeUpdate("INSERT INTO lance.cluster.items SELECT * FROM tpch.tiny.lineitem WHERE orderkey % 2 = 0"))
                    .isEqualTo(scalar(statement, "SELECT count(*) FROM tpch.tiny.lineitem WHERE orderkey % 2 = 0"));
            assertThat(statement.executeLargeUpdate("DELETE FROM lance.cluster.items WHERE linenumber = 1")).isPositive();
            assertThat(scalar(statement, "SELECT count(*) FROM lance.cluster.items")).isEqualTo(
                    scalar(statement, "SELECT (SELECT count(*) FROM tpch.tiny.lineitem WHERE linenumber <> 1) + (SELECT count(*) FROM tpch.tiny.lineitem WHERE orderkey % 2 = 0 AND linenumber <> 1)"));
            assertThat(scalar(statement, "SELECT count(*) FROM lance.cluster.\"items$versions\"")).isEqualTo(3L);
            // every data file is one the table references
            Set<String> referenced = new HashSet<>();
            try (ResultSet rows = statement.executeQuery("SELECT f FROM lance.cluster.\"items$fragments\" CROSS JOIN UNNEST(data_files) AS t(f)")) {
                while (rows.next()) {
                    referenced.add(Path.of(rows.getString(1)).getFileName().toString());
                }
            }
            try (Stream<Path> files = Files.list(warehouse.resolve("cluster/items.lance/data"))) {
                assertThat(files.map(file -> file.getFileName().toString()).collect(Collectors.toSet())).isEqualTo(referenced);
            }
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
