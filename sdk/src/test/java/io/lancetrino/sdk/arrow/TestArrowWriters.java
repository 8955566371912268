package io.lancetrino.sdk.arrow;

import io.lancetrino.split.arrow.ArrowBlocks;
import io.lancetrino.split.arrow.ArrowTypes;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SqlTime;
import io.trino.spi.type.SqlTimestamp;
import io.trino.spi.type.SqlTimestampWithTimeZone;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimeZoneKey;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.airlift.slice.Slices.utf8Slice;
import static io.airlift.slice.Slices.wrappedBuffer;
import static io.lancetrino.sdk.arrow.ArrowTestSupport.newAllocator;
import static io.lancetrino.sdk.arrow.ArrowTestSupport.values;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static io.trino.spi.StandardErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.CharType.createCharType;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DecimalType.createDecimalType;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.createTimeType;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.createTimestampWithTimeZoneType;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static io.trino.spi.type.UuidType.UUID;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.spi.type.VarcharType.createVarcharType;
import static java.lang.Float.floatToRawIntBits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestArrowWriters
{
    private static final TimeZoneKey NEW_YORK = TimeZoneKey.getTimeZoneKey("America/New_York");
    private static final TimeZoneKey KOLKATA = TimeZoneKey.getTimeZoneKey("Asia/Kolkata");
    private static final long[] POWERS_OF_TEN = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
            100_000_000L, 1_000_000_000L, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L};
    // (epoch microseconds, picoseconds of the microsecond); within the range of nanosecond timestamps (1677..2262)
    private static final long[][] INSTANTS = {
            {0, 0},
            {-1, 999_999},
            {-1, 0},
            {1, 1_000},
            {-86_400_000_000L + 123_456, 789_000},
            {1_700_000_000_123_456L, 789_012},
            {-5_000_000_000_000_000L, 100_000},
            {9_223_372_036_854_775L, 807_000},
            {-9_223_372_036_854_775L, 192_000},
    };

    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = newAllocator();
    }

    @AfterEach
    void tearDown()
    {
        // fails on leaked vectors
        allocator.close();
    }

    @Test
    void testBoolean()
    {
        // crosses validity and value bytes and a 64-bit word
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            values.add(i % 7 == 0 ? null : i % 3 == 0);
        }
        assertRepresentations(BOOLEAN, block(BOOLEAN, values));
    }

    @Test
    void testIntegers()
    {
        assertRepresentations(TINYINT, block(TINYINT, longs(Byte.MIN_VALUE, -1, 0, null, 1, Byte.MAX_VALUE)));
        assertRepresentations(SMALLINT, block(SMALLINT, longs(Short.MIN_VALUE, -1, 0, null, 1, Short.MAX_VALUE)));
        assertRepresentations(INTEGER, block(INTEGER, longs(Integer.MIN_VALUE, -1, 0, null, 1, Integer.MAX_VALUE)));
        assertRepresentations(BIGINT, block(BIGINT, longs(Long.MIN_VALUE, -1, 0, null, 1, Long.MAX_VALUE)));
        // more than a byte of validity without nulls takes the bulk path
        assertRepresentations(BIGINT, block(BIGINT, IntStream.range(0, 77).mapToObj(i -> (Object) (long) i).toList()));
    }

    @Test
    void testFloatingPoint()
    {
        float[] floats = {0.0f, -0.0f, 1.5f, -3.25e10f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, Float.NaN};
        List<Object> reals = new ArrayList<>();
        for (float value : floats) {
            reals.add((long) floatToRawIntBits(value));
        }
        reals.add(3, null);
        assertRepresentations(REAL, block(REAL, reals));
        assertRepresentations(DOUBLE, block(DOUBLE, Arrays.asList(0.0, -0.0, null, Math.PI, -1e300, Double.MIN_VALUE, Double.MAX_VALUE, Double.NEGATIVE_INFINITY, Double.NaN)));
    }

    @Test
    void testDecimal()
    {
        DecimalType shortDecimal = createDecimalType(18, 4);
        assertRepresentations(shortDecimal, block(shortDecimal, longs(-999_999_999_999_999_999L, -1, 0, null, 12_345_6789, 999_999_999_999_999_999L)));
        DecimalType small = createDecimalType(10, 2);
        assertRepresentations(small, block(small, longs(-9_999_999_999L, -1, null, 150)));
        DecimalType longDecimal = createDecimalType(38, 10);
        BigInteger max = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
        assertRepresentations(longDecimal, block(longDecimal, Arrays.asList(
                Int128.valueOf(max.negate()),
                Int128.valueOf(new BigInteger("-1234567890123456789012345678")),
                Int128.valueOf(-1),
                null,
                Int128.ZERO,
                Int128.valueOf(Long.MIN_VALUE),
                Int128.valueOf(new BigInteger("98765432109876543210")),
                Int128.valueOf(max))));
        DecimalType wide = createDecimalType(20, 0);
        assertRepresentations(wide, block(wide, Arrays.asList(Int128.valueOf(new BigInteger("-18446744073709551616")), null, Int128.valueOf(new BigInteger("18446744073709551615")))));
    }

    @Test
    void testStrings()
    {
        String longString = "x".repeat(10_000);
        assertRepresentations(VARCHAR, block(VARCHAR, Arrays.asList(utf8Slice(""), utf8Slice("a"), null, utf8Slice("ünïcødé ✓ 🚀"), utf8Slice(longString), null)));
        // the bound is not stored: reads back as VARCHAR
        Block bounded = block(createVarcharType(5), Arrays.asList(utf8Slice("abcde"), null, utf8Slice("")));
        assertRoundTrip(createVarcharType(5), VARCHAR, bounded, Arrays.asList("abcde", null, ""));
        assertRepresentations(VARBINARY, block(VARBINARY, Arrays.asList(wrappedBuffer(), wrappedBuffer((byte) 0, (byte) -1), null, wrappedBuffer(new byte[300]))));
    }

    @Test
    void testDate()
    {
        // 0001-01-01, 1969-12-31, 1970-01-01, 9999-12-31
        assertRepresentations(DATE, block(DATE, longs(-719_162, -1, null, 0, 2_932_896)));
    }

    @Test
    void testTime()
    {
        long lastPicos = 86_400L * POWERS_OF_TEN[12] - 1;
        for (int precision = 0; precision <= 9; precision++) {
            TimeType type = createTimeType(precision);
            long unit = POWERS_OF_TEN[12 - precision];
            List<Object> picos = Arrays.asList(0L, null, 1L * unit, 45_296_789_012_345L / unit * unit, lastPicos / unit * unit);
            int readPrecision = readPrecision(precision);
            List<Object> expected = picos.stream().map(value -> value == null ? null : (Object) SqlTime.newInstance(readPrecision, (long) value)).toList();
            Block block = block(type, picos);
            assertRoundTrip(type, createTimeType(readPrecision), block, expected);
            assertRoundTrip(type, createTimeType(readPrecision), dictionary(block), dictionaryOf(expected));
        }
        assertThat(ArrowTypes.toArrowField("t", createTimeType(10), true)).isEmpty();
    }

    @Test
    void testTimestamp()
    {
        for (int precision = 0; precision <= 9; precision++) {
            TimestampType type = createTimestampType(precision);
            int readPrecision = readPrecision(precision);
            List<Object> values = new ArrayList<>();
            List<Object> expected = new ArrayList<>();
            for (long[] instant : INSTANTS) {
                long micros = truncate(instant[0], instant[1], precision)[0];
                int picos = (int) truncate(instant[0], instant[1], precision)[1];
                values.add(type.isShort() ? (Object) micros : new LongTimestamp(micros, picos));
                expected.add(SqlTimestamp.newInstance(readPrecision, micros, picos));
            }
            values.add(2, null);
            expected.add(2, null);
            Block block = block(type, values);
            assertRoundTrip(type, createTimestampType(readPrecision), block, expected);
            assertRoundTrip(type, createTimestampType(readPrecision), dictionary(block), dictionaryOf(expected));
            assertRoundTrip(type, createTimestampType(readPrecision), RunLengthEncodedBlock.create(block.getSingleValueBlock(4), 3), List.of(expected.get(4), expected.get(4), expected.get(4)));
        }
        assertThat(ArrowTypes.toArrowField("t", createTimestampType(12), true)).isEmpty();
    }

    @Test
    void testTimestampOutOfRange()
    {
        // a year 2300 timestamp does not fit nanoseconds since the epoch
        Block block = block(createTimestampType(9), List.of(new LongTimestamp(10_500_000_000_000_000L, 0)));
        try (FieldVector vector = createVector(createTimestampType(9))) {
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block, createTimestampType(9), vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(NUMERIC_VALUE_OUT_OF_RANGE.toErrorCode()));
        }
    }

    @Test
    void testTimestampWithTimeZone()
    {
        for (int precision = 0; precision <= 9; precision++) {
            TimestampWithTimeZoneType type = createTimestampWithTimeZoneType(precision);
            int readPrecision = readPrecision(precision);
            List<Object> values = new ArrayList<>();
            List<Object> expected = new ArrayList<>();
            TimeZoneKey[] zones = {UTC_KEY, NEW_YORK, KOLKATA};
            for (int i = 0; i < INSTANTS.length; i++) {
                long[] truncated = truncate(INSTANTS[i][0], INSTANTS[i][1], precision);
                long millis = Math.floorDiv(truncated[0], 1000);
                int picosOfMilli = (int) (Math.floorMod(truncated[0], 1000) * 1_000_000 + truncated[1]);
                TimeZoneKey zone = zones[i % zones.length];
                values.add(type.isShort() ? (Object) packDateTimeWithZone(millis, zone) : LongTimestampWithTimeZone.fromEpochMillisAndFraction(millis, picosOfMilli, zone));
                // the instant is kept, the zone is not
                expected.add(SqlTimestampWithTimeZone.newInstance(readPrecision, millis, picosOfMilli, UTC_KEY));
            }
            values.add(1, null);
            expected.add(1, null);
            Block block = block(type, values);
            assertRoundTrip(type, createTimestampWithTimeZoneType(readPrecision), block, expected);
            assertRoundTrip(type, createTimestampWithTimeZoneType(readPrecision), dictionary(block), dictionaryOf(expected));
            assertRoundTrip(type, createTimestampWithTimeZoneType(readPrecision), block.getRegion(1, 3), expected.subList(1, 4));
        }
    }

    @Test
    void testArrays()
    {
        ArrayType bigints = new ArrayType(BIGINT);
        assertRepresentations(bigints, block(bigints, Arrays.asList(List.of(), null, Arrays.asList(1L, null, 3L), List.of(Long.MAX_VALUE), null, List.of())));
        ArrayType strings = new ArrayType(VARCHAR);
        assertRepresentations(strings, block(strings, Arrays.asList(List.of(utf8Slice("a"), utf8Slice("")), Arrays.asList(null, utf8Slice("ü")), null)));
        ArrayType nested = new ArrayType(new ArrayType(INTEGER));
        assertRepresentations(nested, block(nested, Arrays.asList(
                List.of(List.of(1L, 2L), List.of()),
                Arrays.asList(null, Arrays.asList(3L, null)),
                null,
                List.of())));
        // only empty and null arrays: no elements at all
        assertRepresentations(bigints, block(bigints, Arrays.asList(List.of(), null)));
        assertRoundTrip(bigints, block(bigints, List.of()));
    }

    @Test
    void testRows()
    {
        RowType inner = RowType.rowType(RowType.field("d", DATE), RowType.field("ts", createTimestampType(6)));
        RowType row = RowType.rowType(
                RowType.field("x", DOUBLE),
                RowType.field("tags", new ArrayType(VARCHAR)),
                RowType.field("inner", inner),
                RowType.field("amount", createDecimalType(38, 10)));
        Block block = block(row, Arrays.asList(
                Arrays.asList(1.5, List.of(utf8Slice("a"), utf8Slice("b")), Arrays.asList(0L, -1L), Int128.valueOf(-5)),
                null,
                Arrays.asList(null, null, null, null),
                Arrays.asList(-0.0, List.of(), Arrays.asList(null, 1_700_000_000_000_001L), null),
                null,
                Arrays.asList(Double.NaN, Arrays.asList(null, utf8Slice("c")), null, Int128.valueOf(new BigInteger("-99999999999999999999999999999999999999")))));
        assertRepresentations(row, block);
    }

    @Test
    void testArraysOfRows()
    {
        RowType point = RowType.rowType(RowType.field("name", VARCHAR), RowType.field("scores", new ArrayType(DOUBLE)));
        ArrayType type = new ArrayType(point);
        Block block = block(type, Arrays.asList(
                List.of(Arrays.asList(utf8Slice("p"), List.of(1.0, 2.0)), Arrays.asList(null, null)),
                Arrays.asList(null, Arrays.asList(utf8Slice("q"), Arrays.asList(null, 3.0))),
                null,
                List.of(),
                List.of(Arrays.asList(utf8Slice(""), List.of()))));
        assertRepresentations(type, block);
        ArrayType nested = new ArrayType(type);
        assertRepresentations(nested, block(nested, Arrays.asList(
                List.of(List.of(Arrays.asList(utf8Slice("a"), List.of(1.0))), List.of()),
                null,
                Arrays.asList(null, List.of(Arrays.asList(null, Arrays.asList(null, -1.0)))))));
    }

    @Test
    void testNestedDictionaries()
    {
        // element and field blocks may themselves be dictionaries or run-length encoded
        Block strings = block(VARCHAR, Arrays.asList(utf8Slice("a"), null, utf8Slice("bc")));
        Block elements = DictionaryBlock.create(6, strings, new int[] {2, 0, 1, 2, 2, 0});
        // validity bitmaps: bit set = not null; position 1 is null
        Optional<long[]> secondNull = Optional.of(new long[] {0b1101});
        Block arrays = ArrayBlock.fromElementBlock(4, secondNull, new int[] {0, 2, 2, 5, 6}, elements);
        assertRepresentations(new ArrayType(VARCHAR), arrays);
        assertRepresentations(new ArrayType(VARCHAR), ArrayBlock.fromElementBlock(3, Optional.empty(), new int[] {0, 2, 3, 3}, RunLengthEncodedBlock.create(strings.getSingleValueBlock(2), 3)));

        // Trino requires null fields under a null row
        Block innerRows = RowBlock.fromNotNullSuppressedFieldBlocks(4, secondNull,
                new Block[] {DictionaryBlock.create(4, block(BIGINT, longs(7, null)), new int[] {0, 1, 0, 0})});
        Block rows = RowBlock.fromNotNullSuppressedFieldBlocks(4, secondNull, new Block[] {
                DictionaryBlock.create(4, strings, new int[] {0, 1, 1, 2}),
                innerRows});
        RowType type = RowType.rowType(RowType.field("s", VARCHAR), RowType.field("r", RowType.rowType(RowType.field("n", BIGINT))));
        assertRepresentations(type, rows);
    }

    @Test
    void testFixedSizeList()
    {
        // Lance vectors: fixed_size_list:float:3 reads as ARRAY(REAL)
        ArrayType type = new ArrayType(REAL);
        Field field = new Field("emb", FieldType.nullable(new ArrowType.FixedSizeList(3)), List.of(new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), List.of())));
        Block block = block(type, Arrays.asList(reals(1, 2, 3), null, Arrays.asList(null, (long) floatToRawIntBits(-4.5f), (long) floatToRawIntBits(6)), reals(7, 8, 9)));
        assertRoundTrip(field, type, block);
        assertRoundTrip(field, type, dictionary(block));
        assertRoundTrip(field, type, block.getRegion(2, 2));
        assertRoundTrip(field, type, RunLengthEncodedBlock.create(block.getSingleValueBlock(0), 5));

        Block wrongLength = block(type, List.of(reals(1, 2)));
        try (FieldVector vector = field.createVector(allocator)) {
            assertThatThrownBy(() -> ArrowWriters.writeBlock(wrongLength, type, vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(CONSTRAINT_VIOLATION.toErrorCode()))
                    .hasMessageContaining("emb");
        }
    }

    @Test
    void testOtherArrowEncodings()
    {
        // columns of tables written by Lance itself, in the Arrow types reading maps to these Trino types
        assertRoundTrip(arrow("u8", new ArrowType.Int(8, false)), SMALLINT, block(SMALLINT, longs(0, null, 255)));
        assertRoundTrip(arrow("u16", new ArrowType.Int(16, false)), INTEGER, block(INTEGER, longs(0, null, 65_535)));
        assertRoundTrip(arrow("u32", new ArrowType.Int(32, false)), BIGINT, block(BIGINT, longs(0, null, 4_294_967_295L)));
        DecimalType uint64 = createDecimalType(20, 0);
        assertRoundTrip(arrow("u64", new ArrowType.Int(64, false)), uint64, block(uint64, Arrays.asList(Int128.ZERO, null, Int128.valueOf(new BigInteger("18446744073709551615")))));
        assertRoundTrip(arrow("half", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)), REAL, block(REAL, reals(1.5f, -0.25f, 65504f)));
        assertRoundTrip(arrow("s", ArrowType.LargeUtf8.INSTANCE), VARCHAR, block(VARCHAR, Arrays.asList(utf8Slice("large"), null, utf8Slice(""))));
        assertRoundTrip(arrow("b", ArrowType.LargeBinary.INSTANCE), VARBINARY, block(VARBINARY, Arrays.asList(wrappedBuffer((byte) 1), null)));
        assertRoundTrip(arrow("f", new ArrowType.FixedSizeBinary(2)), VARBINARY, block(VARBINARY, Arrays.asList(wrappedBuffer((byte) 1, (byte) 2), null)));
        assertRoundTrip(arrow("d", new ArrowType.Date(DateUnit.MILLISECOND)), DATE, block(DATE, longs(-719_162, null, 2_932_896)));
        DecimalType decimal = createDecimalType(38, 10);
        assertRoundTrip(arrow("d256", new ArrowType.Decimal(38, 10, 256)), decimal, block(decimal, Arrays.asList(Int128.valueOf(-12345), null, Int128.valueOf(new BigInteger("-99999999999999999999999999999999999999")))));
        assertRoundTrip(arrow("ts", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "America/New_York")), createTimestampWithTimeZoneType(9),
                block(createTimestampWithTimeZoneType(9), Arrays.asList(LongTimestampWithTimeZone.fromEpochMillisAndFraction(-1, 999_000_000, UTC_KEY), null)));
        assertRoundTrip(arrow("t", new ArrowType.Time(TimeUnit.NANOSECOND, 64)), createTimeType(9), block(createTimeType(9), longs(123_456_789_000L, null)));
        assertRoundTrip(arrow("l", ArrowType.LargeList.INSTANCE, arrow("item", ArrowType.Utf8.INSTANCE)), new ArrayType(VARCHAR),
                block(new ArrayType(VARCHAR), Arrays.asList(List.of(utf8Slice("a")), null, List.of())));

        Block bfloat = block(REAL, reals(1.0f, -2.5f, 0.15625f, Float.NEGATIVE_INFINITY));
        Field bfloatField = new Field("bf", FieldType.nullable(new ArrowType.FixedSizeBinary(2)), List.of());
        assertRoundTrip(bfloatField, REAL, bfloat);
        assertThat(NumericWriters.bfloat16(floatToRawIntBits(1.00390625f))).isEqualTo((short) 0x3F80);
        assertThat(NumericWriters.bfloat16(floatToRawIntBits(1.01171875f))).isEqualTo((short) 0x3F82);

        try (FieldVector vector = arrow("u8", new ArrowType.Int(8, false)).createVector(allocator)) {
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block(SMALLINT, longs(256)), SMALLINT, vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(NUMERIC_VALUE_OUT_OF_RANGE.toErrorCode()));
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block(SMALLINT, longs(-1)), SMALLINT, vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(NUMERIC_VALUE_OUT_OF_RANGE.toErrorCode()));
        }
        try (FieldVector vector = arrow("f", new ArrowType.FixedSizeBinary(2)).createVector(allocator)) {
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block(VARBINARY, List.of(wrappedBuffer((byte) 1))), VARBINARY, vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(CONSTRAINT_VIOLATION.toErrorCode()));
        }
        // a coarser unit than the Trino precision would round
        try (FieldVector vector = arrow("ts", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)).createVector(allocator)) {
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block(createTimestampType(6), longs(1)), createTimestampType(6), vector))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("Cannot write");
        }
    }

    @Test
    void testNotNullable()
    {
        Field required = new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), List.of());
        assertRoundTrip(required, BIGINT, block(BIGINT, longs(1, 2)));
        try (FieldVector vector = required.createVector(allocator)) {
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block(BIGINT, longs(1, null)), BIGINT, vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(CONSTRAINT_VIOLATION.toErrorCode()))
                    .hasMessageContaining("id");
        }

        // non-nullable fields of a nullable struct get placeholders under null rows, and fail on their own nulls
        RowType type = RowType.rowType(RowType.field("x", BIGINT), RowType.field("s", VARCHAR), RowType.field("l", new ArrayType(BIGINT)));
        Field struct = new Field("r", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                new Field("x", FieldType.notNullable(new ArrowType.Int(64, true)), List.of()),
                new Field("s", FieldType.notNullable(ArrowType.Utf8.INSTANCE), List.of()),
                new Field("l", FieldType.notNullable(ArrowType.List.INSTANCE), List.of(new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), List.of())))));
        Block rows = block(type, Arrays.asList(Arrays.asList(1L, utf8Slice("a"), List.of(1L)), null, Arrays.asList(3L, utf8Slice("c"), List.of())));
        assertRoundTrip(struct, type, rows);
        try (StructVector vector = (StructVector) struct.createVector(allocator)) {
            ArrowWriters.writeBlock(rows, type, vector);
            assertThat(vector.isNull(1)).isTrue();
            assertThat(vector.getChild("x").isNull(1)).isFalse();
            assertThat(vector.getChild("s").isNull(1)).isFalse();
            assertThat(vector.getChild("l").isNull(1)).isFalse();
            assertThatThrownBy(() -> ArrowWriters.writeBlock(block(type, List.of(Arrays.asList(1L, null, List.of()))), type, vector))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(CONSTRAINT_VIOLATION.toErrorCode()))
                    .hasMessageEndingWith("column: s");
        }
    }

    @Test
    void testReusedVector()
    {
        // a vector written again drops its old values and buffers
        Field field = ArrowTypes.toArrowField("a", new ArrayType(VARCHAR), true).orElseThrow();
        try (FieldVector vector = field.createVector(allocator)) {
            ArrowWriters.writeBlock(block(new ArrayType(VARCHAR), Arrays.asList(List.of(utf8Slice("a"), utf8Slice("b")), null, List.of(utf8Slice("c")))), new ArrayType(VARCHAR), vector);
            Block second = block(new ArrayType(VARCHAR), Arrays.asList(null, List.of(utf8Slice("d"))));
            ArrowWriters.writeBlock(second, new ArrayType(VARCHAR), vector);
            assertThat(values(new ArrayType(VARCHAR), ArrowBlocks.toBlock(new ArrayType(VARCHAR), vector))).isEqualTo(values(new ArrayType(VARCHAR), second));
        }
    }

    @Test
    void testPage()
    {
        List<Type> types = List.of(BIGINT, VARCHAR, new ArrayType(DOUBLE), createTimestampWithTimeZoneType(3));
        Schema schema = new Schema(List.of(
                ArrowTypes.toArrowField("id", BIGINT, false).orElseThrow(),
                ArrowTypes.toArrowField("name", VARCHAR, true).orElseThrow(),
                ArrowTypes.toArrowField("scores", new ArrayType(DOUBLE), true).orElseThrow(),
                ArrowTypes.toArrowField("at", createTimestampWithTimeZoneType(3), true).orElseThrow()));
        Block names = block(VARCHAR, Arrays.asList(utf8Slice("x"), null));
        Page page = new Page(
                block(BIGINT, longs(1, 2, 3)),
                DictionaryBlock.create(3, names, new int[] {1, 0, 0}),
                block(new ArrayType(DOUBLE), Arrays.asList(List.of(1.0), null, List.of())),
                RunLengthEncodedBlock.create(createTimestampWithTimeZoneType(3), packDateTimeWithZone(-1, NEW_YORK), 3));
        try (VectorSchemaRoot root = ArrowWriters.toArrow(page, types, schema, allocator)) {
            assertThat(root.getRowCount()).isEqualTo(3);
            assertThat(root.getSchema()).isEqualTo(schema);
            for (int channel = 0; channel < types.size(); channel++) {
                Type type = types.get(channel);
                Block expected = page.getBlock(channel);
                List<Object> expectedValues = channel == 3
                        ? List.of(SqlTimestampWithTimeZone.newInstance(3, -1, 0, UTC_KEY), SqlTimestampWithTimeZone.newInstance(3, -1, 0, UTC_KEY), SqlTimestampWithTimeZone.newInstance(3, -1, 0, UTC_KEY))
                        : values(type, expected);
                assertThat(values(type, ArrowBlocks.toBlock(type, root.getVector(channel)))).isEqualTo(expectedValues);
            }
        }
        // a failure releases the partly written root
        Page bad = new Page(block(BIGINT, longs(1, null)), block(VARCHAR, Arrays.asList(null, null)), block(new ArrayType(DOUBLE), Arrays.asList(null, null)), block(createTimestampWithTimeZoneType(3), Arrays.asList(null, null)));
        assertThatThrownBy(() -> ArrowWriters.toArrow(bad, types, schema, allocator)).isInstanceOf(TrinoException.class);
    }

    @Test
    void testArrowTypes()
    {
        assertThat(ArrowTypes.toArrowField("c", BOOLEAN, true).orElseThrow().getType()).isEqualTo(ArrowType.Bool.INSTANCE);
        assertThat(ArrowTypes.toArrowField("c", createDecimalType(38, 10), true).orElseThrow().getType()).isEqualTo(new ArrowType.Decimal(38, 10, 128));
        assertThat(ArrowTypes.toArrowField("c", createTimeType(0), true).orElseThrow().getType()).isEqualTo(new ArrowType.Time(TimeUnit.SECOND, 32));
        assertThat(ArrowTypes.toArrowField("c", createTimeType(2), true).orElseThrow().getType()).isEqualTo(new ArrowType.Time(TimeUnit.MILLISECOND, 32));
        assertThat(ArrowTypes.toArrowField("c", createTimeType(5), true).orElseThrow().getType()).isEqualTo(new ArrowType.Time(TimeUnit.MICROSECOND, 64));
        assertThat(ArrowTypes.toArrowField("c", createTimeType(7), true).orElseThrow().getType()).isEqualTo(new ArrowType.Time(TimeUnit.NANOSECOND, 64));
        assertThat(ArrowTypes.toArrowField("c", createTimestampType(3), true).orElseThrow().getType()).isEqualTo(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null));
        assertThat(ArrowTypes.toArrowField("c", createTimestampWithTimeZoneType(6), true).orElseThrow().getType()).isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
        assertThat(ArrowTypes.toArrowField("c", createTimestampWithTimeZoneType(10), true)).isEmpty();
        assertThat(ArrowTypes.toArrowField("c", createCharType(3), true)).isEmpty();
        assertThat(ArrowTypes.toArrowField("c", UUID, true)).isEmpty();
        assertThat(ArrowTypes.toArrowField("c", new ArrayType(UUID), true)).isEmpty();
        assertThat(ArrowTypes.toArrowField("c", RowType.anonymousRow(BIGINT), true)).isEmpty();
        Field row = ArrowTypes.toArrowField("r", RowType.rowType(RowType.field("a", new ArrayType(BIGINT))), false).orElseThrow();
        assertThat(row).isEqualTo(new Field("r", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
                new Field("a", FieldType.nullable(ArrowType.List.INSTANCE), List.of(new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), List.of()))))));
    }

    /**
     * The block and its region, dictionary and run-length forms round trip through the vector {@link ArrowTypes} picks.
     */
    private void assertRepresentations(Type type, Block block)
    {
        assertRoundTrip(type, block);
        int count = block.getPositionCount();
        if (count > 2) {
            assertRoundTrip(type, block.getRegion(1, count - 2));
        }
        assertRoundTrip(type, dictionary(block));
        if (count > 0) {
            assertRoundTrip(type, RunLengthEncodedBlock.create(block.getSingleValueBlock(0), 3));
            assertRoundTrip(type, RunLengthEncodedBlock.create(block.getSingleValueBlock(count - 1), 65));
        }
        assertRoundTrip(type, RunLengthEncodedBlock.create(type, null, 2));
    }

    private void assertRoundTrip(Type type, Block block)
    {
        assertRoundTrip(type, type, block, values(type, block));
    }

    private void assertRoundTrip(Type type, Type readType, Block block, List<Object> expected)
    {
        Field field = ArrowTypes.toArrowField("c", type, true).orElseThrow();
        assertThat(roundTrip(field, type, readType, block)).isEqualTo(expected);
    }

    private void assertRoundTrip(Field field, Type type, Block block)
    {
        assertThat(roundTrip(field, type, type, block)).isEqualTo(values(type, block));
    }

    private List<Object> roundTrip(Field field, Type type, Type readType, Block block)
    {
        try (FieldVector vector = field.createVector(allocator)) {
            ArrowWriters.writeBlock(block, type, vector);
            assertThat(vector.getValueCount()).isEqualTo(block.getPositionCount());
            validate(vector);
            return values(readType, ArrowBlocks.toBlock(readType, vector));
        }
    }

    // Arrow Java's validators reject valid half float and fixed size list vectors and decimals of full precision
    private static void validate(FieldVector vector)
    {
        if (validatable(vector)) {
            vector.validateFull();
        }
    }

    private static boolean validatable(FieldVector vector)
    {
        return !(vector instanceof Float2Vector || vector instanceof FixedSizeListVector || vector instanceof DecimalVector || vector instanceof Decimal256Vector)
                && vector.getChildrenFromFields().stream().allMatch(TestArrowWriters::validatable);
    }

    private FieldVector createVector(Type type)
    {
        return ArrowTypes.toArrowField("c", type, true).orElseThrow().createVector(allocator);
    }

    private static Block dictionary(Block block)
    {
        // reversed, with repeats
        int count = block.getPositionCount();
        int[] ids = new int[count * 2];
        for (int i = 0; i < count; i++) {
            ids[i] = count - 1 - i;
            ids[count + i] = i / 2;
        }
        return DictionaryBlock.create(ids.length, block, ids);
    }

    private static List<Object> dictionaryOf(List<Object> values)
    {
        int count = values.size();
        List<Object> result = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            result.add(values.get(count - 1 - i));
        }
        for (int i = 0; i < count; i++) {
            result.add(values.get(i / 2));
        }
        return result;
    }

    private static int readPrecision(int precision)
    {
        return ArrowTypes.digits(ArrowTypes.timeUnit(precision).orElseThrow());
    }

    // epoch microseconds and picoseconds of the microsecond cut to a precision, rounding towards negative infinity
    private static long[] truncate(long micros, long picos, int precision)
    {
        if (precision >= 6) {
            long unit = POWERS_OF_TEN[12 - precision];
            return new long[] {micros, picos / unit * unit};
        }
        long unit = POWERS_OF_TEN[6 - precision];
        return new long[] {Math.floorDiv(micros, unit) * unit, 0};
    }

    /**
     * A block from native values; arrays are lists of element values and rows lists of field values.
     */
    static Block block(Type type, List<?> values)
    {
        BlockBuilder builder = type.createBlockBuilder(null, values.size());
        for (Object value : values) {
            write(type, builder, value);
        }
        return builder.build();
    }

    private static void write(Type type, BlockBuilder builder, Object value)
    {
        if (value == null) {
            builder.appendNull();
            return;
        }
        switch (type) {
            case ArrayType arrayType -> ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> {
                for (Object element : (List<?>) value) {
                    write(arrayType.getElementType(), elementBuilder, element);
                }
            });
            case RowType rowType -> ((RowBlockBuilder) builder).buildEntry(fieldBuilders -> {
                List<?> fields = (List<?>) value;
                for (int i = 0; i < fields.size(); i++) {
                    write(rowType.getTypeParameters().get(i), fieldBuilders.get(i), fields.get(i));
                }
            });
            default -> writeNativeValue(type, builder, value);
        }
    }

    private static List<Object> longs(Object... values)
    {
        List<Object> result = new ArrayList<>();
        for (Object value : values) {
            result.add(value == null ? null : ((Number) value).longValue());
        }
        return result;
    }

    private static List<Object> reals(float... values)
    {
        List<Object> result = new ArrayList<>();
        for (float value : values) {
            result.add((long) floatToRawIntBits(value));
        }
        return result;
    }

    private static Field arrow(String name, ArrowType type, Field... children)
    {
        return new Field(name, FieldType.nullable(type), List.of(children));
    }

}
