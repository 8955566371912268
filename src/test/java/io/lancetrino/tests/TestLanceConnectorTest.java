package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.BaseConnectorTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;
import io.trino.testing.sql.TestTable;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.plugin.tpch.TpchMetadata.TINY_SCHEMA_NAME;
import static io.trino.testing.QueryAssertions.copyTpchTables;
import static io.trino.testing.QueryAssertions.getTrinoExceptionCause;
import static io.trino.testing.TestingNames.randomNameSuffix;
import static io.trino.tpch.TpchTable.CUSTOMER;
import static io.trino.tpch.TpchTable.NATION;
import static io.trino.tpch.TpchTable.ORDERS;
import static io.trino.tpch.TpchTable.REGION;
import static java.lang.String.format;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Trino's generic connector test suite over the Lance connector, on a local warehouse directory.
 */
final class TestLanceConnectorTest
        extends BaseConnectorTest
{
    // NAME_MAX of the local file system; a table is the directory <name>.lance
    private static final int MAX_FILE_NAME_LENGTH = 255;
    // the Arrow C data interface the Lance SDK reads a data file's schema through takes names of up to 32,766 bytes
    private static final int MAX_COLUMN_NAME_LENGTH = 32_766;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-connector-test");
        QueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema("tpch").build();
        try {
            runner.execute("CREATE SCHEMA lance.tpch");
            copyTpchTables(runner, "tpch", TINY_SCHEMA_NAME, runner.getDefaultSession(), List.of(NATION, ORDERS, REGION, CUSTOMER));
            return runner;
        }
        catch (Throwable e) {
            runner.close();
            throw e;
        }
    }

    @Override
    protected boolean hasBehavior(TestingConnectorBehavior connectorBehavior)
    {
        return switch (connectorBehavior) {
            case SUPPORTS_INSERT,
                 SUPPORTS_DELETE,
                 SUPPORTS_ROW_LEVEL_DELETE,
                 SUPPORTS_UPDATE,
                 SUPPORTS_ROW_LEVEL_UPDATE,
                 SUPPORTS_MERGE,
                 SUPPORTS_TRUNCATE,
                 SUPPORTS_ARRAY,
                 SUPPORTS_ROW_TYPE,
                 SUPPORTS_CREATE_SCHEMA,
                 SUPPORTS_DROP_SCHEMA_CASCADE,
                 SUPPORTS_CREATE_TABLE,
                 SUPPORTS_CREATE_OR_REPLACE_TABLE,
                 SUPPORTS_CREATE_TABLE_WITH_DATA,
                 SUPPORTS_CREATE_TABLE_WITH_TABLE_COMMENT,
                 SUPPORTS_CREATE_TABLE_WITH_COLUMN_COMMENT,
                 SUPPORTS_RENAME_TABLE,
                 SUPPORTS_RENAME_TABLE_ACROSS_SCHEMAS,
                 SUPPORTS_ADD_COLUMN,
                 SUPPORTS_ADD_COLUMN_WITH_COMMENT,
                 SUPPORTS_DROP_COLUMN,
                 SUPPORTS_RENAME_COLUMN,
                 SUPPORTS_COMMENT_ON_TABLE,
                 SUPPORTS_COMMENT_ON_COLUMN,
                 SUPPORTS_NOT_NULL_CONSTRAINT,
                 SUPPORTS_NEGATIVE_DATE -> true;
            case SUPPORTS_MAP_TYPE,
                 SUPPORTS_PREDICATE_PUSHDOWN,
                 SUPPORTS_DYNAMIC_FILTER_PUSHDOWN,
                 // applyLimit only stops split planning early; the engine still applies the limit
                 SUPPORTS_LIMIT_PUSHDOWN,
                 SUPPORTS_TOPN_PUSHDOWN,
                 SUPPORTS_AGGREGATION_PUSHDOWN,
                 SUPPORTS_JOIN_PUSHDOWN,
                 SUPPORTS_DEREFERENCE_PUSHDOWN,
                 SUPPORTS_RENAME_SCHEMA,
                 SUPPORTS_ADD_COLUMN_WITH_POSITION,
                 SUPPORTS_ADD_FIELD,
                 SUPPORTS_DROP_FIELD,
                 SUPPORTS_RENAME_FIELD,
                 SUPPORTS_SET_COLUMN_TYPE,
                 SUPPORTS_CREATE_VIEW,
                 SUPPORTS_CREATE_MATERIALIZED_VIEW,
                 SUPPORTS_DEFAULT_COLUMN_VALUE,
                 SUPPORTS_ADD_COLUMN_NOT_NULL_CONSTRAINT,
                 SUPPORTS_DROP_NOT_NULL_CONSTRAINT,
                 SUPPORTS_CREATE_FUNCTION,
                 SUPPORTS_CANCELLATION,
                 SUPPORTS_MULTI_STATEMENT_WRITES,
                 SUPPORTS_NATIVE_QUERY,
                 SUPPORTS_REPORTING_WRITTEN_BYTES -> false;
            default -> super.hasBehavior(connectorBehavior);
        };
    }

    @Override
    protected void verifyVersionedQueryFailurePermissible(Exception e)
    {
        // TableVersions and RefResolver: a literal type that names no version, or a version, tag or branch (or a
        // commit time: "has no version committed at or before") the table does not have
        assertThat(e).hasMessageMatching(
                "Unsupported type for (temporal )?table version: .*" +
                        "|Table .* has no (version|tag|branch).*" +
                        "|Invalid version reference .*");
    }

    @Override
    protected String errorMessageForInsertIntoNotNullColumn(String columnName)
    {
        // the engine checks NOT NULL before rows reach the connector
        return "NULL value not allowed for NOT NULL column: " + columnName;
    }

    @Override
    protected TestTable createTableWithDefaultColumns()
    {
        return abort("Lance tables have no column default values");
    }

    // CHAR has no Lance type (README, type mapping): the table cannot be created, so there is nothing to compare
    @Test
    @Override
    public void testCharVarcharComparison()
    {
        String tableName = "test_char_varchar_" + randomNameSuffix();
        assertQueryFails(
                "CREATE TABLE " + tableName + " (k, v) AS VALUES (-1, CAST(NULL AS char(3))), (3, CAST('   ' AS char(3)))",
                "Table tpch\\.%s: column v has type char\\(3\\), which Lance tables cannot store".formatted(tableName));
        assertThat(getQueryRunner().tableExists(getSession(), tableName)).isFalse();
    }

    // MAP has no Lance type the connector writes; the message names the table and the column, not only the type
    @Test
    @Override
    public void testInsertMap()
    {
        String tableName = "test_insert_map_" + randomNameSuffix();
        assertQueryFails(
                "CREATE TABLE " + tableName + " (a map(integer, integer))",
                "Table tpch\\.%s: column a has type map\\(integer, integer\\), which Lance tables cannot store".formatted(tableName));
        assertThat(getQueryRunner().tableExists(getSession(), tableName)).isFalse();
    }

    // rows written before the column existed, or by concurrent writers, would have no value, so NOT NULL is refused
    // with the connector's own explanation
    @Test
    @Override
    public void testAddNotNullColumnToEmptyTable()
    {
        try (TestTable table = newTrinoTable("test_add_nn_to_empty", "(a_varchar varchar)")) {
            assertQueryFails(
                    "ALTER TABLE " + table.getName() + " ADD COLUMN b_varchar varchar NOT NULL",
                    "Table tpch\\.%s: an added column must be nullable, because existing rows have no value for b_varchar".formatted(table.getName()));
            assertTableColumnNames(table.getName(), "a_varchar");
        }
    }

    // CHAR has no Lance type (see testCharVarcharComparison)
    @Override
    protected Optional<DataMappingTestSetup> filterDataMappingSmokeTestData(DataMappingTestSetup dataMappingTestSetup)
    {
        if (dataMappingTestSetup.getTrinoTypeName().startsWith("char(")) {
            return Optional.empty();
        }
        return Optional.of(dataMappingTestSetup);
    }

    // CHAR has no Lance type (see testCharVarcharComparison)
    @Override
    protected Optional<DataMappingTestSetup> filterCaseSensitiveDataMappingTestData(DataMappingTestSetup dataMappingTestSetup)
    {
        if (dataMappingTestSetup.getTrinoTypeName().startsWith("char(")) {
            return Optional.empty();
        }
        return Optional.of(dataMappingTestSetup);
    }

    // Lance refuses '.' in a top-level field name (it is the path separator into structs)
    @Override
    protected boolean isColumnNameRejected(Exception exception, String columnName, boolean delimited)
    {
        return columnName.contains(".") &&
                getTrinoExceptionCause(exception).getMessage().matches("Table .*: column name '.*' contains '\\.', which Lance does not allow in a top-level column name");
    }

    // a schema is a directory of the warehouse
    @Override
    protected OptionalInt maxSchemaNameLength()
    {
        return OptionalInt.of(MAX_FILE_NAME_LENGTH);
    }

    @Override
    protected void verifySchemaNameLengthFailurePermissible(Throwable e)
    {
        assertThat(e).hasMessageMatching("(?s)Cannot create schema directory .*: .*File name too long.*");
    }

    // a table is the directory <name>.lance
    @Override
    protected OptionalInt maxTableNameLength()
    {
        return OptionalInt.of(MAX_FILE_NAME_LENGTH - ".lance".length());
    }

    @Override
    protected void verifyTableNameLengthFailurePermissible(Throwable e)
    {
        assertThat(e).hasMessageMatching("(?s)(Cannot write transaction file|Cannot rename table) .*File name too long.*");
    }

    @Override
    protected OptionalInt maxColumnNameLength()
    {
        return OptionalInt.of(MAX_COLUMN_NAME_LENGTH);
    }

    @Override
    protected void verifyColumnNameLengthFailurePermissible(Throwable e)
    {
        assertThat(e).hasMessageMatching(format("Table .*: column or field name 'colz*\\.\\.\\.' is %s bytes long; Lance data files can be read back with names of at most %s bytes",
                MAX_COLUMN_NAME_LENGTH + 1, MAX_COLUMN_NAME_LENGTH));
    }

    // SHOW CREATE TABLE lists the table properties the version records, so the statement re-creates the same layout
    @Test
    @Override
    public void testShowCreateTable()
    {
        assertThat(computeScalar("SHOW CREATE TABLE orders")).isEqualTo("""
                CREATE TABLE lance.tpch.orders (
                   orderkey bigint,
                   custkey bigint,
                   orderstatus varchar(1),
                   totalprice double,
                   orderdate date,
                   orderpriority varchar(15),
                   clerk varchar(15),
                   shippriority integer,
                   comment varchar(79)
                )
                WITH (
                   compression = 'auto',
                   file_format_version = '2.2',
                   max_rows_per_file = 1048576
                )""");
    }

    // Lance's commit rules: two schema changes based on the same version conflict, and the later one is not retried
    @Override
    protected void verifyConcurrentAddColumnFailurePermissible(Exception e)
    {
        assertThat(e).hasMessageMatching("Table .*: main version \\d+ \\(project\\) changed the same fragments as this project; re-run the statement");
    }

    // Lance's commit rules: two updates of the same rows conflict; of other rows in the same fragment, both land
    @Override
    protected void verifyConcurrentUpdateFailurePermissible(Exception e)
    {
        assertThat(e).hasMessageMatching("Table .*: main version \\d+ \\(update\\) changed the same rows as this update; re-run the statement");
    }
}
