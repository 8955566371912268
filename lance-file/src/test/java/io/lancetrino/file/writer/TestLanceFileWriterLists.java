package io.lancetrino.file.writer;

import io.airlift.slice.Slices;
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
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
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

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.lancetrino.file.writer.RowAssertions.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arrays (Lance lists) written by the Java writer and read back by the Lance SDK 7.0 and by the Java reader, value by
 * value: NULL arrays, empty arrays, NULL elements, arrays long enough to span chunks, files whose arrays hold no element
 * at all, every element encoding (plain, dictionaries, bit-packing, zstd).
 */
final class TestLanceFileWriterLists
{
    private static final DecimalType PRICE = DecimalType.createDecimalType(12, 2);
    private static final List<Type> ELEMENTS = List.of(VARCHAR, BIGINT, DOUBLE, BOOLEAN, PRICE);
    private static final List<ArrowType> ARROW_ELEMENTS = List.of(ArrowType.Utf8.INSTANCE, new ArrowType.Int(64, true),
            new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), ArrowType.Bool.INSTANCE, new ArrowType.Decimal(12, 2, 128));

    private static final int BATCHES = Integer.getInteger("lance.writer.batches", 12);

    @Test
    void testSdkAndJavaReaderReadTheArraysTheJavaWriterWrote()
            throws Exception
    {
        long seed = Long.getLong("lance.writer.seed", 20261205L);
        for (int minor : List.of(1, 2)) {
            Set<String> encodings = new TreeSet<>();
            for (long pageBytes : List.of(8L << 20, 16L << 10)) {
                for (EncodingOptions options : List.of(EncodingOptions.UNCOMPRESSED, EncodingOptions.DEFAULT)) {
                    encodings.addAll(checkRoundTrip(seed, minor, pageBytes, options, false));
                }
            }
            assertThat(encodings).as("format 2.%s", minor).contains("c0 dictionary", "c0 GENERAL", "c1 INLINE_BITPACKING", "c2 FLAT", "c3 FLAT", "c4 FLAT");
            // many chunks in one page: rows that span chunks
            assertThat(encodings).as("format 2.%s", minor).contains("chunks > 4");
            if (minor == 1) {
                // pages with a string of 256 bytes or more: full-zip, a record per level
                // FSST-coded where no general compression is asked for
                assertThat(encodings).contains("c0 FULL_ZIP", "c0 FULL_ZIP FSST");
            }
        }
    }

    @Test
    void testFilesOfOnlyEmptyAndNullArrays()
            throws Exception
    {
        checkRoundTrip(7, 1, 8L << 20, EncodingOptions.DEFAULT, true);
        checkRoundTrip(7, 2, 8L << 20, EncodingOptions.DEFAULT, true);
    }

    @Test
    void testMostlyEmptyArrays()
            throws Exception
    {
        checkMostlyEmptyArrays(1);
        checkMostlyEmptyArrays(2);
    }

    private static void checkMostlyEmptyArrays(int minor)
            throws Exception
    {
        // tens of thousands of empty and NULL arrays between two elements: more levels than one chunk can count, so
        // pages must end before a chunk gets them all
        Path directory = Files.createTempDirectory("java-writer-lists");
        Path path = directory.resolve("data.lance");
        int rows = 300_000;
        List<Object> expected = new ArrayList<>();
        ArrayBlockBuilder builder = (ArrayBlockBuilder) new ArrayType(BIGINT).createBlockBuilder(null, rows);
        for (int row = 0; row < rows; row++) {
            if (row % 50_000 == 7) {
                long value = row;
                builder.buildEntry(elements -> BIGINT.writeLong(elements, value));
                expected.add(List.of(value));
            }
            else if (row % 3 == 0) {
                builder.appendNull();
                expected.add(null);
            }
            else {
                builder.buildEntry(_ -> {});
                expected.add(List.of());
            }
        }
        try (OutputStream output = Files.newOutputStream(path)) {
            LanceFileWriter writer = LanceFileWriter.create(output, 2, minor, List.of(FileColumn.of(new ArrayType(BIGINT))), EncodingOptions.DEFAULT, rowsWritten -> {
                Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(List.of(
                        new Field("c1", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", new ArrowType.Int(64, true))))), 0)).build();
                return FileDescriptor.newBuilder().setSchema(schema).setLength(rowsWritten).build().toByteArray();
            });
            writer.write(new Page(builder.build()));
            writer.finish();
        }
        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            assertSameRows(sdkValues(reader, "c1", null), expected, "mostly empty arrays read by the SDK");
        }
        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.columns().getFirst().pages().size()).isGreaterThan(rows / ListColumnWriter.maxEmptyLevelsPerPage(minor == 2) / 2);
        try (TrinoInput input = file.newInput()) {
            assertSameRows(trinoValues(NestedColumnReader.read(input, metadata.columns(), new ArrayType(BIGINT), 0, rows), BIGINT), expected, "mostly empty arrays read by the Java reader");
        }
    }

    private static Set<String> checkRoundTrip(long seed, int minor, long pageBytes, EncodingOptions options, boolean noElements)
            throws Exception
    {
        Random random = new Random(seed);
        Path directory = Files.createTempDirectory("java-writer-lists");
        Path path = directory.resolve("data.lance");
        List<List<Object>> expected = ELEMENTS.stream().map(_ -> (List<Object>) new ArrayList<>()).toList();
        try (OutputStream output = Files.newOutputStream(path)) {
            List<FileColumn> columns = ELEMENTS.stream().map(element -> FileColumn.of(new ArrayType(element))).toList();
            LanceFileWriter writer = new LanceFileWriter(output, 2, minor, columns, options, TestLanceFileWriterLists::descriptor, pageBytes);
            for (int batch = 0; batch < BATCHES; batch++) {
                writer.write(randomPage(random, 1 + random.nextInt(2000), batch, noElements, expected));
            }
            writer.finish();
        }
        String where = "format 2.%s, seed %s, pages of %s bytes, %s%s".formatted(minor, seed, pageBytes, options, noElements ? ", no elements" : "");
        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            int rows = expected.getFirst().size();
            for (int column = 0; column < ELEMENTS.size(); column++) {
                assertSameRows(sdkValues(reader, "c" + column, null), expected.get(column), "%s, column c%s read by the SDK".formatted(where, column));
                // ranges the SDK finds through the repetition index: rows that start inside a chunk, single rows
                for (int[] range : List.of(new int[] {rows / 3, Math.min(500, rows - rows / 3)}, new int[] {rows - 1, 1}, new int[] {rows / 2, 1})) {
                    assertSameRows(sdkValues(reader, "c" + column, List.of(Range.of(range[0], range[0] + range[1]))), expected.get(column).subList(range[0], range[0] + range[1]),
                            "%s, column c%s rows [%s, +%s) read by the SDK".formatted(where, column, range[0], range[1]));
                }
            }
        }
        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        Set<String> encodings = new TreeSet<>();
        try (TrinoInput input = file.newInput()) {
            int rows = expected.getFirst().size();
            for (int column = 0; column < ELEMENTS.size(); column++) {
                Block block = NestedColumnReader.read(input, List.of(metadata.columns().get(column)), new ArrayType(ELEMENTS.get(column)), 0, rows);
                assertSameRows(trinoValues(block, ELEMENTS.get(column)), expected.get(column), "%s, column c%s read by the Java reader".formatted(where, column));
                // a range in the middle, which starts and ends inside pages and chunks
                int from = rows / 3;
                int count = Math.min(500, rows - from);
                Block middle = NestedColumnReader.read(input, List.of(metadata.columns().get(column)), new ArrayType(ELEMENTS.get(column)), from, count);
                assertSameRows(trinoValues(middle, ELEMENTS.get(column)), expected.get(column).subList(from, from + count), "%s, column c%s rows [%s, +%s) read by the Java reader".formatted(where, column, from, count));
                for (LancePage page : metadata.columns().get(column).pages()) {
                    if (page.layout().hasFullZipLayout()) {
                        encodings.add("c%s FULL_ZIP%s".formatted(column, page.layout().getFullZipLayout().getValueCompression().hasFsst() ? " FSST" : ""));
                        continue;
                    }
                    var layout = page.layout().getMiniBlockLayout();
                    encodings.add("c%s %s".formatted(column, layout.hasDictionary() ? "dictionary" : layout.getValueCompression().getCompressionCase()));
                    if (page.bufferSizes().getFirst() / 4 > 4) {
                        encodings.add("chunks > 4");
                    }
                }
            }
        }
        return encodings;
    }

    private static byte[] descriptor(long rows)
    {
        List<Field> fields = new ArrayList<>();
        for (int column = 0; column < ELEMENTS.size(); column++) {
            fields.add(new Field("c" + column, FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", ARROW_ELEMENTS.get(column)))));
        }
        Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(fields, 0)).build();
        return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
    }

    private static Page randomPage(Random random, int rows, int batch, boolean noElements, List<List<Object>> expected)
    {
        double nullArrays = batch % 4 == 0 ? 0 : batch == 5 ? 1 : random.nextDouble() * 0.3;
        double nullElements = batch % 3 == 0 ? 0 : random.nextDouble() * 0.2;
        Block[] blocks = new Block[ELEMENTS.size()];
        for (int column = 0; column < ELEMENTS.size(); column++) {
            Type element = ELEMENTS.get(column);
            ArrayBlockBuilder builder = (ArrayBlockBuilder) new ArrayType(element).createBlockBuilder(null, rows);
            for (int row = 0; row < rows; row++) {
                if (random.nextDouble() < nullArrays || (noElements && random.nextBoolean())) {
                    builder.appendNull();
                    expected.get(column).add(null);
                    continue;
                }
                // mostly short arrays, some empty, now and then one long enough to span chunks
                int length = noElements ? 0 : random.nextInt(200) == 0 ? 1500 + random.nextInt(3000) : random.nextInt(6);
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < length; i++) {
                    values.add(random.nextDouble() < nullElements ? null : randomElement(random, element, batch));
                }
                builder.buildEntry(elements -> {
                    for (Object value : values) {
                        switch (value) {
                            case null -> elements.appendNull();
                            case String text -> VARCHAR.writeSlice(elements, Slices.utf8Slice(text));
                            case Long number -> BIGINT.writeLong(elements, number);
                            case Double number -> DOUBLE.writeDouble(elements, number);
                            case Boolean flag -> BOOLEAN.writeBoolean(elements, flag);
                            case BigDecimal number -> PRICE.writeLong(elements, number.unscaledValue().longValueExact());
                            default -> throw new IllegalStateException(value.toString());
                        }
                    }
                });
                expected.get(column).add(values);
            }
            blocks[column] = builder.build();
        }
        return new Page(rows, blocks);
    }

    private static Object randomElement(Random random, Type element, int batch)
    {
        if (element == VARCHAR) {
            // few distinct tags in some batches (dictionaries), many in others, now and then a long text in every fourth
            String tag = "tag-" + random.nextInt(batch % 2 == 0 ? 20 : 1_000_000);
            return batch % 4 == 3 && random.nextInt(100) == 0 ? tag.repeat(30 + random.nextInt(200)) : tag;
        }
        if (element == BIGINT) {
            return (long) random.nextInt(1000);
        }
        if (element == DOUBLE) {
            return random.nextGaussian();
        }
        if (element == BOOLEAN) {
            return random.nextBoolean();
        }
        return BigDecimal.valueOf(random.nextInt(1_000_000), 2);
    }

    private static List<Object> sdkValues(LanceFileReader reader, String column, List<Range> ranges)
            throws Exception
    {
        List<Object> values = new ArrayList<>();
        try (ArrowReader arrow = reader.readAll(List.of(column), ranges, 4096)) {
            while (arrow.loadNextBatch()) {
                ListVector lists = (ListVector) arrow.getVectorSchemaRoot().getVector(column);
                FieldVector items = lists.getDataVector();
                for (int row = 0; row < lists.getValueCount(); row++) {
                    if (lists.isNull(row)) {
                        values.add(null);
                        continue;
                    }
                    List<Object> elements = new ArrayList<>();
                    for (int i = lists.getElementStartIndex(row); i < lists.getElementEndIndex(row); i++) {
                        elements.add(items.isNull(i) ? null : switch (items) {
                            case VarCharVector text -> (Object) new String(text.get(i), StandardCharsets.UTF_8);
                            case BigIntVector longs -> (Object) longs.get(i);
                            case Float8Vector doubles -> (Object) doubles.get(i);
                            case BitVector bits -> (Object) (bits.get(i) == 1);
                            case DecimalVector decimals -> (Object) decimals.getObject(i);
                            default -> throw new IllegalStateException("Unexpected vector " + items);
                        });
                    }
                    values.add(elements);
                }
            }
        }
        return values;
    }

    private static List<Object> trinoValues(Block block, Type element)
    {
        ArrayType type = new ArrayType(element);
        List<Object> values = new ArrayList<>();
        for (int row = 0; row < block.getPositionCount(); row++) {
            if (block.isNull(row)) {
                values.add(null);
                continue;
            }
            Block elements = type.getObject(block, row);
            List<Object> list = new ArrayList<>();
            for (int i = 0; i < elements.getPositionCount(); i++) {
                Object value;
                if (elements.isNull(i)) {
                    value = null;
                }
                else if (element == VARCHAR) {
                    value = VARCHAR.getSlice(elements, i).toStringUtf8();
                }
                else if (element == DOUBLE) {
                    value = DOUBLE.getDouble(elements, i);
                }
                else if (element == BOOLEAN) {
                    value = BOOLEAN.getBoolean(elements, i);
                }
                else if (element == PRICE) {
                    value = BigDecimal.valueOf(PRICE.getLong(elements, i), 2);
                }
                else {
                    value = element.getLong(elements, i);
                }
                list.add(value);
            }
            values.add(list);
        }
        return values;
    }
}
