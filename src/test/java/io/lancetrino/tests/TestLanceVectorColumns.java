package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Ref;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static io.trino.spi.StandardErrorCode.INVALID_COLUMN_PROPERTY;
import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code dimension} column property: SQL-made vector columns are Lance fixed-size lists, which the SDK reads,
 * appends to and indexes, and which hold nothing but vectors of their dimension.
 */
final class TestLanceVectorColumns
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "vec";

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-vector-columns");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testDimensionMakesFixedSizeLists()
    {
        assertUpdate("CREATE TABLE docs (id bigint, embedding array(real) WITH (dimension = 4), body varchar)");
        assertUpdate("INSERT INTO docs VALUES (1, ARRAY[1, 2, 3, 4], 'a'), (2, NULL, 'b'), (3, ARRAY[REAL '0.5', NULL, 7, 8], 'c')", 3);
        assertUpdate("ALTER TABLE docs ADD COLUMN weights array(double) WITH (dimension = 2)");
        assertUpdate("INSERT INTO docs VALUES (4, ARRAY[4, 3, 2, 1], 'd', ARRAY[0.25, 0.75])", 1);
        assertQuery("SELECT id, cardinality(embedding), embedding[4], weights[2] FROM docs",
                "VALUES (1, 4, 4.0, NULL), (2, NULL, NULL, NULL), (3, 4, 8.0, NULL), (4, 4, 1.0, 0.75)");

        assertThat((String) computeScalar("SHOW CREATE TABLE docs"))
                .contains("embedding array(real) WITH (dimension = 4)")
                .contains("weights array(double) WITH (dimension = 2)");
        // SHOW CREATE TABLE makes the same table again
        String again = ((String) computeScalar("SHOW CREATE TABLE docs")).replace("vec.docs", "vec.docs_again");
        assertUpdate(again);
        assertThat((String) computeScalar("SHOW CREATE TABLE docs_again")).contains("embedding array(real) WITH (dimension = 4)");

        // the SDK sees fixed-size lists, reads the same rows and appends vectors of its own
        Path table = warehouse.resolve(SCHEMA).resolve("docs.lance");
        Schema schema;
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            schema = dataset.getSchema();
        }
        assertThat(schema.findField("embedding").getType()).isEqualTo(new ArrowType.FixedSizeList(4));
        assertThat(schema.findField("embedding").getChildren().getFirst().getType()).isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
        assertThat(schema.findField("weights").getType()).isEqualTo(new ArrowType.FixedSizeList(2));
        assertThat(schema.findField("weights").getChildren().getFirst().getType()).isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
        List<String> columns = List.of("id", "embedding", "body", "weights");
        assertEqualsIgnoreOrder(computeActual("SELECT id, embedding, body, weights FROM docs").getMaterializedRows(), SdkScans.scanRows(table, Ref.ofMain(), columns));
        LanceFixtures.append(table, new Schema(schema.getFields()),
                List.of(java.util.Arrays.asList(5L, List.of(5f, 6f, 7f, 8f), "e", List.of(1.0, 2.0))));
        assertQuery("SELECT embedding[1], weights[1] FROM docs WHERE id = 5", "VALUES (5.0, 1.0)");

        // a vector index builds on it
        assertUpdate("INSERT INTO docs SELECT x, ARRAY[REAL '1' * x, x % 7, x % 3, 1], 'row', NULL FROM UNNEST(sequence(10, 300)) AS t(x)", 291);
        computeActual("ALTER TABLE docs EXECUTE create_index(column => 'embedding', index_type => 'ivf_flat', options => '{\"num_partitions\": 2}')");
        assertQuery("SELECT index_type, rows_covered FROM \"docs$indexes\"", "VALUES ('ivf_flat', 296)");
    }

    @Test
    void testVectorsOfAnotherLengthAreRefused()
    {
        assertUpdate("CREATE TABLE strict (id bigint, v array(double) WITH (dimension = 3))");
        assertUpdate("INSERT INTO strict VALUES (1, ARRAY[1, 2, 3])", 1);
        long versions = (long) computeScalar("SELECT count(*) FROM \"strict$versions\"");
        assertTrinoExceptionThrownBy(() -> computeActual("INSERT INTO strict VALUES (2, ARRAY[1, 2, 3]), (3, ARRAY[1, 2]), (4, ARRAY[1, 2, 3, 4]), (5, ARRAY[])"))
                .hasErrorCode(CONSTRAINT_VIOLATION)
                .hasMessage("Column v has dimension 3, but 3 of 4 rows written together have arrays of another length (the first has 2 elements)");
        assertTrinoExceptionThrownBy(() -> computeActual("UPDATE strict SET v = ARRAY[9] WHERE id = 1"))
                .hasErrorCode(CONSTRAINT_VIOLATION)
                .hasMessageContaining("Column v has dimension 3");
        // nothing was committed
        assertQuery("SELECT count(*) FROM \"strict$versions\"", "VALUES " + versions);
        assertQuery("SELECT id, cardinality(v), v[1], v[3] FROM strict", "VALUES (1, 3, 1.0, 3.0)");
    }

    @Test
    void testDimensionErrors()
    {
        assertTrinoExceptionThrownBy(() -> computeActual("CREATE TABLE bad (id bigint, v array(real) WITH (dimension = 0))"))
                .hasErrorCode(INVALID_COLUMN_PROPERTY)
                .hasMessage("Table vec.bad: dimension of column v must be positive, not 0");
        assertTrinoExceptionThrownBy(() -> computeActual("CREATE TABLE bad (id bigint, v varchar WITH (dimension = 3))"))
                .hasErrorCode(INVALID_COLUMN_PROPERTY)
                .hasMessage("Table vec.bad: dimension applies to an array of real or double (or of an integer type), not to column v of type varchar");
        assertTrinoExceptionThrownBy(() -> computeActual("CREATE TABLE bad (id bigint, v array(varchar) WITH (dimension = 3))"))
                .hasErrorCode(INVALID_COLUMN_PROPERTY)
                .hasMessageContaining("not to column v of type array(varchar)");
        assertQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'vec' AND table_name = 'bad'", "VALUES 0");

        assertUpdate("CREATE TABLE plain (id bigint)");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE plain ADD COLUMN v array(real) WITH (dimension = -2)"))
                .hasErrorCode(INVALID_COLUMN_PROPERTY)
                .hasMessage("Table vec.plain: dimension of column v must be positive, not -2");
        // a plain array column stays a list of any length
        assertUpdate("ALTER TABLE plain ADD COLUMN tags array(real)");
        assertUpdate("INSERT INTO plain VALUES (1, ARRAY[1]), (2, ARRAY[1, 2, 3])", 2);
        assertThat((String) computeScalar("SHOW CREATE TABLE plain")).doesNotContain("dimension");
        List<MaterializedRow> rows = computeActual("SELECT cardinality(tags) FROM plain ORDER BY id").getMaterializedRows();
        assertThat(rows).extracting(row -> row.getField(0)).containsExactly(1L, 3L);
    }
}
