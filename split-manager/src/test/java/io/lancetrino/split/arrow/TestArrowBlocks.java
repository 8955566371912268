package io.lancetrino.split.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.SqlDate;
import io.trino.spi.type.SqlDecimal;
import io.trino.spi.type.SqlTime;
import io.trino.spi.type.SqlTimestamp;
import io.trino.spi.type.SqlTimestampWithTimeZone;
import io.trino.spi.type.SqlVarbinary;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecTZVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.UuidVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.DateTimeEncoding.unpackZoneKey;
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
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestArrowBlocks
{
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

    static BufferAllocator newAllocator()
    {
        return new RootAllocator(RootAllocator.configBuilder().allocationManagerFactory(UnsafeAllocationManager.FACTORY).build());
    }

    @Test
    void testBoolean()
    {
        try (BitVector vector = new BitVector("b", allocator)) {
            // crosses a bitmap word boundary
            int count = 130;
            Boolean[] expected = new Boolean[count];
            for (int i = 0; i < count; i++) {
                if (i % 7 == 3 || i == 64 || i == 129) {
                    vector.setNull(i);
                }
                else {
                    vector.setSafe(i, i % 3 == 0 ? 1 : 0);
                    expected[i] = i % 3 == 0;
                }
            }
            vector.setValueCount(count);
            assertValues(BOOLEAN, vector, (Object[]) expected);
        }
    }

    @Test
    void testSignedIntegers()
    {
        try (TinyIntVector vector = new TinyIntVector("i8", allocator)) {
            setInts(vector, vector::setSafe, (int) Byte.MIN_VALUE, null, -1, (int) Byte.MAX_VALUE);
            assertValues(TINYINT, vector, Byte.MIN_VALUE, null, (byte) -1, Byte.MAX_VALUE);
        }
        try (SmallIntVector vector = new SmallIntVector("i16", allocator)) {
            setInts(vector, vector::setSafe, (int) Short.MIN_VALUE, null, -1, (int) Short.MAX_VALUE);
            assertValues(SMALLINT, vector, Short.MIN_VALUE, null, (short) -1, Short.MAX_VALUE);
        }
        try (IntVector vector = new IntVector("i32", allocator)) {
            setInts(vector, vector::setSafe, Integer.MIN_VALUE, null, -1, Integer.MAX_VALUE);
            assertValues(INTEGER, vector, Integer.MIN_VALUE, null, -1, Integer.MAX_VALUE);
        }
        try (BigIntVector vector = new BigIntVector("i64", allocator)) {
            setLongs(vector, vector::setSafe, Long.MIN_VALUE, null, -1L, Long.MAX_VALUE);
            assertValues(BIGINT, vector, Long.MIN_VALUE, null, -1L, Long.MAX_VALUE);
            Block block = ArrowBlocks.toBlock(BIGINT, vector);
            assertThat(BIGINT.getLong(block, 0)).isEqualTo(Long.MIN_VALUE);
            assertThat(block.isNull(1)).isTrue();
            assertThat(block.isNull(3)).isFalse();
        }
    }

    @Test
    void testUnsignedIntegers()
    {
        try (UInt1Vector vector = new UInt1Vector("u8", allocator)) {
            vector.setSafe(0, 0);
            vector.setNull(1);
            vector.setSafe(2, 255);
            vector.setSafe(3, 128);
            vector.setValueCount(4);
            assertValues(SMALLINT, vector, (short) 0, null, (short) 255, (short) 128);
        }
        try (UInt2Vector vector = new UInt2Vector("u16", allocator)) {
            vector.setSafe(0, 0);
            vector.setNull(1);
            vector.setSafe(2, 65535);
            vector.setSafe(3, 32768);
            vector.setValueCount(4);
            assertValues(INTEGER, vector, 0, null, 65535, 32768);
        }
        try (UInt4Vector vector = new UInt4Vector("u32", allocator)) {
            vector.setSafe(0, 0);
            vector.setNull(1);
            vector.setSafe(2, -1);
            vector.setSafe(3, Integer.MIN_VALUE);
            vector.setValueCount(4);
            assertValues(BIGINT, vector, 0L, null, 4294967295L, 2147483648L);
        }
        try (UInt8Vector vector = new UInt8Vector("u64", allocator)) {
            vector.setSafe(0, 0);
            vector.setNull(1);
            vector.setSafe(2, -1L);
            vector.setSafe(3, Long.MIN_VALUE);
            vector.setSafe(4, 42);
            vector.setValueCount(5);
            DecimalType type = createDecimalType(20, 0);
            assertValues(type, vector,
                    decimal("0", type),
                    null,
                    decimal("18446744073709551615", type),
                    decimal("9223372036854775808", type),
                    decimal("42", type));
            assertThat(type.getObject(ArrowBlocks.toBlock(type, vector), 2)).isEqualTo(Int128.valueOf(0, -1L));
        }
    }

    @Test
    void testIntegerWideningAndNarrowing()
    {
        try (IntVector vector = new IntVector("i32", allocator)) {
            setInts(vector, vector::setSafe, Integer.MIN_VALUE, null, 7);
            assertValues(BIGINT, vector, (long) Integer.MIN_VALUE, null, 7L);
            assertValues(createDecimalType(12, 2), vector, decimal("-2147483648.00", createDecimalType(12, 2)), null, decimal("7.00", createDecimalType(12, 2)));
            assertThatThrownBy(() -> ArrowBlocks.toBlock(SMALLINT, vector))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("out of range");
        }
        try (BigIntVector vector = new BigIntVector("i64", allocator)) {
            // the out-of-range value sits in a null slot and is ignored
            setLongs(vector, vector::setSafe, 1L, 2L, Long.MAX_VALUE);
            vector.setNull(2);
            assertValues(TINYINT, vector, (byte) 1, (byte) 2, null);
        }
        try (UInt8Vector vector = new UInt8Vector("u64", allocator)) {
            vector.setSafe(0, -1L);
            vector.setValueCount(1);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(BIGINT, vector))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("18446744073709551615");
        }
    }

    @Test
    void testFloatingPoint()
    {
        try (Float2Vector vector = new Float2Vector("f16", allocator)) {
            vector.setSafe(0, Float.floatToFloat16(1.5f));
            vector.setNull(1);
            vector.setSafe(2, Float.floatToFloat16(-65504f));
            vector.setSafe(3, Float.floatToFloat16(Float.NaN));
            vector.setSafe(4, Float.floatToFloat16(Float.NEGATIVE_INFINITY));
            vector.setValueCount(5);
            assertValues(REAL, vector, 1.5f, null, -65504f, Float.NaN, Float.NEGATIVE_INFINITY);
        }
        try (Float4Vector vector = new Float4Vector("f32", allocator)) {
            vector.setSafe(0, 3.25f);
            vector.setNull(1);
            vector.setSafe(2, -0.0f);
            vector.setSafe(3, Float.MAX_VALUE);
            vector.setValueCount(4);
            assertValues(REAL, vector, 3.25f, null, -0.0f, Float.MAX_VALUE);
            assertValues(DOUBLE, vector, 3.25, null, -0.0, (double) Float.MAX_VALUE);
        }
        try (Float8Vector vector = new Float8Vector("f64", allocator)) {
            vector.setSafe(0, Math.PI);
            vector.setNull(1);
            vector.setSafe(2, Double.MIN_VALUE);
            vector.setSafe(3, Double.NaN);
            vector.setValueCount(4);
            assertValues(DOUBLE, vector, Math.PI, null, Double.MIN_VALUE, Double.NaN);
        }
    }

    @Test
    void testBfloat16()
    {
        try (FixedSizeBinaryVector vector = new FixedSizeBinaryVector("bf16", allocator, 2)) {
            // 1.5f is 0x3FC00000; bfloat16 keeps the upper half, little-endian on disk
            vector.setSafe(0, new byte[] {(byte) 0xC0, 0x3F});
            vector.setNull(1);
            vector.setSafe(2, new byte[] {(byte) 0x80, (byte) 0xBF});
            vector.setValueCount(3);
            assertValues(REAL, vector, 1.5f, null, -1.0f);
        }
    }

    @Test
    void testDecimals()
    {
        DecimalType shortType = createDecimalType(10, 2);
        try (DecimalVector vector = new DecimalVector("d", allocator, 10, 2)) {
            vector.setSafe(0, new BigDecimal("-12345678.91"));
            vector.setNull(1);
            vector.setSafe(2, new BigDecimal("0.01"));
            vector.setSafe(3, new BigDecimal("99999999.99"));
            vector.setValueCount(4);
            assertValues(shortType, vector, decimal("-12345678.91", shortType), null, decimal("0.01", shortType), decimal("99999999.99", shortType));
            assertThat(shortType.getLong(ArrowBlocks.toBlock(shortType, vector), 0)).isEqualTo(-1234567891L);
        }
        DecimalType longType = createDecimalType(38, 10);
        try (DecimalVector vector = new DecimalVector("d", allocator, 38, 10)) {
            vector.setSafe(0, new BigDecimal("-9999999999999999999999999999.9999999999"));
            vector.setNull(1);
            vector.setSafe(2, new BigDecimal("-0.0000000001"));
            vector.setSafe(3, new BigDecimal("1234567890123456789012345678.0123456789"));
            vector.setValueCount(4);
            assertValues(longType, vector,
                    decimal("-9999999999999999999999999999.9999999999", longType),
                    null,
                    decimal("-0.0000000001", longType),
                    decimal("1234567890123456789012345678.0123456789", longType));
            assertThat(longType.getObject(ArrowBlocks.toBlock(longType, vector), 2)).isEqualTo(Int128.valueOf(-1L, -1L));
        }
        try (Decimal256Vector vector = new Decimal256Vector("d", allocator, 38, 10)) {
            vector.setSafe(0, new BigDecimal("-9999999999999999999999999999.9999999999"));
            vector.setNull(1);
            vector.setSafe(2, new BigDecimal("42.5000000000"));
            vector.setValueCount(3);
            assertValues(longType, vector, decimal("-9999999999999999999999999999.9999999999", longType), null, decimal("42.5000000000", longType));
        }
        try (Decimal256Vector vector = new Decimal256Vector("d", allocator, 18, 3)) {
            vector.setSafe(0, new BigDecimal("-123.456"));
            vector.setValueCount(1);
            DecimalType type = createDecimalType(18, 3);
            assertValues(type, vector, decimal("-123.456", type));
        }
        try (DecimalVector scaleMismatch = new DecimalVector("d", allocator, 10, 3);
                DecimalVector tooPrecise = new DecimalVector("d", allocator, 12, 2)) {
            scaleMismatch.setValueCount(0);
            tooPrecise.setValueCount(0);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(shortType, scaleMismatch)).isInstanceOf(TrinoException.class);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(shortType, tooPrecise)).isInstanceOf(TrinoException.class);
        }
    }

    @Test
    void testDictionary()
    {
        DictionaryEncoding encoding = new DictionaryEncoding(7L, false, new ArrowType.Int(32, true));
        try (VarCharVector dictionaryValues = new VarCharVector("dictionary", allocator);
                IntVector keys = new IntVector("d", new FieldType(true, new ArrowType.Int(32, true), encoding), allocator)) {
            setStrings(dictionaryValues::setSafe, dictionaryValues::setNull, "red", "green");
            dictionaryValues.setValueCount(2);
            DictionaryProvider.MapDictionaryProvider dictionaries = new DictionaryProvider.MapDictionaryProvider(new Dictionary(dictionaryValues, encoding));
            keys.setSafe(0, 1);
            keys.setNull(1);
            keys.setSafe(2, 0);
            keys.setSafe(3, 1);
            keys.setValueCount(4);
            Block block = ArrowBlocks.toBlock(VARCHAR, keys, dictionaries);
            assertThat(values(VARCHAR, block)).containsExactly("green", null, "red", "green");
            assertThat(block.isNull(1)).isTrue();
            // without the reader's dictionaries the keys cannot be read as strings
            assertThatThrownBy(() -> ArrowBlocks.toBlock(VARCHAR, keys)).isInstanceOf(TrinoException.class);
            keys.setSafe(1, 2);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(VARCHAR, keys, dictionaries)).isInstanceOf(TrinoException.class).hasMessageContaining("dictionary key 2");
        }
    }

    @Test
    void testStringsAndBinaries()
    {
        try (VarCharVector vector = new VarCharVector("s", allocator)) {
            setStrings(vector::setSafe, vector::setNull, "abc", null, "", "żółw 🐢");
            vector.setValueCount(4);
            assertValues(VARCHAR, vector, "abc", null, "", "żółw 🐢");
        }
        try (LargeVarCharVector vector = new LargeVarCharVector("s", allocator)) {
            setStrings(vector::setSafe, vector::setNull, null, "x", "hello world");
            vector.setValueCount(3);
            assertValues(VARCHAR, vector, null, "x", "hello world");
        }
        try (VarBinaryVector vector = new VarBinaryVector("b", allocator)) {
            vector.setSafe(0, new byte[] {0, 1, (byte) 0xFF});
            vector.setNull(1);
            vector.setSafe(2, new byte[0]);
            vector.setValueCount(3);
            assertValues(VARBINARY, vector, new SqlVarbinary(new byte[] {0, 1, (byte) 0xFF}), null, new SqlVarbinary(new byte[0]));
        }
        try (LargeVarBinaryVector vector = new LargeVarBinaryVector("text", allocator)) {
            // large binaries holding text read as either type
            vector.setSafe(0, "{\"a\": 1}".getBytes(UTF_8));
            vector.setNull(1);
            vector.setValueCount(2);
            assertValues(VARCHAR, vector, "{\"a\": 1}", null);
            assertValues(VARBINARY, vector, new SqlVarbinary("{\"a\": 1}".getBytes(UTF_8)), null);
        }
        try (FixedSizeBinaryVector vector = new FixedSizeBinaryVector("fsb", allocator, 3)) {
            vector.setSafe(0, new byte[] {1, 2, 3});
            vector.setNull(1);
            vector.setSafe(2, new byte[] {7, 8, 9});
            vector.setValueCount(3);
            assertValues(VARBINARY, vector, new SqlVarbinary(new byte[] {1, 2, 3}), null, new SqlVarbinary(new byte[] {7, 8, 9}));
        }
    }

    @Test
    void testExtensionVector()
    {
        try (UuidVector vector = new UuidVector("id", allocator)) {
            UUID uuid = UUID.fromString("01234567-89ab-cdef-0123-456789abcdef");
            vector.setSafe(0, uuid);
            vector.setNull(1);
            vector.setValueCount(2);
            byte[] expected = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array();
            assertValues(VARBINARY, vector, new SqlVarbinary(expected), null);
        }
    }

    @Test
    void testStringOffsetsNotStartingAtZero()
    {
        try (VarCharVector vector = new VarCharVector("s", allocator)) {
            setStrings(vector::setSafe, vector::setNull, "abc", "de", "f");
            vector.setValueCount(3);
            // first value now starts at byte 1
            vector.getOffsetBuffer().setInt(0, 1);
            assertValues(VARCHAR, vector, "bc", "de", "f");
        }
    }

    @Test
    void testDecreasingStringOffsetsAreBadData()
    {
        try (VarCharVector vector = new VarCharVector("s", allocator)) {
            setStrings(vector::setSafe, vector::setNull, "abc", "de", "f", "gh");
            vector.setValueCount(4);
            // value 2 would end before it starts
            vector.getOffsetBuffer().setInt(3 * 4L, 4);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(VARCHAR, vector))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("Arrow offsets decrease at position 2");
        }
    }

    @Test
    void testNullSlotsThatHoldBytesBecomeEmpty()
    {
        try (VarCharVector vector = new VarCharVector("s", allocator)) {
            setStrings(vector::setSafe, vector::setNull, "abc", "de", "f", "gh");
            vector.setValueCount(4);
            // Arrow lets a null keep its bytes, as Lance 2.2 does for dictionary-decoded strings
            vector.setNull(1);
            vector.setNull(3);
            assertThat(vector.getOffsetBuffer().getInt(2 * 4L)).isEqualTo(5);
            VariableWidthBlock block = (VariableWidthBlock) ArrowBlocks.toBlock(VARCHAR, vector);
            assertThat(block.isNull(1)).isTrue();
            assertThat(block.getSliceLength(1)).isZero();
            assertThat(block.getSliceLength(3)).isZero();
            assertThat(block.getRawSlice().length()).isEqualTo(4);
            assertThat(VARCHAR.getSlice(block, 0).toStringUtf8()).isEqualTo("abc");
            assertThat(VARCHAR.getSlice(block, 2).toStringUtf8()).isEqualTo("f");
        }
    }

    @Test
    void testSingleCharactersBecomeASmallDictionary()
    {
        try (VarCharVector vector = new VarCharVector("flag", allocator)) {
            setStrings(vector::setSafe, vector::setNull, "N", "R", null, "", "N", "A", "R");
            vector.setValueCount(7);
            Block block = ArrowBlocks.toBlock(VARCHAR, vector);
            // one entry per value present, so Trino can group by a table of id combinations
            assertThat(block).isInstanceOf(io.trino.spi.block.DictionaryBlock.class);
            assertThat(((io.trino.spi.block.DictionaryBlock) block).getDictionary().getPositionCount()).isEqualTo(5);
            assertThat(java.util.stream.IntStream.range(0, 7).mapToObj(i -> block.isNull(i) ? null : VARCHAR.getSlice(block, i).toStringUtf8()).toList())
                    .containsExactly("N", "R", null, "", "N", "A", "R");
        }
        try (VarBinaryVector vector = new VarBinaryVector("b", allocator)) {
            // a byte outside ASCII is not a character on its own: kept as it is
            vector.setSafe(0, new byte[] {(byte) 0xFF});
            vector.setSafe(1, new byte[] {7});
            vector.setValueCount(2);
            assertThat(ArrowBlocks.toBlock(VARBINARY, vector)).isInstanceOf(VariableWidthBlock.class);
        }
    }

    @Test
    void testDates()
    {
        try (DateDayVector vector = new DateDayVector("d", allocator)) {
            setInts(vector, vector::setSafe, -719162, null, 0, 19000);
            assertValues(DATE, vector, new SqlDate(-719162), null, new SqlDate(0), new SqlDate(19000));
        }
        try (DateMilliVector vector = new DateMilliVector("d", allocator)) {
            setLongs(vector, vector::setSafe, -1L, null, 86_400_000L * 19000, 86_400_000L * -3);
            assertValues(DATE, vector, new SqlDate(-1), null, new SqlDate(19000), new SqlDate(-3));
        }
    }

    @Test
    void testTimes()
    {
        long day = 86_400L;
        try (TimeSecVector vector = new TimeSecVector("t", allocator)) {
            setInts(vector, vector::setSafe, 0, null, (int) day - 1);
            assertValues(createTimeType(0), vector, SqlTime.newInstance(0, 0), null, SqlTime.newInstance(0, (day - 1) * 1_000_000_000_000L));
        }
        try (TimeMilliVector vector = new TimeMilliVector("t", allocator)) {
            setInts(vector, vector::setSafe, 1, null, (int) (day * 1000 - 1));
            assertValues(createTimeType(3), vector, SqlTime.newInstance(3, 1_000_000_000L), null, SqlTime.newInstance(3, (day * 1000 - 1) * 1_000_000_000L));
        }
        try (TimeMicroVector vector = new TimeMicroVector("t", allocator)) {
            setLongs(vector, vector::setSafe, 1L, null, day * 1_000_000 - 1);
            assertValues(createTimeType(6), vector, SqlTime.newInstance(6, 1_000_000L), null, SqlTime.newInstance(6, (day * 1_000_000 - 1) * 1_000_000L));
            assertThat(createTimeType(6).getLong(ArrowBlocks.toBlock(createTimeType(6), vector), 0)).isEqualTo(1_000_000L);
        }
        try (TimeNanoVector vector = new TimeNanoVector("t", allocator)) {
            setLongs(vector, vector::setSafe, 1L, null, day * 1_000_000_000 - 1);
            assertValues(createTimeType(9), vector, SqlTime.newInstance(9, 1_000L), null, SqlTime.newInstance(9, (day * 1_000_000_000 - 1) * 1_000L));
            // TIME(12) holds nanoseconds exactly, TIME(6) would have to round
            assertValues(createTimeType(12), vector, SqlTime.newInstance(12, 1_000L), null, SqlTime.newInstance(12, (day * 1_000_000_000 - 1) * 1_000L));
            assertThatThrownBy(() -> ArrowBlocks.toBlock(createTimeType(6), vector)).isInstanceOf(TrinoException.class);
        }
    }

    @Test
    void testTimestamps()
    {
        try (TimeStampSecVector vector = new TimeStampSecVector("ts", allocator)) {
            setLongs(vector, vector::setSafe, -1L, null, 1_700_000_000L);
            assertValues(createTimestampType(0), vector, SqlTimestamp.newInstance(0, -1_000_000L, 0), null, SqlTimestamp.newInstance(0, 1_700_000_000_000_000L, 0));
        }
        try (TimeStampMilliVector vector = new TimeStampMilliVector("ts", allocator)) {
            setLongs(vector, vector::setSafe, -1L, null, -86_400_001L);
            assertValues(createTimestampType(3), vector, SqlTimestamp.newInstance(3, -1_000L, 0), null, SqlTimestamp.newInstance(3, -86_400_001_000L, 0));
            assertThat(createTimestampType(3).getObjectValue(ArrowBlocks.toBlock(createTimestampType(3), vector), 0).toString()).isEqualTo("1969-12-31 23:59:59.999");
        }
        try (TimeStampMicroVector vector = new TimeStampMicroVector("ts", allocator)) {
            setLongs(vector, vector::setSafe, -1L, null, 1_234_567L);
            Block block = ArrowBlocks.toBlock(createTimestampType(6), vector);
            assertThat(createTimestampType(6).getLong(block, 0)).isEqualTo(-1L);
            assertThat(createTimestampType(6).getObjectValue(block, 0).toString()).isEqualTo("1969-12-31 23:59:59.999999");
            assertValues(createTimestampType(6), vector, SqlTimestamp.newInstance(6, -1L, 0), null, SqlTimestamp.newInstance(6, 1_234_567L, 0));
            // exact widening to nanosecond precision
            assertValues(createTimestampType(9), vector, SqlTimestamp.newInstance(9, -1L, 0), null, SqlTimestamp.newInstance(9, 1_234_567L, 0));
        }
        try (TimeStampNanoVector vector = new TimeStampNanoVector("ts", allocator)) {
            setLongs(vector, vector::setSafe, -1L, null, 1_700_000_000_123_456_789L, -1_500L);
            Type type = createTimestampType(9);
            Block block = ArrowBlocks.toBlock(type, vector);
            assertThat(type.getObject(block, 0)).isEqualTo(new LongTimestamp(-1L, 999_000));
            assertThat(type.getObject(block, 2)).isEqualTo(new LongTimestamp(1_700_000_000_123_456L, 789_000));
            assertThat(type.getObjectValue(block, 0).toString()).isEqualTo("1969-12-31 23:59:59.999999999");
            assertThat(type.getObjectValue(block, 3).toString()).isEqualTo("1969-12-31 23:59:59.999998500");
            assertValues(type, vector,
                    SqlTimestamp.newInstance(9, -1L, 999_000),
                    null,
                    SqlTimestamp.newInstance(9, 1_700_000_000_123_456L, 789_000),
                    SqlTimestamp.newInstance(9, -2L, 500_000));
            assertThatThrownBy(() -> ArrowBlocks.toBlock(createTimestampType(6), vector)).isInstanceOf(TrinoException.class);
        }
    }

    @Test
    void testTimestampsWithTimeZone()
    {
        try (TimeStampSecTZVector vector = new TimeStampSecTZVector("ts", allocator, "UTC")) {
            setLongs(vector, vector::setSafe, -1L, null, 1_700_000_000L);
            Type type = createTimestampWithTimeZoneType(0);
            Block block = ArrowBlocks.toBlock(type, vector);
            assertThat(unpackMillisUtc(type.getLong(block, 0))).isEqualTo(-1_000L);
            assertThat(unpackZoneKey(type.getLong(block, 0))).isEqualTo(UTC_KEY);
            assertValues(type, vector, SqlTimestampWithTimeZone.newInstance(0, -1_000L, 0, UTC_KEY), null, SqlTimestampWithTimeZone.newInstance(0, 1_700_000_000_000L, 0, UTC_KEY));
        }
        try (TimeStampMilliTZVector vector = new TimeStampMilliTZVector("ts", allocator, "America/New_York")) {
            setLongs(vector, vector::setSafe, -1L, null, 1_700_000_000_123L);
            Type type = createTimestampWithTimeZoneType(3);
            assertValues(type, vector, SqlTimestampWithTimeZone.newInstance(3, -1L, 0, UTC_KEY), null, SqlTimestampWithTimeZone.newInstance(3, 1_700_000_000_123L, 0, UTC_KEY));
            assertThat(type.getObjectValue(ArrowBlocks.toBlock(type, vector), 0).toString()).isEqualTo("1969-12-31 23:59:59.999 UTC");
        }
        try (TimeStampMicroTZVector vector = new TimeStampMicroTZVector("ts", allocator, "UTC")) {
            setLongs(vector, vector::setSafe, -1L, null, 1_700_000_000_123_456L);
            Type type = createTimestampWithTimeZoneType(6);
            Block block = ArrowBlocks.toBlock(type, vector);
            assertThat(type.getObject(block, 0)).isEqualTo(LongTimestampWithTimeZone.fromEpochMillisAndFraction(-1L, 999_000_000, UTC_KEY));
            assertThat(type.getObjectValue(block, 0).toString()).isEqualTo("1969-12-31 23:59:59.999999 UTC");
            assertValues(type, vector,
                    SqlTimestampWithTimeZone.newInstance(6, -1L, 999_000_000, UTC_KEY),
                    null,
                    SqlTimestampWithTimeZone.newInstance(6, 1_700_000_000_123L, 456_000_000, UTC_KEY));
        }
        try (TimeStampNanoTZVector vector = new TimeStampNanoTZVector("ts", allocator, "+05:30")) {
            setLongs(vector, vector::setSafe, -1L, null, 1_700_000_000_123_456_789L);
            Type type = createTimestampWithTimeZoneType(9);
            assertValues(type, vector,
                    SqlTimestampWithTimeZone.newInstance(9, -1L, 999_999_000, UTC_KEY),
                    null,
                    SqlTimestampWithTimeZone.newInstance(9, 1_700_000_000_123L, 456_789_000, UTC_KEY));
            assertThat(type.getObjectValue(ArrowBlocks.toBlock(type, vector), 0).toString()).isEqualTo("1969-12-31 23:59:59.999999999 UTC");
        }
        try (TimeStampSecTZVector vector = new TimeStampSecTZVector("ts", allocator, "UTC")) {
            setLongs(vector, vector::setSafe, Long.MAX_VALUE / 10);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(createTimestampWithTimeZoneType(3), vector))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("out of range");
        }
    }

    @Test
    void testEmptyVectors()
    {
        try (BitVector bits = new BitVector("b", allocator);
                UInt8Vector unsigned = new UInt8Vector("u", allocator);
                DecimalVector decimals = new DecimalVector("d", allocator, 38, 2);
                VarCharVector strings = new VarCharVector("s", allocator);
                LargeVarBinaryVector binaries = new LargeVarBinaryVector("b", allocator);
                FixedSizeBinaryVector fixed = new FixedSizeBinaryVector("f", allocator, 4);
                TimeStampNanoTZVector timestamps = new TimeStampNanoTZVector("t", allocator, "UTC");
                DateMilliVector dates = new DateMilliVector("d", allocator)) {
            assertEmpty(BOOLEAN, bits);
            assertEmpty(createDecimalType(20, 0), unsigned);
            assertEmpty(createDecimalType(38, 2), decimals);
            assertEmpty(VARCHAR, strings);
            assertEmpty(VARBINARY, binaries);
            assertEmpty(VARBINARY, fixed);
            assertEmpty(createTimestampWithTimeZoneType(9), timestamps);
            assertEmpty(DATE, dates);
            // allocated, then emptied
            strings.allocateNew();
            strings.setValueCount(0);
            assertEmpty(VARCHAR, strings);
        }
    }

    @Test
    void testAllNullAndNullVector()
    {
        try (IntVector vector = new IntVector("i", allocator);
                NullVector nulls = new NullVector("n", 3);
                NullVector noNulls = new NullVector("n", 0)) {
            setInts(vector, vector::setSafe, null, null);
            assertValues(INTEGER, vector, null, null);
            assertValues(VARCHAR, nulls, null, null, null);
            assertValues(VARCHAR, noNulls);
        }
    }

    @Test
    void testUnsupported()
    {
        try (DurationVector vector = new DurationVector("d", FieldType.nullable(new ArrowType.Duration(TimeUnit.SECOND)), allocator);
                IntVector ints = new IntVector("i", allocator)) {
            vector.setValueCount(0);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(BIGINT, vector)).isInstanceOf(TrinoException.class);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(VARCHAR, ints)).isInstanceOf(TrinoException.class);
            assertThatThrownBy(() -> ArrowBlocks.toBlock(DOUBLE, ints)).isInstanceOf(TrinoException.class);
        }
    }

    static void assertValues(Type type, FieldVector vector, Object... expected)
    {
        Block block = ArrowBlocks.toBlock(type, vector);
        assertThat(block.getPositionCount()).isEqualTo(vector.getValueCount());
        assertThat(values(type, block)).containsExactly(expected);
        for (int i = 0; i < expected.length; i++) {
            assertThat(block.isNull(i)).as("null at %s", i).isEqualTo(expected[i] == null);
        }
        assertThat(block.mayHaveNull()).isEqualTo(Arrays.stream(expected).anyMatch(value -> value == null));
    }

    static List<Object> values(Type type, Block block)
    {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < block.getPositionCount(); i++) {
            values.add(type.getObjectValue(block, i));
        }
        return values;
    }

    private static void assertEmpty(Type type, FieldVector vector)
    {
        vector.setValueCount(0);
        Block block = ArrowBlocks.toBlock(type, vector);
        assertThat(block.getPositionCount()).isZero();
        assertThat(block.mayHaveNull()).isFalse();
    }

    static SqlDecimal decimal(String value, DecimalType type)
    {
        return SqlDecimal.decimal(value, type);
    }

    // TinyInt, SmallInt, Int, DateDay and Time{Sec,Milli} vectors all take int values
    static void setInts(BaseFixedWidthVector vector, IntSetter setter, Integer... values)
    {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                vector.setNull(i);
            }
            else {
                setter.set(i, values[i]);
            }
        }
        vector.setValueCount(values.length);
    }

    // BigInt, DateMilli, Time{Micro,Nano} and all TimeStamp vectors take long values
    static void setLongs(BaseFixedWidthVector vector, LongSetter setter, Long... values)
    {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                vector.setNull(i);
            }
            else {
                setter.set(i, values[i]);
            }
        }
        vector.setValueCount(values.length);
    }

    interface IntSetter
    {
        void set(int index, int value);
    }

    interface LongSetter
    {
        void set(int index, long value);
    }

    private interface StringSetter
    {
        void set(int index, byte[] value);
    }

    private interface NullSetter
    {
        void setNull(int index);
    }

    private static void setStrings(StringSetter setter, NullSetter nullSetter, String... values)
    {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                nullSetter.setNull(i);
            }
            else {
                setter.set(i, values[i].getBytes(UTF_8));
            }
        }
    }
}
