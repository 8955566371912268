package io.lancetrino.sdk.arrow;

import io.lancetrino.split.arrow.ArrowBlocks;
import io.lancetrino.split.arrow.ArrowTypes;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.airlift.slice.Slices.utf8Slice;
import static io.airlift.slice.Slices.wrappedBuffer;
import static io.lancetrino.sdk.arrow.ArrowTestSupport.newAllocator;
import static io.lancetrino.sdk.arrow.ArrowTestSupport.values;
import static io.lancetrino.sdk.arrow.TestArrowWriters.block;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
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
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.Float.floatToRawIntBits;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Batches from {@link ArrowWriters} written by the Lance SDK's file writer read back unchanged, in both file versions.
 */
final class TestArrowWritersLanceFile
{
    private static final RowType POINT = RowType.rowType(RowType.field("x", DOUBLE), RowType.field("tags", new ArrayType(VARCHAR)));
    private static final RowType REQUIRED_INSIDE = RowType.rowType(RowType.field("id", BIGINT), RowType.field("name", VARCHAR));

    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = newAllocator();
    }

    @AfterEach
    void tearDown()
    {
        allocator.close();
    }

    @Test
    void testVersion20(@TempDir Path dir)
            throws Exception
    {
        // 2.0 files keep no struct validity: a null row reads back as a row of its fields (nulls, or placeholders)
        assertWriteAndRead("2.0", dir, Map.of(
                "c20", Arrays.asList(Arrays.asList(1.0, List.of("a")), Arrays.asList(null, null), Arrays.asList(null, null), Arrays.asList(2.0, Arrays.asList(null, "b"))),
                "c21", Arrays.asList(List.of(Arrays.asList(1.0, List.of())), null, List.of(), Arrays.asList(Arrays.asList(null, null), Arrays.asList(null, List.of("c")))),
                "required_inside", Arrays.asList(Arrays.asList(1L, "a"), Arrays.asList(0L, ""), Arrays.asList(3L, ""), Arrays.asList(0L, ""))));
    }

    @Test
    void testVersion21(@TempDir Path dir)
            throws Exception
    {
        assertWriteAndRead("2.1", dir, Map.of());
    }

    /**
     * @param readBack per column name, values that differ from the written ones because of the file version
     */
    private void assertWriteAndRead(String version, Path dir, Map<String, List<Object>> readBack)
            throws Exception
    {
        List<Type> types = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        add(types, fields, blocks, BOOLEAN, block(BOOLEAN, Arrays.asList(true, null, false, true)));
        add(types, fields, blocks, TINYINT, block(TINYINT, longs(-128, 127, null, 0)));
        add(types, fields, blocks, SMALLINT, block(SMALLINT, longs(-32768, null, 32767, 1)));
        add(types, fields, blocks, INTEGER, DictionaryBlock.create(4, block(INTEGER, longs(Integer.MIN_VALUE, null)), new int[] {0, 1, 1, 0}));
        add(types, fields, blocks, BIGINT, RunLengthEncodedBlock.create(block(BIGINT, longs(Long.MAX_VALUE)), 4));
        add(types, fields, blocks, REAL, block(REAL, Arrays.asList((long) floatToRawIntBits(1.5f), null, (long) floatToRawIntBits(Float.NaN), (long) floatToRawIntBits(-0.0f))));
        add(types, fields, blocks, DOUBLE, block(DOUBLE, Arrays.asList(Math.E, Double.NEGATIVE_INFINITY, null, -0.0)));
        add(types, fields, blocks, createDecimalType(10, 2), block(createDecimalType(10, 2), longs(-12345, null, 9_999_999_999L, 0)));
        add(types, fields, blocks, createDecimalType(38, 10), block(createDecimalType(38, 10), Arrays.asList(
                Int128.valueOf(new BigInteger("-99999999999999999999999999999999999999")), Int128.valueOf(-1), null, Int128.valueOf(new BigInteger("12345678901234567890123")))));
        add(types, fields, blocks, VARCHAR, block(VARCHAR, Arrays.asList(utf8Slice("ünï"), null, utf8Slice(""), utf8Slice("x".repeat(5000)))));
        add(types, fields, blocks, VARBINARY, block(VARBINARY, Arrays.asList(wrappedBuffer((byte) 0), wrappedBuffer(), null, wrappedBuffer((byte) -1, (byte) 2))));
        add(types, fields, blocks, DATE, block(DATE, longs(-719_162, 2_932_896, null, -1)));
        add(types, fields, blocks, createTimeType(3), block(createTimeType(3), longs(0, 86_399_999_000_000_000L, null, 1_000_000_000L)));
        add(types, fields, blocks, createTimeType(9), block(createTimeType(9), longs(1_000L, null, 86_399_999_999_999_000L, 0)));
        add(types, fields, blocks, createTimestampType(3), block(createTimestampType(3), longs(-1_000, null, 1_700_000_000_123_000L, 0)));
        add(types, fields, blocks, createTimestampType(6), block(createTimestampType(6), longs(-1, 1, null, -62_135_596_800_000_000L)));
        add(types, fields, blocks, createTimestampType(9), block(createTimestampType(9), Arrays.asList(new LongTimestamp(-1, 999_000), null, new LongTimestamp(1_700_000_000_000_000L, 1_000), new LongTimestamp(0, 0))));
        add(types, fields, blocks, createTimestampWithTimeZoneType(3), block(createTimestampWithTimeZoneType(3), Arrays.asList(packDateTimeWithZone(-1, UTC_KEY), null, packDateTimeWithZone(1_700_000_000_123L, UTC_KEY), packDateTimeWithZone(0, UTC_KEY))));
        add(types, fields, blocks, createTimestampWithTimeZoneType(6), block(createTimestampWithTimeZoneType(6), Arrays.asList(
                LongTimestampWithTimeZone.fromEpochMillisAndFraction(-1, 999_000_000, UTC_KEY), null, LongTimestampWithTimeZone.fromEpochMillisAndFraction(5, 1_000_000, UTC_KEY), LongTimestampWithTimeZone.fromEpochMillisAndFraction(0, 0, UTC_KEY))));
        add(types, fields, blocks, new ArrayType(BIGINT), block(new ArrayType(BIGINT), Arrays.asList(List.of(), null, Arrays.asList(1L, null), List.of(3L))));
        add(types, fields, blocks, POINT, block(POINT, Arrays.asList(
                Arrays.asList(1.0, List.of(utf8Slice("a"))), null, Arrays.asList(null, null), Arrays.asList(2.0, Arrays.asList(null, utf8Slice("b"))))));
        ArrayType points = new ArrayType(POINT);
        add(types, fields, blocks, points, block(points, Arrays.asList(
                List.of(Arrays.asList(1.0, List.of())), null, List.of(), Arrays.asList(null, Arrays.asList(null, List.of(utf8Slice("c")))))));

        // shapes only tables written by Lance have: a fixed size list, unsigned ints, large strings, non-nullable struct fields
        types.add(new ArrayType(REAL));
        fields.add(new Field("emb", FieldType.nullable(new ArrowType.FixedSizeList(2)), List.of(new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), List.of()))));
        blocks.add(block(new ArrayType(REAL), Arrays.asList(reals(1, 2), null, Arrays.asList(null, (long) floatToRawIntBits(3)), reals(4, 5))));
        types.add(SMALLINT);
        fields.add(new Field("u8", FieldType.nullable(new ArrowType.Int(8, false)), List.of()));
        blocks.add(block(SMALLINT, longs(0, 255, null, 7)));
        types.add(VARCHAR);
        fields.add(new Field("large", FieldType.notNullable(ArrowType.LargeUtf8.INSTANCE), List.of()));
        blocks.add(block(VARCHAR, Arrays.asList(utf8Slice("a"), utf8Slice(""), utf8Slice("c"), utf8Slice("d"))));
        types.add(REQUIRED_INSIDE);
        fields.add(new Field("required_inside", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("comment", "c")), List.of(
                new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), List.of()),
                new Field("name", FieldType.notNullable(ArrowType.Utf8.INSTANCE), List.of()))));
        blocks.add(block(REQUIRED_INSIDE, Arrays.asList(Arrays.asList(1L, utf8Slice("a")), null, Arrays.asList(3L, utf8Slice("")), null)));

        Page page = new Page(blocks.toArray(Block[]::new));
        Schema schema = new Schema(fields);
        String path = dir.resolve("data.lance").toString();
        try (LanceFileWriter writer = LanceFileWriter.open(path, allocator, null, Optional.of(version), Map.of());
                VectorSchemaRoot root = ArrowWriters.toArrow(page, types, schema, allocator)) {
            writer.write(root);
        }

        List<List<Object>> actual = new ArrayList<>();
        types.forEach(_ -> actual.add(new ArrayList<>()));
        try (LanceFileReader reader = LanceFileReader.open(path, allocator);
                ArrowReader batches = reader.readAll(null, null, 3)) {
            assertThat(reader.numRows()).isEqualTo(page.getPositionCount());
            while (batches.loadNextBatch()) {
                VectorSchemaRoot root = batches.getVectorSchemaRoot();
                for (int channel = 0; channel < types.size(); channel++) {
                    actual.get(channel).addAll(values(types.get(channel), ArrowBlocks.toBlock(types.get(channel), root.getVector(channel))));
                }
            }
        }
        List<String> mismatches = new ArrayList<>();
        for (int channel = 0; channel < types.size(); channel++) {
            List<Object> expected = readBack.getOrDefault(fields.get(channel).getName(), values(types.get(channel), blocks.get(channel)));
            if (!actual.get(channel).equals(expected)) {
                mismatches.add(fields.get(channel).getName() + ": " + actual.get(channel) + " != " + expected);
            }
        }
        assertThat(mismatches).isEmpty();
    }

    private static void add(List<Type> types, List<Field> fields, List<Block> blocks, Type type, Block block)
    {
        types.add(type);
        fields.add(ArrowTypes.toArrowField("c" + fields.size(), type, true).orElseThrow());
        blocks.add(block);
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
}
