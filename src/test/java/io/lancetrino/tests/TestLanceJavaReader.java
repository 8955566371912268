package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.SdkScans;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Ref;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pure-Java file reader against the SDK: every query returns the same rows with {@code file_reader = 'java'} as
 * with {@code 'sdk'} and as the SDK's own scan, and the scan's metrics show which columns each reader decoded.
 */
final class TestLanceJavaReader
        extends AbstractJavaReaderTest
{
    private static final int ROWS = 5000;

    TestLanceJavaReader()
    {
        super("lance-java-reader");
    }

    @Test
    void testTpchTablesWrittenByTrino()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS t");
        for (String table : List.of("lineitem", "orders", "customer", "nation")) {
            assertUpdate("CREATE TABLE tpch_%s AS SELECT * FROM tpch.tiny.%s".formatted(table, table), "SELECT count(*) FROM " + table);
            MaterializedResult expected = computeActual("SELECT * FROM tpch.tiny." + table);
            String sql = "SELECT * FROM tpch_" + table;
            assertEqualsIgnoreOrder(computeActual(reader("java"), sql).getMaterializedRows(), expected.getMaterializedRows());
            assertEqualsIgnoreOrder(computeActual(reader("sdk"), sql).getMaterializedRows(), expected.getMaterializedRows());
            // every column Trino writes is a flat leaf the Java reader decodes
            ReaderMetrics columns = readerColumns(reader("java"), sql);
            assertThat(columns.javaColumns()).isPositive();
            assertThat(columns.sdkFallbackColumns()).isZero();
        }
        // predicates narrow the rows read; deletions drop ranges; both must line up with the SDK's rows
        assertUpdate("DELETE FROM tpch_lineitem WHERE orderkey % 5 = 1", "SELECT count(*) FROM lineitem WHERE orderkey % 5 = 1");
        for (String sql : List.of(
                "SELECT * FROM tpch_lineitem",
                "SELECT orderkey, comment, extendedprice FROM tpch_lineitem WHERE suppkey = 42",
                "SELECT shipmode, count(*), sum(discount) FROM tpch_lineitem WHERE shipdate > DATE '1997-01-01' GROUP BY shipmode")) {
            assertSameAsSdk(sql);
        }
        assertEqualsIgnoreOrder(
                computeActual(reader("java"), "SELECT * FROM tpch_lineitem").getMaterializedRows(),
                computeActual("SELECT * FROM tpch.tiny.lineitem WHERE orderkey % 5 <> 1").getMaterializedRows());
        // the default is the Java reader; the page buffers of all nine columns of a data file come in one read
        ReaderMetrics orders = readerColumns(getSession(), "SELECT * FROM tpch_orders");
        assertThat(orders.javaColumns()).isPositive();
        assertThat(orders.coalescedReads()).isEqualTo(orders.javaColumns() / 9);
        assertThat(readerColumns(reader("sdk"), "SELECT * FROM tpch_orders").javaColumns()).isZero();
    }

    @Test
    void testTablesTheSdkWrote()
    {
        for (String version : List.of("2.1", "2.2")) {
            String name = "sdk_" + version.replace('.', '_');
            Path path = LanceFixtures.table(warehouse.resolve("t"), name, SCHEMA, rows(), version, 2000);
            try (BufferAllocator allocator = LanceFixtures.newAllocator();
                    Dataset dataset = LanceFixtures.open(allocator, path)) {
                // scattered deletions in every fragment and a deleted run of rows
                dataset.delete("id % 11 = 3 OR (id >= 2500 AND id < 2600)");
            }
            List<String> flat = List.of("id", "i32", "i16", "i8", "f64", "f32", "flag", "d", "ts", "dec_s", "dec_l", "cat", "text", "long_text", "bin", "all_null", "constant");
            String select = "SELECT %s FROM %s".formatted(String.join(", ", flat), name);
            List<MaterializedRow> java = computeActual(reader("java"), select).getMaterializedRows();
            assertEqualsIgnoreOrder(java, computeActual(reader("sdk"), select).getMaterializedRows());
            assertEqualsIgnoreOrder(java, SdkScans.scanRows(path, Ref.ofMain(), flat));
            ReaderMetrics flatColumns = readerColumns(reader("java"), select);
            assertThat(flatColumns.javaColumns()).as("Java-decoded columns of %s", name).isPositive();
            assertThat(flatColumns.sdkFallbackColumns()).as("SDK fallbacks of %s", name).isZero();

            // the list column is decoded from its rep/def levels too (TestLanceJavaReaderNested covers nested columns)
            String withList = "SELECT id, cat, list, ts FROM " + name;
            assertEqualsIgnoreOrder(computeActual(reader("java"), withList).getMaterializedRows(), SdkScans.scanRows(path, Ref.ofMain(), List.of("id", "cat", "list", "ts")));
            ReaderMetrics mixed = readerColumns(reader("java"), withList);
            assertThat(mixed.javaColumns()).isPositive();
            assertThat(mixed.sdkFallbackColumns()).isZero();

            for (String sql : List.of(
                    "SELECT * FROM " + name,
                    "SELECT id, text, dec_l FROM %s WHERE id BETWEEN 1200 AND 1400".formatted(name),
                    "SELECT cat, count(*), sum(dec_s), max(ts), min(long_text) FROM %s WHERE cat IN ('c1', 'c7') GROUP BY cat".formatted(name),
                    "SELECT id, bin FROM %s WHERE i32 IS NULL".formatted(name))) {
                assertSameAsSdk(sql);
            }
        }
        // the metrics are where EXPLAIN ANALYZE VERBOSE shows them
        assertThat((String) computeActual(reader("java"), "EXPLAIN ANALYZE VERBOSE SELECT id, list FROM sdk_2_1").getOnlyValue())
                .contains("javaReaderColumns")
                .contains("sdkFallbackColumns");
    }

    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            Field.nullable("i32", new ArrowType.Int(32, true)),
            Field.nullable("i16", new ArrowType.Int(16, true)),
            Field.nullable("i8", new ArrowType.Int(8, true)),
            Field.nullable("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            Field.nullable("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
            Field.nullable("flag", ArrowType.Bool.INSTANCE),
            Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
            Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
            Field.nullable("dec_s", new ArrowType.Decimal(12, 2, 128)),
            Field.nullable("dec_l", new ArrowType.Decimal(38, 10, 128)),
            Field.nullable("cat", ArrowType.Utf8.INSTANCE),
            Field.nullable("text", ArrowType.Utf8.INSTANCE),
            Field.nullable("long_text", ArrowType.LargeUtf8.INSTANCE),
            Field.nullable("bin", ArrowType.Binary.INSTANCE),
            Field.nullable("all_null", new ArrowType.Int(64, true)),
            Field.nullable("constant", new ArrowType.Int(32, true)),
            new Field("list", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", new ArrowType.Int(32, true))))));

    /**
     * Seeded rows with nulls, a low-cardinality string (dictionary encoded), wide and negative integers, strings
     * below and above 256 bytes, an all-null and a constant column.
     */
    private static List<List<Object>> rows()
    {
        Random random = new Random(13);
        List<List<Object>> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            int i = (int) id;
            rows.add(Arrays.asList(
                    id,
                    i % 7 == 0 ? null : random.nextInt(),
                    i % 9 == 0 ? null : (short) (random.nextInt(65536) - 32768),
                    (byte) (i % 256 - 128),
                    i % 13 == 0 ? null : random.nextGaussian() * 1e6,
                    random.nextFloat(),
                    i % 5 == 0 ? null : random.nextBoolean(),
                    LocalDate.of(1990, 1, 1).plusDays(random.nextInt(20_000)),
                    i % 17 == 0 ? null : LocalDateTime.of(2000, 1, 1, 0, 0).plusNanos(random.nextLong(1L << 50) * 1000),
                    i % 3 == 0 ? null : BigDecimal.valueOf(random.nextLong(100_000_000_000L) - 50_000_000_000L, 2),
                    new BigDecimal(random.nextLong() + "." + "%010d".formatted(random.nextInt(1_000_000_000))),
                    i % 19 == 0 ? null : "c" + random.nextInt(10),
                    i % 23 == 0 ? null : "text-" + Long.toHexString(random.nextLong()).repeat(1 + random.nextInt(4)),
                    "long-%s-".formatted(id) + "x".repeat(256 + random.nextInt(300)),
                    i % 29 == 0 ? null : ("bin" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8),
                    null,
                    42,
                    i % 31 == 0 ? null : List.of(i, i + 1)));
        }
        return rows;
    }
}
