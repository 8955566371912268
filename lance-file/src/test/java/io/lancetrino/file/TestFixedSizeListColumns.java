package io.lancetrino.file;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Vector columns (Arrow fixed-size lists of fixed-width values) written by the Lance SDK, read by the Java reader and
 * compared value by value with what the SDK reads back.
 */
class TestFixedSizeListColumns
{
    @TempDir
    Path directory;
    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown()
    {
        allocator.close();
    }

    /** Which rows are null and which items inside the non-null rows are null. */
    private enum Nulls { NONE, ROWS, ITEMS, ROWS_AND_ITEMS, ALL_ROWS }

    private record Vectors(String name, int dimension, ArrowType item, Type element, Nulls nulls) {}

    @Test
    void readsNarrowVectorsInMiniBlockPages()
            throws Exception
    {
        // under 256 bytes per row: MiniBlock chunks; 3 batches of 3000 rows span many chunks
        List<Vectors> columns = List.of(
                new Vectors("f8", 8, float32(), REAL, Nulls.NONE),
                new Vectors("f3_rows", 3, float32(), REAL, Nulls.ROWS),
                new Vectors("f5_items", 5, float32(), REAL, Nulls.ITEMS),
                new Vectors("f16_both", 16, float32(), REAL, Nulls.ROWS_AND_ITEMS),
                new Vectors("d4", 4, float64(), DOUBLE, Nulls.ROWS),
                new Vectors("i8", 16, new ArrowType.Int(8, true), TINYINT, Nulls.ROWS_AND_ITEMS),
                new Vectors("i16", 6, new ArrowType.Int(16, true), SMALLINT, Nulls.NONE),
                new Vectors("i32", 2, new ArrowType.Int(32, true), INTEGER, Nulls.ITEMS),
                new Vectors("i64", 7, new ArrowType.Int(64, true), BIGINT, Nulls.ROWS));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("mini-" + version + ".lance");
            write(path, version, columns, 3000, 3);
            LanceFileMetadata metadata = LanceFileMetadata.read(inputFile(path));
            for (int c = 0; c < columns.size(); c++) {
                LanceColumn column = metadata.columns().get(c);
                assertThat(column.pages()).allSatisfy(page -> assertThat(page.layout().getMiniBlockLayout().getValueCompression().hasFixedSizeList()).isTrue());
                assertThat(column.pages().getFirst().layout().getMiniBlockLayout().getHasLargeChunk()).isEqualTo(version.equals("2.2"));
            }
            assertReadsLikeTheSdk(path, version, columns, 9000, new int[][] {{1, 10}, {1000, 3100}, {4095, 2}, {8995, 5}});
        }
    }

    @Test
    void readsWideVectorsInFullZipPages()
            throws Exception
    {
        // 256 bytes per row and more: FullZip records; 100 items make a 13-byte item bitmap per record
        List<Vectors> columns = List.of(
                new Vectors("emb", 768, float32(), REAL, Nulls.NONE),
                new Vectors("emb_rows", 768, float32(), REAL, Nulls.ROWS),
                new Vectors("f100_both", 100, float32(), REAL, Nulls.ROWS_AND_ITEMS),
                new Vectors("f64_items", 64, float32(), REAL, Nulls.ITEMS),
                new Vectors("d40", 40, float64(), DOUBLE, Nulls.ROWS),
                new Vectors("i8", 300, new ArrowType.Int(8, true), TINYINT, Nulls.ROWS_AND_ITEMS),
                new Vectors("i64", 33, new ArrowType.Int(64, true), BIGINT, Nulls.NONE));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("fullzip-" + version + ".lance");
            write(path, version, columns, 700, 2);
            LanceFileMetadata metadata = LanceFileMetadata.read(inputFile(path));
            for (int c = 0; c < columns.size(); c++) {
                assertThat(metadata.columns().get(c).pages()).allSatisfy(page -> assertThat(page.layout().getFullZipLayout().getValueCompression().hasFixedSizeList()).isTrue());
            }
            assertReadsLikeTheSdk(path, version, columns, 1400, new int[][] {{1, 10}, {650, 100}, {1399, 1}});
        }
    }

    @Test
    void readsVectorsAcrossPages()
            throws Exception
    {
        // 12,000 vectors of 3 KiB (about 37 MB) are more than the writer puts in one page
        List<Vectors> columns = List.of(new Vectors("emb", 768, float32(), REAL, Nulls.ROWS));
        Path path = directory.resolve("pages.lance");
        write(path, "2.1", columns, 4000, 3);
        LanceColumn column = LanceFileMetadata.read(inputFile(path)).columns().getFirst();
        assertThat(column.pages().size()).isGreaterThan(1);
        int boundary = (int) column.pages().getFirst().rows();
        assertReadsLikeTheSdk(path, "2.1", columns, 12_000, new int[][] {{boundary - 3, 7}, {0, boundary + 1}});
    }

    @Test
    void readsAllNullVectors()
            throws Exception
    {
        List<Vectors> columns = List.of(new Vectors("none", 8, float32(), REAL, Nulls.ALL_ROWS), new Vectors("none_wide", 256, float32(), REAL, Nulls.ALL_ROWS));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("allnull-" + version + ".lance");
            write(path, version, columns, 500, 1);
            assertReadsLikeTheSdk(path, version, columns, 500, new int[][] {{3, 7}});
        }
    }

    @Test
    void buildsArrayBlocksOverOneElementArray()
            throws Exception
    {
        List<Vectors> columns = List.of(new Vectors("emb", 768, float32(), REAL, Nulls.NONE), new Vectors("f8", 8, float32(), REAL, Nulls.ROWS));
        Path path = directory.resolve("blocks.lance");
        write(path, "2.2", columns, 100, 1);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        for (int c = 0; c < 2; c++) {
            int dimension = columns.get(c).dimension();
            ArrayBlock block = (ArrayBlock) LanceColumnReader.read(file, metadata, c, new ArrayType(REAL), 10, 50);
            // reals stay raw float bits in an int array; null vectors take no elements
            assertThat(block.getRawElementBlock()).isInstanceOf(IntArrayBlock.class);
            int[] offsets = block.getRawOffsets();
            for (int i = 0; i < 50; i++) {
                int length = offsets[block.getOffsetBase() + i + 1] - offsets[block.getOffsetBase() + i];
                assertThat(length).isEqualTo(block.isNull(i) ? 0 : dimension);
            }
        }
    }

    @Test
    void readsOnlyTheWantedRecordsOfFullZipPages()
            throws Exception
    {
        // fixed-size records: 10 rows of a 768-dim page cost 10 records, not the page's 3 MiB
        List<Vectors> columns = List.of(new Vectors("emb", 768, float32(), REAL, Nulls.ROWS));
        Path path = directory.resolve("ranged.lance");
        write(path, "2.2", columns, 1000, 1);
        TrinoInputFile file = inputFile(path);
        LanceColumn column = LanceFileMetadata.read(file).columns().getFirst();
        int record = 1 + 768 * 4;
        assertThat(column.pages().getFirst().bufferSizes()).containsExactly(1000L * record);
        long[] bytesRead = new long[1];
        try (TrinoInput input = file.newInput()) {
            TrinoInput counting = new TrinoInput()
            {
                @Override
                public void readFully(long position, byte[] buffer, int bufferOffset, int bufferLength)
                        throws IOException
                {
                    bytesRead[0] += bufferLength;
                    input.readFully(position, buffer, bufferOffset, bufferLength);
                }

                @Override
                public int readTail(byte[] buffer, int bufferOffset, int bufferLength)
                        throws IOException
                {
                    bytesRead[0] += bufferLength;
                    return input.readTail(buffer, bufferOffset, bufferLength);
                }

                @Override
                public void close() {}
            };
            Block block = LanceColumnReader.read(counting, column, new ArrayType(REAL), 500, 10);
            assertThat(values(block, new ArrayType(REAL))).isEqualTo(SdkFiles.readColumn(path, allocator, "emb").subList(500, 510));
        }
        assertThat(bytesRead[0]).isEqualTo(10L * record);
    }

    @Test
    void rejectsVectorsReadAsOtherTypes()
            throws Exception
    {
        List<Vectors> columns = List.of(new Vectors("f8", 8, float32(), REAL, Nulls.NONE));
        Path path = directory.resolve("types.lance");
        write(path, "2.1", columns, 10, 1);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, 0, new ArrayType(DOUBLE), 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32-bit values cannot be read as array(double)");
        assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, 0, REAL, 0, 10))
                .isInstanceOf(UnsupportedLanceEncodingException.class)
                .hasMessageContaining("column 0 page 0");
    }

    private void assertReadsLikeTheSdk(Path path, String version, List<Vectors> columns, int rows, int[][] ranges)
            throws Exception
    {
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        for (int c = 0; c < columns.size(); c++) {
            Vectors vectors = columns.get(c);
            Type type = new ArrayType(vectors.element());
            List<Object> expected = SdkFiles.readColumn(path, allocator, vectors.name());
            assertThat(expected).hasSize(rows);
            assertThat(values(LanceColumnReader.read(file, metadata, c, type, 0, rows), type)).as("%s %s", version, vectors.name()).isEqualTo(expected);
            for (int[] range : ranges) {
                assertThat(values(LanceColumnReader.read(file, metadata, c, type, range[0], range[1]), type))
                        .as("%s %s rows %s+%s", version, vectors.name(), range[0], range[1])
                        .isEqualTo(expected.subList(range[0], range[0] + range[1]));
            }
        }
    }

    /** Arrays as lists of boxed elements, the form Arrow's getObject gives the SDK's vectors. */
    private static List<Object> values(Block block, Type type)
    {
        List<Object> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            values.add(type.getObjectValue(block, position));
        }
        return values;
    }

    private void write(Path path, String version, List<Vectors> columns, int batchRows, int batchCount)
            throws Exception
    {
        Schema schema = new Schema(columns.stream()
                .map(vectors -> {
                    boolean itemNulls = vectors.nulls() == Nulls.ITEMS || vectors.nulls() == Nulls.ROWS_AND_ITEMS;
                    boolean rowNulls = vectors.nulls() == Nulls.ROWS || vectors.nulls() == Nulls.ROWS_AND_ITEMS || vectors.nulls() == Nulls.ALL_ROWS;
                    Field item = new Field("item", new FieldType(itemNulls, vectors.item(), null), null);
                    return new Field(vectors.name(), new FieldType(rowNulls, new ArrowType.FixedSizeList(vectors.dimension()), null, Map.of()), List.of(item));
                })
                .toList());
        List<Consumer<VectorSchemaRoot>> batches = new ArrayList<>();
        for (int batch = 0; batch < batchCount; batch++) {
            int firstRow = batch * batchRows;
            batches.add(root -> {
                for (Vectors vectors : columns) {
                    fill((FixedSizeListVector) root.getVector(vectors.name()), vectors, firstRow, batchRows);
                }
                root.setRowCount(batchRows);
            });
        }
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            SdkFiles.write(path, version, allocator, root, batches);
        }
    }

    private static void fill(FixedSizeListVector list, Vectors vectors, int firstRow, int rows)
    {
        int dimension = vectors.dimension();
        list.setInitialCapacity(rows);
        list.allocateNew();
        FieldVector data = list.getDataVector();
        for (int i = 0; i < rows; i++) {
            int row = firstRow + i;
            boolean rowNull = switch (vectors.nulls()) {
                case ROWS, ROWS_AND_ITEMS -> row % 7 == 3 || row % 11 == 0;
                case ALL_ROWS -> true;
                default -> false;
            };
            if (rowNull) {
                list.setNull(i);
            }
            else {
                list.setNotNull(i);
            }
            for (int d = 0; d < dimension; d++) {
                int index = i * dimension + d;
                boolean itemNull = (vectors.nulls() == Nulls.ITEMS || vectors.nulls() == Nulls.ROWS_AND_ITEMS) && (row * 3 + d) % 13 == 0;
                if (rowNull || itemNull) {
                    // values under a null are zeros, as Arrow writers leave them
                    setValue(data, index, 0);
                    if (itemNull) {
                        data.setNull(index);
                    }
                    continue;
                }
                setValue(data, index, row * 1_000L + d * 37L - 5_000);
            }
        }
        data.setValueCount(rows * dimension);
        list.setValueCount(rows);
    }

    private static void setValue(FieldVector vector, int index, long value)
    {
        switch (vector) {
            case Float4Vector floats -> floats.setSafe(index, value / 7.0f);
            case Float8Vector doubles -> doubles.setSafe(index, value / 7.0);
            case TinyIntVector bytes -> bytes.setSafe(index, (byte) value);
            case SmallIntVector shorts -> shorts.setSafe(index, (short) value);
            case IntVector ints -> ints.setSafe(index, (int) value);
            case BigIntVector longs -> longs.setSafe(index, value * 1_000_003L);
            default -> throw new AssertionError(vector);
        }
    }

    private static ArrowType float32()
    {
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    }

    private static ArrowType float64()
    {
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    }

    private static TrinoInputFile inputFile(Path path)
    {
        return new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
    }
}
