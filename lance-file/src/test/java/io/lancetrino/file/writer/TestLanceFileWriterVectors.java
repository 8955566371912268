package io.lancetrino.file.writer;

import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.proto.Schema;
import io.lancetrino.metadata.schema.LanceFields;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileReader;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.lancetrino.file.writer.RowAssertions.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Vectors (fixed-size lists) written by the Java writer, read back by the Lance SDK 7.0 and by the Java reader, value by
 * value: every element type a vector column takes, narrow vectors (mini-block chunks) and wide ones (full-zip records,
 * from 256 bytes), with and without null rows and null elements, in formats 2.1 and 2.2.
 */
final class TestLanceFileWriterVectors
{
    private record Vectors(String name, Type element, ArrowType arrowElement, int dimension) {}

    private static final List<Vectors> COLUMNS = List.of(
            new Vectors("emb8", REAL, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), 8),
            new Vectors("xyz", DOUBLE, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), 3),
            new Vectors("one", SMALLINT, new ArrowType.Int(16, true), 1),
            // 248 bytes: the widest that stays in mini-block chunks
            new Vectors("ids31", BIGINT, new ArrowType.Int(64, true), 31),
            // 256 bytes: the narrowest in full-zip pages
            new Vectors("ints64", INTEGER, new ArrowType.Int(32, true), 64),
            new Vectors("emb128", REAL, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), 128),
            new Vectors("codes300", TINYINT, new ArrowType.Int(8, true), 300));

    private static final int BATCHES = Integer.getInteger("lance.writer.batches", 12);

    @Test
    void testSdkAndJavaReaderReadTheVectorsTheJavaWriterWrote()
            throws Exception
    {
        long seed = Long.getLong("lance.writer.seed", 20261205L);
        Set<String> layouts = new TreeSet<>();
        for (String version : List.of("2.1", "2.2")) {
            for (long pageBytes : List.of(8L << 20, 16L << 10)) {
                layouts.addAll(checkRoundTrip(seed, version, pageBytes));
            }
        }
        assertThat(layouts).contains(
                "2.1 emb8 MINI_BLOCK_LAYOUT", "2.2 emb8 MINI_BLOCK_LAYOUT def validity", "2.2 ids31 MINI_BLOCK_LAYOUT def validity",
                "2.1 emb128 FULL_ZIP_LAYOUT", "2.2 ints64 FULL_ZIP_LAYOUT def validity", "2.2 codes300 FULL_ZIP_LAYOUT def validity",
                "2.2 emb128 FULL_ZIP_LAYOUT def", "2.2 emb128 FULL_ZIP_LAYOUT validity");
    }

    @Test
    void testVectorOfAnotherLengthFails()
            throws Exception
    {
        Path path = Files.createTempDirectory("java-writer-vectors").resolve("data.lance");
        try (OutputStream output = Files.newOutputStream(path)) {
            LanceFileWriter writer = LanceFileWriter.create(output, 2, 2, List.of(FileColumn.vector(new ArrayType(REAL), 4)), EncodingOptions.DEFAULT, _ -> new byte[0]);
            BlockBuilder builder = new ArrayType(REAL).createBlockBuilder(null, 1);
            ((io.trino.spi.block.ArrayBlockBuilder) builder).buildEntry(elements -> REAL.writeLong(elements, Float.floatToIntBits(1.0f)));
            assertThatThrownBy(() -> writer.write(new Page(builder.build())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("A vector of 1 elements in a column of dimension 4");
        }
    }

    private static Set<String> checkRoundTrip(long seed, String version, long pageBytes)
            throws Exception
    {
        Random random = new Random(seed);
        Path directory = Files.createTempDirectory("java-writer-vectors");
        Path path = directory.resolve("data.lance");
        int minor = Integer.parseInt(version.substring(2));
        List<List<List<Object>>> expected = COLUMNS.stream().map(_ -> (List<List<Object>>) new ArrayList<List<Object>>()).toList();
        try (OutputStream output = Files.newOutputStream(path)) {
            List<FileColumn> columns = COLUMNS.stream().map(column -> FileColumn.vector(new ArrayType(column.element()), column.dimension())).toList();
            LanceFileWriter writer = new LanceFileWriter(output, 2, minor, columns, EncodingOptions.DEFAULT, TestLanceFileWriterVectors::descriptor, pageBytes);
            for (int batch = 0; batch < BATCHES; batch++) {
                writer.write(randomPage(random, 1 + random.nextInt(1500), batch, expected));
            }
            writer.finish();
        }
        long rows = expected.getFirst().size();
        String where = "seed %s, version %s, pages of %s bytes".formatted(seed, version, pageBytes);

        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            assertThat(reader.numRows()).as(where).isEqualTo(rows);
            for (int column = 0; column < COLUMNS.size(); column++) {
                assertSameRows(sdkValues(reader, COLUMNS.get(column).name()), expected.get(column), "%s, column %s read by the SDK".formatted(where, COLUMNS.get(column).name()));
            }
        }

        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        Set<String> layouts = new TreeSet<>();
        for (int column = 0; column < COLUMNS.size(); column++) {
            Vectors spec = COLUMNS.get(column);
            Block block = LanceColumnReader.read(file, metadata, column, new ArrayType(spec.element()), 0, (int) rows);
            assertSameRows(trinoValues(block, spec.element()), expected.get(column), "%s, column %s read by the Java reader".formatted(where, spec.name()));
            for (LancePage page : metadata.columns().get(column).pages()) {
                layouts.add(version + " " + spec.name() + " " + describe(page.layout()));
            }
        }
        return layouts;
    }

    private static String describe(PageLayout layout)
    {
        boolean def;
        boolean validity;
        if (layout.hasMiniBlockLayout()) {
            def = layout.getMiniBlockLayout().hasDefCompression();
            validity = layout.getMiniBlockLayout().getValueCompression().getFixedSizeList().getHasValidity();
        }
        else {
            def = layout.getFullZipLayout().getBitsDef() > 0;
            validity = layout.getFullZipLayout().getValueCompression().getFixedSizeList().getHasValidity();
        }
        return layout.getLayoutCase() + (def ? " def" : "") + (validity ? " validity" : "");
    }

    private static byte[] descriptor(long rows)
    {
        List<Field> fields = COLUMNS.stream()
                .map(column -> new Field(column.name(), FieldType.nullable(new ArrowType.FixedSizeList(column.dimension())),
                        List.of(Field.nullable(LanceFields.LIST_ITEM, column.arrowElement()))))
                .toList();
        Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(fields, 0)).build();
        return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
    }

    /** Random vectors; batches differ in how many rows and elements are null (none, some, all rows). */
    private static Page randomPage(Random random, int rows, int batch, List<List<List<Object>>> expected)
    {
        double rowNulls = batch % 4 == 0 ? 0 : batch == 5 ? 1 : random.nextDouble() * 0.3;
        double itemNulls = batch % 3 == 0 ? 0 : random.nextDouble() * 0.1;
        Block[] blocks = new Block[COLUMNS.size()];
        for (int column = 0; column < COLUMNS.size(); column++) {
            Vectors spec = COLUMNS.get(column);
            ArrayType type = new ArrayType(spec.element());
            io.trino.spi.block.ArrayBlockBuilder builder = (io.trino.spi.block.ArrayBlockBuilder) type.createBlockBuilder(null, rows);
            for (int row = 0; row < rows; row++) {
                if (random.nextDouble() < rowNulls) {
                    builder.appendNull();
                    expected.get(column).add(null);
                    continue;
                }
                List<Object> vector = new ArrayList<>();
                for (int i = 0; i < spec.dimension(); i++) {
                    vector.add(random.nextDouble() < itemNulls ? null : randomElement(random, spec.element()));
                }
                builder.buildEntry(elements -> {
                    for (Object value : vector) {
                        switch (value) {
                            case null -> elements.appendNull();
                            case Float number -> REAL.writeLong(elements, Float.floatToIntBits(number));
                            case Double number -> DOUBLE.writeDouble(elements, number);
                            case Long number -> spec.element().writeLong(elements, number);
                            default -> throw new IllegalStateException(value.toString());
                        }
                    }
                });
                expected.get(column).add(vector);
            }
            blocks[column] = builder.build();
        }
        return new Page(rows, blocks);
    }

    private static Object randomElement(Random random, Type element)
    {
        boolean extreme = random.nextInt(50) == 0;
        if (element == REAL) {
            return extreme ? List.of(Float.NaN, Float.NEGATIVE_INFINITY, -0.0f, Float.MAX_VALUE).get(random.nextInt(4)) : (float) random.nextGaussian();
        }
        if (element == DOUBLE) {
            return extreme ? List.of(Double.NaN, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE).get(random.nextInt(4)) : random.nextGaussian() * 1e6;
        }
        long value = random.nextLong();
        if (element == TINYINT) {
            return (long) (byte) value;
        }
        if (element == SMALLINT) {
            return (long) (short) value;
        }
        if (element == INTEGER) {
            return extreme ? (long) Integer.MIN_VALUE : (long) (int) value;
        }
        return extreme ? Long.MIN_VALUE : value;
    }

    private static List<List<Object>> sdkValues(LanceFileReader reader, String column)
            throws Exception
    {
        List<List<Object>> values = new ArrayList<>();
        try (ArrowReader arrow = reader.readAll(List.of(column), null, 4096)) {
            while (arrow.loadNextBatch()) {
                FixedSizeListVector vector = (FixedSizeListVector) arrow.getVectorSchemaRoot().getVector(column);
                FieldVector items = vector.getDataVector();
                for (int row = 0; row < vector.getValueCount(); row++) {
                    if (vector.isNull(row)) {
                        values.add(null);
                        continue;
                    }
                    List<Object> elements = new ArrayList<>();
                    for (int i = row * vector.getListSize(); i < (row + 1) * vector.getListSize(); i++) {
                        // as Objects: a switch of Float, Double and long arms would promote them all to double
                        elements.add(items.isNull(i) ? null : switch (items.getObject(i)) {
                            case Float number -> (Object) number;
                            case Double number -> (Object) number;
                            case Number number -> (Object) number.longValue();
                            default -> throw new IllegalStateException("Unexpected element " + items.getObject(i));
                        });
                    }
                    values.add(elements);
                }
            }
        }
        return values;
    }

    private static List<List<Object>> trinoValues(Block block, Type element)
    {
        ArrayType type = new ArrayType(element);
        List<List<Object>> values = new ArrayList<>();
        for (int row = 0; row < block.getPositionCount(); row++) {
            if (block.isNull(row)) {
                values.add(null);
                continue;
            }
            Block elements = type.getObject(block, row);
            List<Object> vector = new ArrayList<>();
            for (int i = 0; i < elements.getPositionCount(); i++) {
                Object value;
                if (elements.isNull(i)) {
                    value = null;
                }
                else if (element == REAL) {
                    value = REAL.getFloat(elements, i);
                }
                else if (element == DOUBLE) {
                    value = DOUBLE.getDouble(elements, i);
                }
                else {
                    value = element.getLong(elements, i);
                }
                vector.add(value);
            }
            values.add(vector);
        }
        return values;
    }
}
