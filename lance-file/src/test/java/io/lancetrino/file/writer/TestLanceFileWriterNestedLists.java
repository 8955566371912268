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
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static io.lancetrino.file.writer.NestedValues.sdkValues;
import static io.lancetrino.file.writer.NestedValues.trinoValues;
import static io.lancetrino.file.writer.RowAssertions.assertSameRows;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Arrays and rows nested in each other (arrays of arrays, arrays of rows, rows holding arrays, deeper mixes), written
 * by the Java writer and read back by the Lance SDK 7.0 and by the Java reader, value by value: NULL and empty arrays
 * at every level, NULL rows inside and around arrays, NULL leaves, arrays long enough to span chunks, whole files and
 * row ranges the readers find through the repetition index.
 */
final class TestLanceFileWriterNestedLists
{
    private static final DecimalType PRICE = DecimalType.createDecimalType(12, 2);
    private static final List<Type> TYPES = List.of(
            new ArrayType(new ArrayType(BIGINT)),
            new ArrayType(RowType.from(List.of(RowType.field("a", BIGINT), RowType.field("s", VARCHAR)))),
            RowType.from(List.of(RowType.field("x", BIGINT), RowType.field("l", new ArrayType(DOUBLE)))),
            new ArrayType(RowType.from(List.of(RowType.field("n", new ArrayType(VARCHAR)), RowType.field("d", PRICE)))),
            RowType.from(List.of(
                    RowType.field("r", RowType.from(List.of(RowType.field("l", new ArrayType(new ArrayType(INTEGER)))))),
                    RowType.field("b", BOOLEAN))),
            new ArrayType(new ArrayType(VARCHAR)),
            new ArrayType(new ArrayType(RowType.from(List.of(RowType.field("t", VARCHAR), RowType.field("k", BIGINT))))));
    private static final int BATCHES = Integer.getInteger("lance.writer.batches", 12);

    @Test
    void testSdkAndJavaReaderReadNestedArraysTheJavaWriterWrote()
            throws Exception
    {
        long seed = Long.getLong("lance.writer.seed", 20261205L);
        for (int minor : List.of(1, 2)) {
            Set<String> layouts = new TreeSet<>();
            for (long pageBytes : List.of(8L << 20, 16L << 10)) {
                for (EncodingOptions options : List.of(EncodingOptions.UNCOMPRESSED, EncodingOptions.DEFAULT)) {
                    layouts.addAll(checkRoundTrip(seed + pageBytes, minor, pageBytes, options));
                }
            }
            assertLayouts(minor, layouts);
        }
    }

    private static void assertLayouts(int minor, Set<String> layouts)
    {
        // the layers of every shape, innermost first
        assertThat(layouts).as("format 2.%s", minor).contains(
                "c0 [REPDEF_NULLABLE_ITEM, REPDEF_NULL_AND_EMPTY_LIST, REPDEF_NULL_AND_EMPTY_LIST]",
                "c1 [REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM, REPDEF_NULL_AND_EMPTY_LIST]",
                "c2 [REPDEF_NULLABLE_ITEM, REPDEF_NULL_AND_EMPTY_LIST, REPDEF_NULLABLE_ITEM]",
                "c3 [REPDEF_NULLABLE_ITEM, REPDEF_NULL_AND_EMPTY_LIST, REPDEF_NULLABLE_ITEM, REPDEF_NULL_AND_EMPTY_LIST]",
                "c4 [REPDEF_NULLABLE_ITEM, REPDEF_NULL_AND_EMPTY_LIST, REPDEF_NULL_AND_EMPTY_LIST, REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_ITEM]",
                "chunks > 4");
        if (minor == 1) {
            // long strings under arrays: full-zip pages with a record per level, but mini-block chunks where rows lie
            // between arrays (the SDK 7.0 miscounts the items of such full-zip pages, its own included)
            assertThat(layouts).contains("c1 full-zip", "c5 full-zip", "c6 full-zip").doesNotContain("c3 full-zip");
        }
    }

    @Test
    void testRowsOfManyEmptyInnerArrays()
            throws Exception
    {
        checkManyEmptyInnerArrays(1);
        checkManyEmptyInnerArrays(2);
    }

