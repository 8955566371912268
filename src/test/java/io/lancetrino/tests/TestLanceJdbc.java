package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.trino.jdbc.TrinoDriver;
import io.trino.testing.DistributedQueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The connector as a JDBC client sees it: catalog metadata through {@link DatabaseMetaData} and versioned queries
 * through a {@link Statement}, over the Trino JDBC driver against a running coordinator.
 */
@TestInstance(PER_CLASS)
final class TestLanceJdbc
{
    private DistributedQueryRunner runner;
    private String url;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-jdbc");
        DemoWarehouse.create(warehouse);
        runner = LanceQueryRunner.builder(warehouse)
                .withSchema("demo")
                .setWorkerCount(0)
                .build();
        URI baseUrl = runner.getCoordinator().getBaseUrl();
        url = "jdbc:trino://%s:%s/lance/demo".formatted(baseUrl.getHost(), baseUrl.getPort());
    }

    @AfterAll
    void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
    }

    private Connection connect()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", "test");
        return new TrinoDriver().connect(url, properties);
    }

    @Test
    void testDatabaseMetaData()
            throws SQLException
    {
        try (Connection connection = connect()) {
            assertThat(connection.getCatalog()).isEqualTo("lance");
            assertThat(connection.getSchema()).isEqualTo("demo");
            DatabaseMetaData metaData = connection.getMetaData();

            List<String> schemas = new ArrayList<>();
            try (ResultSet rs = metaData.getSchemas("lance", null)) {
                while (rs.next()) {
                    assertThat(rs.getString("TABLE_CATALOG")).isEqualTo("lance");
                    schemas.add(rs.getString("TABLE_SCHEM"));
                }
            }
            assertThat(schemas).containsExactlyInAnyOrder("demo", "information_schema");
            List<String> allSchemas = new ArrayList<>();
            try (ResultSet rs = metaData.getSchemas()) {
                while (rs.next()) {
                    if (rs.getString("TABLE_CATALOG").equals("lance")) {
                        allSchemas.add(rs.getString("TABLE_SCHEM"));
                    }
                }
            }
            assertThat(allSchemas).containsExactlyInAnyOrder("demo", "information_schema");

            List<String> tables = new ArrayList<>();
            try (ResultSet rs = metaData.getTables("lance", "demo", "%", null)) {
                while (rs.next()) {
                    assertThat(rs.getString("TABLE_CAT")).isEqualTo("lance");
                    assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("demo");
                    assertThat(rs.getString("TABLE_TYPE")).isEqualTo("TABLE");
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).containsExactly("trips");

            Map<String, Integer> types = new LinkedHashMap<>();
            Map<String, String> typeNames = new LinkedHashMap<>();
            try (ResultSet rs = metaData.getColumns("lance", "demo", "trips", null)) {
                while (rs.next()) {
                    assertThat(rs.getString("TABLE_NAME")).isEqualTo("trips");
                    types.put(rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"));
                    typeNames.put(rs.getString("COLUMN_NAME"), rs.getString("TYPE_NAME"));
                }
            }
            assertThat(types).containsExactly(
                    Map.entry("trip_id", Types.BIGINT),
                    Map.entry("city", Types.VARCHAR),
                    Map.entry("fare", Types.DOUBLE),
                    Map.entry("started_at", Types.TIMESTAMP));
            assertThat(typeNames).containsExactly(
                    Map.entry("trip_id", "bigint"),
                    Map.entry("city", "varchar"),
                    Map.entry("fare", "double"),
                    Map.entry("started_at", "timestamp(6)"));
            // without a table name the driver lists the columns of the whole schema
            for (String tablePattern : new String[] {"%", null}) {
                List<String> columns = new ArrayList<>();
                try (ResultSet rs = metaData.getColumns("lance", "demo", tablePattern, null)) {
                    while (rs.next()) {
                        columns.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE"));
                    }
                }
                assertThat(columns).containsExactly(
                        "trips.trip_id " + Types.BIGINT,
                        "trips.city " + Types.VARCHAR,
                        "trips.fare " + Types.DOUBLE,
                        "trips.started_at " + Types.TIMESTAMP);
            }
            try (ResultSet rs = metaData.getColumns("lance", "demo", "trips", "trip_id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("IS_NULLABLE")).isEqualTo("NO");
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @Test
    void testVersionedQueries()
            throws SQLException
    {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            assertThat(count(statement, "SELECT count(*) FROM trips FOR VERSION AS OF 2")).isEqualTo(1000);
            assertThat(count(statement, "SELECT count(*) FROM trips FOR VERSION AS OF 'baseline'")).isEqualTo(1000);
            assertThat(count(statement, "SELECT count(*) FROM trips FOR VERSION AS OF 3")).isEqualTo(1500);
            assertThat(count(statement, "SELECT count(*) FROM trips FOR VERSION AS OF 'experiment'")).isEqualTo(1600);
            assertThat(count(statement, "SELECT count(*) FROM lance.demo.trips FOR VERSION AS OF 1")).isEqualTo(0);

            try (ResultSet rs = statement.executeQuery("SELECT trip_id, city, fare, started_at FROM trips FOR VERSION AS OF 'baseline' WHERE trip_id = 7")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong("trip_id")).isEqualTo(7);
                assertThat(rs.getString("city")).isEqualTo("Oslo");
                assertThat(rs.getDouble("fare")).isEqualTo(3.0 + (7 * 37 % 4000) / 100.0);
                assertThat(rs.getTimestamp("started_at")).isNotNull();
                assertThat(rs.next()).isFalse();
            }

            try (ResultSet rs = statement.executeQuery("SELECT version, operation FROM \"trips$versions\" ORDER BY version")) {
                List<String> operations = new ArrayList<>();
                while (rs.next()) {
                    operations.add(rs.getLong(1) + ":" + rs.getString(2));
                }
                assertThat(operations).containsExactly("1:overwrite", "2:append", "3:append", "4:delete", "5:append");
            }

            assertThatThrownBy(() -> statement.executeQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'nope'"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Table demo.trips has no tag or branch 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']");
        }
    }

    private static long count(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet rs = statement.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            long count = rs.getLong(1);
            assertThat(rs.next()).isFalse();
            return count;
        }
    }
}
