package io.lancetrino.tests;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.jdbc.TrinoDriver;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What BI tools show in their table browsers: SHOW STATS, SHOW CREATE TABLE and column comments.
 */
final class TestLanceTableMetadata
        extends AbstractTestQueryFramework
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-table-metadata");
        closeAfterClass(() -> MoreFiles.deleteRecursively(warehouse, RecursiveDeleteOption.ALLOW_INSECURE));
        QueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema("meta").build();
        runner.execute("CREATE SCHEMA lance.meta");
        return runner;
    }

    @Test
    void testShowStatsPerVersion()
    {
        assertUpdate("CREATE TABLE stats (id bigint NOT NULL, name varchar)");
        assertUpdate("INSERT INTO stats VALUES (1, 'a'), (2, NULL), (3, 'c')", 3);
        assertUpdate("INSERT INTO stats VALUES (4, 'd'), (5, 'e')", 2);
        assertUpdate("DELETE FROM stats WHERE id = 1", 1);

        // live rows of the head of main: 5 written, 1 deleted; a NOT NULL column has no NULLs, the rest is unknown
        assertQuery("SHOW STATS FOR stats",
                """
                VALUES
                  ('id', NULL, NULL, 0.0, NULL, NULL, NULL),
                  ('name', NULL, NULL, NULL, NULL, NULL, NULL),
                  (NULL, NULL, NULL, NULL, 4.0, NULL, NULL)
                """);
        // version 2 holds the first INSERT only
        assertQuery("SHOW STATS FOR (SELECT * FROM stats FOR VERSION AS OF 2)",
                """
                VALUES
                  ('id', NULL, NULL, 0.0, NULL, NULL, NULL),
                  ('name', NULL, NULL, NULL, NULL, NULL, NULL),
                  (NULL, NULL, NULL, NULL, 3.0, NULL, NULL)
                """);
        // version 1 is the empty table (Trino then reports every column as all NULL)
        assertQuery("SHOW STATS FOR (SELECT * FROM stats FOR VERSION AS OF 1)",
                """
                VALUES
                  ('id', 0.0, 0.0, 1.0, NULL, NULL, NULL),
                  ('name', 0.0, 0.0, 1.0, NULL, NULL, NULL),
                  (NULL, NULL, NULL, NULL, 0.0, NULL, NULL)
                """);
        assertUpdate("DROP TABLE stats");
    }

    @Test
    void testShowCreateTableIsRerunnable()
    {
        assertUpdate("""
                CREATE TABLE events (
                   id bigint NOT NULL COMMENT 'event id',
                   kind varchar(20) COMMENT 'what happened',
                   at timestamp(6),
                   tags array(varchar)
                )
                COMMENT 'raw events'
                WITH (file_format_version = '2.2', max_rows_per_file = 1000, compression = 'zstd')
                """);
        assertUpdate("COMMENT ON COLUMN events.at IS 'when'");
        String expected = """
                CREATE TABLE lance.meta.events (
                   id bigint NOT NULL COMMENT 'event id',
                   kind varchar(20) COMMENT 'what happened',
                   at timestamp(6) COMMENT 'when',
                   tags array(varchar)
                )
                COMMENT 'raw events'
                WITH (
                   compression = 'zstd',
                   file_format_version = '2.2',
                   max_rows_per_file = 1000
                )""";
        String shown = (String) computeScalar("SHOW CREATE TABLE events");
        assertThat(shown).isEqualTo(expected);

        // the statement makes the same table again
        assertUpdate("DROP TABLE events");
        assertUpdate(shown);
        assertThat((String) computeScalar("SHOW CREATE TABLE events")).isEqualTo(expected);
        assertQuery("SELECT column_name, data_type, is_nullable, comment FROM information_schema.columns WHERE table_schema = 'meta' AND table_name = 'events' ORDER BY ordinal_position",
                """
                VALUES
                  ('id', 'bigint', 'NO', 'event id'),
                  ('kind', 'varchar(20)', 'YES', 'what happened'),
                  ('at', 'timestamp(6)', 'YES', 'when'),
                  ('tags', 'array(varchar)', 'YES', NULL)
                """);
        assertQuery("SELECT comment FROM system.metadata.table_comments WHERE catalog_name = 'lance' AND schema_name = 'meta' AND table_name = 'events'", "VALUES 'raw events'");
        assertUpdate("DROP TABLE events");
    }

    @Test
    void testJdbcColumnsShowTypesAndComments()
            throws SQLException
    {
        assertUpdate("CREATE TABLE browsed (id bigint NOT NULL COMMENT 'key', price decimal(10,2), note varchar COMMENT 'free text') COMMENT 'for the browser'");
        URI baseUrl = getDistributedQueryRunner().getCoordinator().getBaseUrl();
        Properties properties = new Properties();
        properties.setProperty("user", "test");
        try (Connection connection = new TrinoDriver().connect("jdbc:trino://%s:%s/lance/meta".formatted(baseUrl.getHost(), baseUrl.getPort()), properties)) {
            DatabaseMetaData metaData = connection.getMetaData();
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = metaData.getColumns("lance", "meta", "browsed", null)) {
                while (rs.next()) {
                    columns.add("%s %s %s %s %s".formatted(rs.getString("COLUMN_NAME"), rs.getString("TYPE_NAME"), rs.getInt("DATA_TYPE"), rs.getString("IS_NULLABLE"), rs.getString("REMARKS")));
                }
            }
            assertThat(columns).containsExactly(
                    "id bigint %s NO key".formatted(Types.BIGINT),
                    "price decimal(10,2) %s YES null".formatted(Types.DECIMAL),
                    "note varchar %s YES free text".formatted(Types.VARCHAR));
            // Trino's getTables leaves REMARKS empty; table comments are in system.metadata.table_comments
            try (ResultSet rs = connection.createStatement().executeQuery("SELECT comment FROM system.metadata.table_comments WHERE catalog_name = 'lance' AND schema_name = 'meta' AND table_name = 'browsed'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("for the browser");
            }
        }
        assertUpdate("DROP TABLE browsed");
    }

    @Test
    void testShowCreateTableOfDefaults()
    {
        assertUpdate("CREATE TABLE plain (x integer)");
        assertThat((String) computeScalar("SHOW CREATE TABLE plain")).isEqualTo("""
                CREATE TABLE lance.meta.plain (
                   x integer
                )
                WITH (
                   compression = 'auto',
                   file_format_version = '2.2',
                   max_rows_per_file = 1048576
                )""");
        assertUpdate("DROP TABLE plain");
    }
}