    private static void checkManyEmptyInnerArrays(int minor)
            throws Exception
    {
        // every row holds empty inner arrays and nearly none an element: each row adds levels without an item, so pages
        // must end between rows, in the middle of a block, before a chunk gets more levels than it can count
        ArrayType type = new ArrayType(new ArrayType(BIGINT));
        int rows = 60_000;
        List<Object> expected = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            List<Object> inner = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                inner.add(row % 20_000 == 7 && i == 1 ? List.of((long) row) : i == 2 && row % 3 == 0 ? null : List.of());
            }
            expected.add(inner);
        }
        Path path = writeOneColumn(type, expected, minor);
        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            assertSameRows(sdkValues(reader, "c0", null), expected, "empty inner arrays read by the SDK");
        }
        TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.columns().getFirst().pages().size()).isGreaterThanOrEqualTo(3 * rows / ListColumnWriter.maxEmptyLevelsPerPage(minor == 2));
        try (TrinoInput input = file.newInput()) {
            assertSameRows(trinoValues(NestedColumnReader.read(input, metadata.columns(), type, 0, rows), type), expected, "empty inner arrays read by the Java reader");
        }

        // one row alone with more empty arrays between two elements than a chunk can count: refused, naming why
        int crowding = minor == 2 ? 40_000 : 9_000;
        List<Object> crowded = new ArrayList<>(java.util.Collections.nCopies(crowding, List.of()));
        crowded.addFirst(List.of(1L));
        crowded.addLast(List.of(2L));
        assertThatThrownBy(() -> writeOneColumn(type, List.of(crowded), minor))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A chunk of 2 array elements holds %s levels, more than a chunk of format 2.%s can hold; a row has too many empty or NULL arrays between two elements%s"
                        .formatted(crowding + 2, minor, minor == 2 ? "" : ", or an element is too long"));
    }

    /** A file of one column {@code c0} of the type holding the values, in one page of blocks. */
    private static Path writeOneColumn(Type type, List<Object> values, int minor)
            throws Exception
    {
        Path path = Files.createTempDirectory("java-writer-nested-lists").resolve("data.lance");
        BlockBuilder builder = type.createBlockBuilder(null, values.size());
        values.forEach(value -> write(builder, type, value));
        try (OutputStream output = Files.newOutputStream(path)) {
            LanceFileWriter writer = LanceFileWriter.create(output, 2, minor, List.of(FileColumn.of(type)), EncodingOptions.DEFAULT, rows -> {
                Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(List.of(arrowField("c0", type)), 0)).build();
                return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
            });
            writer.write(new Page(builder.build()));
            writer.finish();
        }
        return path;
    }

    private static Set<String> checkRoundTrip(long seed, int minor, long pageBytes, EncodingOptions options)
            throws Exception
    {
        Random random = new Random(seed);
        Path directory = Files.createTempDirectory("java-writer-nested-lists");
        Path path = directory.resolve("data.lance");
        List<List<Object>> expected = TYPES.stream().map(_ -> (List<Object>) new ArrayList<>()).toList();
        try (OutputStream output = Files.newOutputStream(path)) {
            LanceFileWriter writer = new LanceFileWriter(output, 2, minor, TYPES.stream().map(FileColumn::of).toList(), options, TestLanceFileWriterNestedLists::descriptor, pageBytes);
            for (int batch = 0; batch < BATCHES; batch++) {
                writer.write(randomPage(random, 1 + random.nextInt(1500), batch, expected));
            }
            writer.finish();
        }
        String where = "format 2.%s, seed %s, pages of %s bytes, %s".formatted(minor, seed, pageBytes, options);
        int rows = expected.getFirst().size();
        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            for (int field = 0; field < TYPES.size(); field++) {
                assertSameRows(sdkValues(reader, "c" + field, null), expected.get(field), "%s, c%s read by the SDK".formatted(where, field));
                for (int[] range : List.of(new int[] {rows / 3, Math.min(500, rows - rows / 3)}, new int[] {rows - 1, 1}, new int[] {rows / 2, 1})) {
                    assertSameRows(sdkValues(reader, "c" + field, List.of(Range.of(range[0], range[0] + range[1]))), expected.get(field).subList(range[0], range[0] + range[1]),
                            "%s, c%s rows [%s, +%s) read by the SDK".formatted(where, field, range[0], range[1]));
                }
            }
        }

        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        Set<String> layouts = new TreeSet<>();
        try (TrinoInput input = file.newInput()) {
            int first = 0;
            for (int field = 0; field < TYPES.size(); field++) {
                Type type = TYPES.get(field);
                int leafCount = NestedColumnReader.leafTypes(type).size();
                List<LanceColumn> leaves = metadata.columns().subList(first, first + leafCount);
                assertSameRows(trinoValues(NestedColumnReader.read(input, leaves, type, 0, rows), type), expected.get(field), "%s, c%s read by the Java reader".formatted(where, field));
                int from = rows / 3;
                int count = Math.min(500, rows - from);
                assertSameRows(trinoValues(NestedColumnReader.read(input, leaves, type, from, count), type), expected.get(field).subList(from, from + count),
                        "%s, c%s rows [%s, +%s) read by the Java reader".formatted(where, field, from, count));
                for (LancePage page : leaves.stream().flatMap(leaf -> leaf.pages().stream()).toList()) {
                    if (page.layout().hasFullZipLayout()) {
                        layouts.add("c%s full-zip".formatted(field));
                    }
                    if (page.layout().hasMiniBlockLayout()) {
                        layouts.add("c%s %s".formatted(field, page.layout().getMiniBlockLayout().getLayersList()));
                        if (page.bufferSizes().getFirst() / 4 > 4) {
                            layouts.add("chunks > 4");
                        }
                    }
                }
                first += leafCount;
            }
            assertThat(first).isEqualTo(metadata.columns().size());
        }
        return layouts;
    }

    private static byte[] descriptor(long rows)
    {
        List<Field> fields = new ArrayList<>();
        for (int field = 0; field < TYPES.size(); field++) {
            fields.add(arrowField("c" + field, TYPES.get(field)));
        }
        Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(fields, 0)).build();
        return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
    }

    private static Field arrowField(String name, Type type)
    {
        return switch (type) {
            case ArrayType array -> new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(arrowField("item", array.getElementType())));
            case RowType row -> new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE),
                    row.getFields().stream().map(field -> arrowField(field.getName().orElseThrow(), field.getType())).toList());
            default -> Field.nullable(name, type == BIGINT ? new ArrowType.Int(64, true)
                    : type == INTEGER ? new ArrowType.Int(32, true)
                    : type == DOUBLE ? new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)
                    : type == BOOLEAN ? ArrowType.Bool.INSTANCE
                    : type == VARCHAR ? ArrowType.Utf8.INSTANCE
                    : new ArrowType.Decimal(PRICE.getPrecision(), PRICE.getScale(), 128));
        };
    }

    /** Random rows; batches differ in how often values are NULL (never, sometimes, always) and how long arrays are. */
    private static Page randomPage(Random random, int rows, int batch, List<List<Object>> expected)
    {
        double nulls = batch % 4 == 0 ? 0 : batch == 5 ? 1 : random.nextDouble() * 0.3;
        Block[] blocks = new Block[TYPES.size()];
        for (int field = 0; field < TYPES.size(); field++) {
            BlockBuilder builder = TYPES.get(field).createBlockBuilder(null, rows);
            for (int row = 0; row < rows; row++) {
                Object value = randomValue(random, TYPES.get(field), nulls, true, batch);
                write(builder, TYPES.get(field), value);
                expected.get(field).add(value);
            }
            blocks[field] = builder.build();
        }
        return new Page(rows, blocks);
    }

    private static Object randomValue(Random random, Type type, double nulls, boolean top, int batch)
    {
        if (random.nextDouble() < nulls) {
            return null;
        }
        return switch (type) {
            case ArrayType array -> {
                // mostly short arrays, some empty, now and then (at the top) one long enough to span chunks
                int length = top && random.nextInt(150) == 0 ? 1000 + random.nextInt(3000) : random.nextInt(5);
                List<Object> elements = new ArrayList<>();
                for (int i = 0; i < length; i++) {
                    elements.add(randomValue(random, array.getElementType(), nulls, false, batch));
                }
                yield elements;
            }
            case RowType row -> {
                List<Object> fields = new ArrayList<>();
                for (RowType.Field field : row.getFields()) {
                    fields.add(randomValue(random, field.getType(), nulls, top && field.getType() instanceof RowType, batch));
                }
                yield fields;
            }
            default -> type == BIGINT ? (Object) (long) random.nextInt(batch % 2 == 0 ? 100 : 1_000_000)
                    : type == INTEGER ? (Object) (long) random.nextInt(1000)
                    : type == DOUBLE ? (Object) random.nextGaussian()
                    : type == BOOLEAN ? (Object) random.nextBoolean()
                    : type == VARCHAR ? (Object) randomText(random, batch)
                    : BigDecimal.valueOf(random.nextInt(1_000_000), 2);
        };
    }

    /** Few distinct tags in even batches (dictionaries), many in odd ones, and in every fourth now and then a text of 256 bytes or more (full-zip in format 2.1). */
    private static String randomText(Random random, int batch)
    {
        String tag = "tag-" + random.nextInt(batch % 2 == 0 ? 20 : 1_000_000);
        return batch % 4 == 3 && random.nextInt(50) == 0 ? tag.repeat(30 + random.nextInt(100)) : tag;
    }

    private static void write(BlockBuilder builder, Type type, Object value)
    {
        if (value == null) {
            builder.appendNull();
            return;
        }
        switch (type) {
            case ArrayType array -> ((ArrayBlockBuilder) builder).buildEntry(elements -> {
                for (Object element : (List<?>) value) {
                    write(elements, array.getElementType(), element);
                }
            });
            case RowType row -> ((RowBlockBuilder) builder).buildEntry(fields -> {
                for (int field = 0; field < row.getFields().size(); field++) {
                    write(fields.get(field), row.getFields().get(field).getType(), ((List<?>) value).get(field));
                }
            });
            default -> {
                switch (value) {
                    case String text -> VARCHAR.writeSlice(builder, Slices.utf8Slice(text));
                    case Long number -> type.writeLong(builder, number);
                    case Double number -> DOUBLE.writeDouble(builder, number);
                    case Boolean flag -> BOOLEAN.writeBoolean(builder, flag);
                    case BigDecimal number -> PRICE.writeLong(builder, number.unscaledValue().longValueExact());
                    default -> throw new IllegalStateException(value.toString());
                }
            }
        }
    }
}
