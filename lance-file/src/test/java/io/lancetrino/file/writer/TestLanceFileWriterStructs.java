package io.lancetrino.file.writer;

import io.airlift.slice.Slices;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.NestedColumnReader;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.proto.Schema;
import io.lancetrino.metadata.schema.LanceFields;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileReader;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.lancetrino.file.writer.NestedValues.listOf;
import static io.lancetrino.file.writer.NestedValues.sdkValues;
import static io.lancetrino.file.writer.NestedValues.trinoValues;
import static io.lancetrino.file.writer.RowAssertions.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Structs (Trino rows), nested or not, written by the Java writer and read back by the Lance SDK 7.0 and by the Java
 * reader, value by value: NULL structs, NULL inner structs and NULL fields, every leaf encoding (plain, dictionaries,
 * zstd), formats 2.1 and 2.2, one page or many.
 */
final class TestLanceFileWriterStructs
{
    private static final DecimalType DECIMAL = DecimalType.createDecimalType(38, 10);
    private static final RowType INNER = RowType.from(List.of(RowType.field("y", VARCHAR), RowType.field("z", DATE)));
    private static final RowType FLAT_STRUCT = RowType.from(List.of(
            RowType.field("a", BIGINT), RowType.field("b", VARCHAR), RowType.field("c", DECIMAL), RowType.field("d", DOUBLE)));
    private static final RowType NESTED_STRUCT = RowType.from(List.of(
            RowType.field("x", INTEGER), RowType.field("inner", INNER), RowType.field("w", BOOLEAN)));
    private static final List<Type> TYPES = List.of(BIGINT, FLAT_STRUCT, NESTED_STRUCT);
    // leaf columns of each field: id, a b c d, x y z w
    private static final List<Integer> LEAVES = List.of(1, 4, 4);

    private static final int BATCHES = Integer.getInteger("lance.writer.batches", 12);

    @Test
    void testSdkAndJavaReaderReadTheStructsTheJavaWriterWrote()
            throws Exception
    {
        long seed = Long.getLong("lance.writer.seed", 20261205L);
        Set<String> layouts = new TreeSet<>();
        for (String version : List.of("2.1", "2.2")) {
            for (long pageBytes : List.of(8L << 20, 16L << 10)) {
                for (EncodingOptions options : List.of(EncodingOptions.UNCOMPRESSED, EncodingOptions.DEFAULT)) {
                    layouts.addAll(checkRoundTrip(seed, version, pageBytes, options));
                }
            }
        }
        // every leaf kind with nested def levels (on every page, so all pages of a column have the same layers): plain,
        // dictionary and compressed, fixed-width, strings, decimals and booleans, one and two structs deep
        assertThat(layouts).contains(
                "b [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] dictionary", "b [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] GENERAL",
                "b [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] plain", "a [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] GENERAL",
                "c [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] plain", "w [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] plain",
                "y [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] dictionary",
                "z [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] plain",
                "z [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM] GENERAL");
    }

