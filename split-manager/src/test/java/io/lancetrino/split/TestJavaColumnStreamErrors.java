package io.lancetrino.split;

import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.split.arrow.StoredConversions;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the page source's Java column stream makes of a damaged data file: a TrinoException with LANCE_BAD_DATA that
 * names the table, the file, the column (and its physical column and page), not the SDK fallback (which is for valid but undecoded pages).
 */
class TestJavaColumnStreamErrors
{
    private static final int ROWS = 3000;

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

    @Test
    void readsTheUndamagedFile()
            throws Exception
    {
        Path path = write("good.lance");
        ColumnStream stream = stream(path, (_, cause) -> {
            throw new AssertionError("no fallback for a valid file", cause);
        });
        long sum = 0;
        int rows = 0;
        while (stream.available() > 0) {
            int available = stream.available();
            Block block = stream.block(0, available);
            for (int i = 0; i < available; i++) {
                sum += BIGINT.getLong(block, i);
            }
            rows += available;
            stream.advance(available);
        }
        stream.close();
        assertThat(rows).isEqualTo(ROWS);
        assertThat(sum).isEqualTo((long) ROWS * (ROWS - 1) / 2 * 7);
    }

    @Test
    void reportsDamagedPagesWithFileAndColumn()
            throws Exception
    {
        Path good = write("good.lance");
        byte[] bytes = Files.readAllBytes(good);
        LancePage page = LanceFileMetadata.read(inputFile(good)).columns().getFirst().pages().getFirst();
        // every chunk metadata word of the page claims the largest chunk: far more than the chunk buffer holds
        byte[] damaged = bytes.clone();
        Arrays.fill(damaged, Math.toIntExact(page.bufferPositions().get(0)), Math.toIntExact(page.bufferPositions().get(0) + page.bufferSizes().get(0)), (byte) 0xFF);
        Path path = directory.resolve("damaged.lance");
        Files.write(path, damaged);

        ColumnStream stream = stream(path, (_, cause) -> {
            throw new AssertionError("a damaged page is no reason to fall back", cause);
        });
        // batches are decoded when their block is asked for (pages load columns lazily)
        assertThatThrownBy(() -> stream.block(0, stream.available()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(LANCE_BAD_DATA.toErrorCode()))
                .hasMessageContaining("Table t, fragment 3")
                .hasMessageContaining("column x of data file local:///damaged.lance")
                .hasMessageContaining("column 0 page 0 is corrupt");
        stream.close();
    }

    @Test
    void fallsBackForUnsupportedPages()
            throws Exception
    {
        Path path = write("good.lance");
        List<List<RowRange>> fallbackRanges = new ArrayList<>();
        ColumnStream stream = stream(path, UNDECODED_TYPE, (ranges, cause) -> {
            fallbackRanges.add(ranges);
            assertThat(cause).hasMessageContaining("column 0 page 0");
            return new RowNumberStream(ranges);
        });
        // the batch that met the page comes from the SDK, and so does everything after it
        long sum = 0;
        int rows = 0;
        for (int available = stream.available(); available > 0; available = stream.available()) {
            Block block = stream.block(0, available);
            for (int i = 0; i < available; i++) {
                sum += UNDECODED_TYPE.getLong(block, i);
            }
            rows += available;
            stream.advance(available);
        }
        stream.close();
        assertThat(rows).isEqualTo(ROWS);
        assertThat(sum).isEqualTo((long) ROWS * (ROWS - 1) / 2);
        assertThat(fallbackRanges.stream().map(ranges -> ranges.stream().map(range -> range.start() + "-" + range.end()).toList()))
                .containsExactly(List.of("0-1024"), List.of("1024-" + ROWS));
        assertThat(((JavaColumnStream) stream).fellBack()).isTrue();
    }

    // a Trino type the reader does not decode: it signals unsupported, which must reach the fallback
    private static final io.trino.spi.type.Type UNDECODED_TYPE = io.trino.spi.type.TimeType.TIME_MICROS;

    private ColumnStream stream(Path path, JavaColumnStream.Fallback fallback)
            throws Exception
    {
        return stream(path, BIGINT, fallback);
    }

    private ColumnStream stream(Path path, io.trino.spi.type.Type type, JavaColumnStream.Fallback fallback)
            throws Exception
    {
        TrinoInputFile file = inputFile(path);
        LanceColumn column = LanceFileMetadata.read(file).columns().getFirst();
        LanceDataFile dataFile = new LanceDataFile(file.location().toString(), List.of(0), List.of(0), 2, 1);
        LanceSplit split = new LanceSplit("t", 3, List.of(dataFile), 0, ROWS, Optional.empty(), ROWS, 0, new LanceSplit.DatasetVersion(directory.toString(), 1, false));
        return new JavaColumnStream(split, dataFile, 0, "x", type, new StoredConversions.Conversion(type, UnaryOperator.identity(), false), column, new CachingInput(file), List.of(RowRange.of(0, ROWS)), 1024, fallback);
    }

    private Path write(String name)
            throws Exception
    {
        Path path = directory.resolve(name);
        Schema schema = new Schema(List.of(new Field("x", FieldType.nullable(new ArrowType.Int(64, true)), null)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                LanceFileWriter writer = LanceFileWriter.open(path.toString(), allocator, null, Optional.of("2.1"), Map.of())) {
            BigIntVector vector = (BigIntVector) root.getVector("x");
            vector.allocateNew(ROWS);
            for (int row = 0; row < ROWS; row++) {
                vector.set(row, row * 7L);
            }
            vector.setValueCount(ROWS);
            root.setRowCount(ROWS);
            writer.write(root);
        }
        return path;
    }

    private static TrinoInputFile inputFile(Path path)
    {
        return new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
    }

    /** The SDK's stand-in: each row's number as its value, in batches of 500. */
    private static final class RowNumberStream
            implements ColumnStream
    {
        private final List<Integer> rows = new ArrayList<>();
        private int position;

        RowNumberStream(List<RowRange> ranges)
        {
            for (RowRange range : ranges) {
                for (int row = range.start(); row < range.end(); row++) {
                    rows.add(row);
                }
            }
        }

        @Override
        public List<Integer> columns()
        {
            return List.of(0);
        }

        @Override
        public int available()
        {
            return Math.min(500, rows.size() - position);
        }

        @Override
        public Block block(int channel, int count)
        {
            long[] values = new long[count];
            for (int i = 0; i < count; i++) {
                values[i] = rows.get(position + i);
            }
            return new io.trino.spi.block.LongArrayBlock(count, Optional.empty(), values);
        }

        @Override
        public void advance(int count)
        {
            position += count;
        }

        @Override
        public long retainedBytes()
        {
            return 0;
        }

        @Override
        public void close() {}
    }
}
