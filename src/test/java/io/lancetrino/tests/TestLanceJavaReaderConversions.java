package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.SdkScans;
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
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Columns whose Trino type is a conversion of the stored type (unsigned ints, half floats, bfloat16, time and
 * timestamp units, date64, fixed-size binary, large strings and binaries, json) and packed structs, in tables the SDK
 * wrote: the Java reader decodes them (shown by the scan metrics) and returns what the SDK path returns.
 */
final class TestLanceJavaReaderConversions
        extends AbstractJavaReaderTest
{
    private static final int ROWS = 3000;
    private static final List<String> CONVERTED = List.of("id", "u8", "u16", "u32", "u64", "half", "bf16", "t_s", "t_ms", "t_us", "t_ns",
            "ts_s", "ts_ms", "ts_ns", "tz_ms", "tz_us", "tz_ns", "d64", "fsb", "lstr", "lbin", "doc");

    TestLanceJavaReaderConversions()
    {
        super("lance-java-conversions");
    }

    @Test
    void testConvertedTypes()
    {
        for (String version : List.of("2.1", "2.2")) {
            String name = "converted_" + version.replace('.', '_');
            Path path = LanceFixtures.table(warehouse.resolve("t"), name, SCHEMA, rows(), version, 2000);
            try (BufferAllocator allocator = LanceFixtures.newAllocator();
                    Dataset dataset = LanceFixtures.open(allocator, path)) {
                dataset.delete("id % 11 = 3 OR (id >= 2500 AND id < 2600)");
            }
            String select = "SELECT %s FROM %s".formatted(String.join(", ", CONVERTED), name);
            List<MaterializedRow> java = computeActual(reader("java"), select).getMaterializedRows();
            assertThat(java).hasSize(ROWS - 363);
            assertEqualsIgnoreOrder(java, computeActual(reader("sdk"), select).getMaterializedRows());
            ReaderMetrics metrics = readerColumns(reader("java"), select);
            assertThat(metrics.javaColumns()).as("Java-decoded columns of %s", name).isPositive();
            assertThat(metrics.sdkFallbackColumns()).as("SDK columns of %s", name).isZero();

            for (String sql : List.of(
                    "SELECT id, u64, tz_ns, doc FROM %s WHERE id BETWEEN 1200 AND 1400".formatted(name),
                    "SELECT u8, count(*), max(u32), min(ts_ns), max(fsb) FROM %s GROUP BY u8".formatted(name),
                    "SELECT id, half, bf16, lstr FROM %s WHERE u16 IS NULL".formatted(name))) {
                assertSameAsSdk(sql);
            }
        }
    }

    @Test
    void testPackedStructs()
    {
        List<String> columns = List.of("id", "ps", "name", "tags", "pt", "score");
        for (String[] table : new String[][] {{"packed_21", "2.1", "fixed"}, {"packed_22", "2.2", "fixed"}, {"packed_variable_22", "2.2", "variable"}}) {
            String name = table[0];
            Path path = LanceFixtures.packedStruct(warehouse.resolve("t"), name, table[1], table[2].equals("variable"), 3000);
            try (BufferAllocator allocator = LanceFixtures.newAllocator();
                    Dataset dataset = LanceFixtures.open(allocator, path)) {
                dataset.delete("id % 5 = 2 OR id = 0");
            }
            String all = "SELECT * FROM " + name;
            List<MaterializedRow> java = computeActual(reader("java"), all).getMaterializedRows();
            assertEqualsIgnoreOrder(java, computeActual(reader("sdk"), all).getMaterializedRows());
            assertEqualsIgnoreOrder(java, SdkScans.scanRows(path, Ref.ofMain(), columns));

            // the packed struct and the columns after it that are flat leaves: all decoded by the Java reader
            String flat = "SELECT id, ps, name, score FROM " + name;
            assertEqualsIgnoreOrder(computeActual(reader("java"), flat).getMaterializedRows(), computeActual(reader("sdk"), flat).getMaterializedRows());
            ReaderMetrics metrics = readerColumns(reader("java"), flat);
            assertThat(metrics.javaColumns()).as("Java-decoded columns of %s", name).isPositive();
            assertThat(metrics.sdkFallbackColumns()).as("SDK columns of %s", name).isZero();
            assertSameAsSdk("SELECT ps.a, count(*), max(name) FROM %s WHERE score > 100 GROUP BY ps.a".formatted(name));
        }
        // a 2.0 file keeps its columns per field: the SDK reads it all
        LanceFixtures.packedStruct(warehouse.resolve("t"), "packed_20", "2.0", false, 100);
        assertSameAsSdk("SELECT * FROM packed_20");
        assertThat(readerColumns(reader("java"), "SELECT id, ps, name FROM packed_20").javaColumns()).isZero();
    }

    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            Field.nullable("u8", new ArrowType.Int(8, false)),
            Field.nullable("u16", new ArrowType.Int(16, false)),
            Field.nullable("u32", new ArrowType.Int(32, false)),
            Field.nullable("u64", new ArrowType.Int(64, false)),
            Field.nullable("half", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
            new Field("bf16", new FieldType(true, new ArrowType.FixedSizeBinary(2), null, Map.of("ARROW:extension:name", "lance.bfloat16", "ARROW:extension:metadata", "")), null),
            Field.nullable("t_s", new ArrowType.Time(TimeUnit.SECOND, 32)),
            Field.nullable("t_ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
            Field.nullable("t_us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
            Field.nullable("t_ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)),
            Field.nullable("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
            Field.nullable("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
            Field.nullable("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
            Field.nullable("tz_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
            Field.nullable("tz_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")),
            Field.nullable("tz_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC")),
            Field.nullable("d64", new ArrowType.Date(DateUnit.MILLISECOND)),
            Field.nullable("fsb", new ArrowType.FixedSizeBinary(5)),
            Field.nullable("lstr", ArrowType.LargeUtf8.INSTANCE),
            Field.nullable("lbin", ArrowType.LargeBinary.INSTANCE),
            new Field("doc", new FieldType(true, ArrowType.Utf8.INSTANCE, null, Map.of("ARROW:extension:name", "arrow.json")), null)));

    /** Seeded rows over the full ranges of the unsigned types, with nulls in every column but id. */
    private static List<List<Object>> rows()
    {
        Random random = new Random(17);
        List<List<Object>> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            int i = (int) id;
            boolean nulls = i % 7 == 3;
            rows.add(Arrays.asList(
                    id,
                    nulls ? null : (short) random.nextInt(256),
                    nulls ? null : random.nextInt(65536),
                    nulls ? null : random.nextLong(1L << 32),
                    nulls ? null : new BigDecimal(new BigInteger(64, random)),
                    nulls ? null : (float) (random.nextGaussian() * 1000),
                    nulls ? null : new byte[] {(byte) random.nextInt(), (byte) (random.nextInt(0x7f) | (random.nextBoolean() ? 0x80 : 0))},
                    nulls ? null : LocalTime.ofSecondOfDay(random.nextInt(86_400)),
                    nulls ? null : LocalTime.ofNanoOfDay(random.nextLong(86_400_000L) * 1_000_000),
                    nulls ? null : LocalTime.ofNanoOfDay(random.nextLong(86_400_000_000L) * 1_000),
                    nulls ? null : LocalTime.ofNanoOfDay(random.nextLong(86_400_000_000_000L)),
                    nulls ? null : random.nextLong(-4_000_000_000L, 4_000_000_000L),
                    nulls ? null : random.nextLong(-4_000_000_000_000L, 4_000_000_000_000L),
                    nulls ? null : java.time.LocalDateTime.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L), random.nextInt(1_000_000_000), ZoneOffset.UTC),
                    nulls ? null : random.nextLong(-4_000_000_000_000L, 4_000_000_000_000L),
                    nulls ? null : ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L), random.nextInt(1_000_000) * 1000L), ZoneOffset.UTC),
                    nulls ? null : random.nextLong(-4_000_000_000_000_000_000L / 1000, 4_000_000_000_000_000_000L / 1000) * 1000 + random.nextInt(1000),
                    nulls ? null : random.nextLong(-4_000_000_000_000L, 4_000_000_000_000L),
                    nulls ? null : new byte[] {(byte) i, 1, (byte) random.nextInt(), (byte) (i >> 8), 5},
                    nulls ? null : "large-" + Long.toString(random.nextLong(), 36).repeat(1 + i % 3),
                    nulls ? null : new byte[] {(byte) random.nextInt(), (byte) (i % 13)},
                    nulls ? null : "{\"id\": %s, \"tags\": [\"t%s\", %s], \"nested\": {\"x\": %s, \"ok\": %s}}".formatted(i, i % 10, random.nextDouble(), random.nextInt(), random.nextBoolean())));
        }
        return rows;
    }
}