    private static Set<String> checkRoundTrip(long seed, String version, long pageBytes, EncodingOptions options)
            throws Exception
    {
        Random random = new Random(seed);
        Path directory = Files.createTempDirectory("java-writer-structs");
        Path path = directory.resolve("data.lance");
        int minor = Integer.parseInt(version.substring(2));
        List<List<Object>> expected = TYPES.stream().map(_ -> (List<Object>) new ArrayList<>()).toList();
        try (OutputStream output = Files.newOutputStream(path)) {
            LanceFileWriter writer = new LanceFileWriter(output, 2, minor, TYPES.stream().map(FileColumn::of).toList(), options, TestLanceFileWriterStructs::descriptor, pageBytes);
            for (int batch = 0; batch < BATCHES; batch++) {
                writer.write(randomPage(random, 1 + random.nextInt(3000), batch, expected));
            }
            writer.finish();
        }
        long rows = expected.getFirst().size();
        String where = "seed %s, version %s, pages of %s bytes, %s".formatted(seed, version, pageBytes, options);

        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            for (int field = 0; field < TYPES.size(); field++) {
                assertSameRows(sdkValues(reader, "f" + field, null), expected.get(field), "%s, field f%s read by the SDK".formatted(where, field));
            }
        }

        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.columns()).hasSize(LEAVES.stream().mapToInt(Integer::intValue).sum());
        Set<String> layouts = new TreeSet<>();
        try (TrinoInput input = file.newInput()) {
            int first = 0;
            for (int field = 0; field < TYPES.size(); field++) {
                List<LanceColumn> leaves = metadata.columns().subList(first, first + LEAVES.get(field));
                Block block = NestedColumnReader.read(input, leaves, TYPES.get(field), 0, (int) rows);
                assertSameRows(trinoValues(block, TYPES.get(field)), expected.get(field), "%s, field f%s read by the Java reader".formatted(where, field));
                first += LEAVES.get(field);
            }
        }
        List<String> leafNames = List.of("id", "a", "b", "c", "d", "x", "y", "z", "w");
        for (int column = 0; column < leafNames.size(); column++) {
            for (LancePage page : metadata.columns().get(column).pages()) {
                var layout = page.layout().getMiniBlockLayout();
                String values = layout.hasDictionary() ? "dictionary" : layout.getValueCompression().hasGeneral() ? "GENERAL" : "plain";
                layouts.add("%s %s %s".formatted(leafNames.get(column), layout.getLayersList(), values));
            }
        }
        return layouts;
    }

    private static byte[] descriptor(long rows)
    {
        Field inner = new Field("inner", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                Field.nullable("y", ArrowType.Utf8.INSTANCE), Field.nullable("z", new ArrowType.Date(DateUnit.DAY))));
        List<Field> fields = List.of(
                Field.nullable("f0", new ArrowType.Int(64, true)),
                new Field("f1", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                        Field.nullable("a", new ArrowType.Int(64, true)),
                        Field.nullable("b", ArrowType.Utf8.INSTANCE),
                        Field.nullable("c", new ArrowType.Decimal(38, 10, 128)),
                        Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))),
                new Field("f2", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                        Field.nullable("x", new ArrowType.Int(32, true)), inner, Field.nullable("w", ArrowType.Bool.INSTANCE))));
        Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(fields, 0)).build();
        return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
    }

    /** Random rows; batches differ in how often structs and fields are NULL (never, sometimes, always). */
    private static Page randomPage(Random random, int rows, int batch, List<List<Object>> expected)
    {
        double nulls = batch % 4 == 0 ? 0 : batch == 5 ? 1 : random.nextDouble() * 0.4;
        // field a stays non-null in some batches, so pages of it may have no def levels at all
        boolean aNulls = batch % 2 == 1;
        Block[] blocks = new Block[TYPES.size()];
        BlockBuilder ids = BIGINT.createBlockBuilder(null, rows);
        RowBlockBuilder flat = FLAT_STRUCT.createBlockBuilder(null, rows);
        RowBlockBuilder nested = NESTED_STRUCT.createBlockBuilder(null, rows);
        for (int row = 0; row < rows; row++) {
            long id = random.nextLong();
            BIGINT.writeLong(ids, id);
            expected.get(0).add(id);

            if (random.nextDouble() < nulls && batch != 0) {
                flat.appendNull();
                expected.get(1).add(null);
            }
            else {
                Long a = aNulls && random.nextDouble() < nulls ? null : (long) random.nextInt(1000);
                String b = random.nextDouble() < nulls ? null : "v" + random.nextInt(batch % 3 == 0 ? 10 : 100_000);
                BigDecimal c = random.nextDouble() < nulls ? null : new BigDecimal(new BigInteger(100, random), 10);
                Double d = random.nextDouble() < nulls ? null : random.nextGaussian();
                flat.buildEntry(fields -> {
                    writeOrNull(fields.get(0), a, () -> BIGINT.writeLong(fields.get(0), a));
                    writeOrNull(fields.get(1), b, () -> VARCHAR.writeSlice(fields.get(1), Slices.utf8Slice(b)));
                    writeOrNull(fields.get(2), c, () -> DECIMAL.writeObject(fields.get(2), Int128.valueOf(c.unscaledValue())));
                    writeOrNull(fields.get(3), d, () -> DOUBLE.writeDouble(fields.get(3), d));
                });
                expected.get(1).add(listOf(a, b, c, d));
            }

            if (random.nextDouble() < nulls) {
                nested.appendNull();
                expected.get(2).add(null);
            }
            else {
                Long x = random.nextDouble() < nulls ? null : (long) random.nextInt();
                boolean innerNull = random.nextDouble() < nulls;
                String y = random.nextDouble() < nulls ? null : "text-" + random.nextInt(50);
                Long z = random.nextDouble() < nulls ? null : (long) (19000 + random.nextInt(30));
                Boolean w = random.nextDouble() < nulls ? null : random.nextBoolean();
                nested.buildEntry(fields -> {
                    writeOrNull(fields.get(0), x, () -> INTEGER.writeLong(fields.get(0), x));
                    if (innerNull) {
                        fields.get(1).appendNull();
                    }
                    else {
                        ((RowBlockBuilder) fields.get(1)).buildEntry(innerFields -> {
                            writeOrNull(innerFields.get(0), y, () -> VARCHAR.writeSlice(innerFields.get(0), Slices.utf8Slice(y)));
                            writeOrNull(innerFields.get(1), z, () -> DATE.writeLong(innerFields.get(1), z));
                        });
                    }
                    writeOrNull(fields.get(2), w, () -> BOOLEAN.writeBoolean(fields.get(2), w));
                });
                expected.get(2).add(listOf(x, innerNull ? null : listOf(y, z), w));
            }
        }
        blocks[0] = ids.build();
        blocks[1] = flat.build();
        blocks[2] = nested.build();
        return new Page(rows, blocks);
    }

    private static void writeOrNull(BlockBuilder builder, Object value, Runnable write)
    {
        if (value == null) {
            builder.appendNull();
        }
        else {
            write.run();
        }
    }
}
