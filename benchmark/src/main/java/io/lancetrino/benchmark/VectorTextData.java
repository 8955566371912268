package io.lancetrino.benchmark;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.plugin.LanceTableProperties;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.WriteParams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The {@code vectors} table: {@code id bigint}, {@code v} a 768-dimension float32 {@code FixedSizeList} (embeddings;
 * Trino sees {@code array(real)}) and {@code text} of 256 to 1,024 ASCII bytes per row. Values of 256 bytes and more
 * are what Lance writes as FullZip pages rather than mini-blocks, so this table exercises the decode paths lineitem
 * does not. Written with the Lance SDK because {@code CREATE TABLE} maps {@code array(real)} to a variable-length
 * list, never a fixed-size one.
 */
public final class VectorTextData
{
    public static final String TABLE = "vectors";
    public static final int DIMENSION = 768;
    public static final int MIN_TEXT_BYTES = 256;
    public static final int MAX_TEXT_BYTES = 1_024;
    // rows at scale 1: 154 MB of vectors and 32 MB of text, a few seconds per scan on two cores
    static final int ROWS_AT_SCALE_1 = 50_000;
    // several data files at scale 1, so the page source (a split per file here) uses every core, as the SDK's scan does
    private static final int ROWS_PER_FILE = 10_000;
    private static final int BATCH_ROWS = 1_024;
    private static final long SEED = 768;

    private VectorTextData() {}

    public static long rows(double scale)
    {
        return Math.max(100, Math.round(ROWS_AT_SCALE_1 * scale));
    }

    /**
     * Seconds spent writing the table, or zero when it was already there.
     */
    public static double ensureGenerated(BenchmarkEnvironment environment, BenchmarkOptions options)
            throws IOException
    {
        Path table = environment.lanceTable(BenchmarkEnvironment.SCHEMA, TABLE);
        if (Files.isDirectory(table.resolve("_versions")) && !options.regenerate()) {
            return 0;
        }
        deleteRecursively(table);
        long start = System.nanoTime();
        // the format version of the generated TPC-H tables, so --lance-table-property file_format_version=2.2 covers this table too
        String version = options.lanceTableProperties().getOrDefault(LanceTableProperties.FILE_FORMAT_VERSION, LanceTableProperties.DEFAULT_FILE_FORMAT_VERSION);
        WriteParams params = new WriteParams.Builder()
                .withMode(WriteParams.WriteMode.CREATE)
                .withDataStorageVersion(version)
                .withMaxRowsPerFile(ROWS_PER_FILE)
                .build();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            // the exported stream owns the reader and closes it on release
            Data.exportArrayStream(allocator, new GeneratedBatches(allocator, rows(options.scale())), stream);
            try (Dataset _ = Dataset.create(allocator, stream, table.toString(), params)) {
                // created
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    static Schema schema()
    {
        FieldType float32 = FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
        return new Schema(List.of(
                new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), List.of()),
                new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIMENSION)), List.of(new Field("item", float32, List.of()))),
                new Field("text", FieldType.nullable(ArrowType.Utf8.INSTANCE), List.of())));
    }

    /**
     * Seeded values in batches, so a large scale never holds the whole table in memory.
     */
    private static final class GeneratedBatches
            extends ArrowReader
    {
        private static final byte[] LETTERS = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);

        private final long rows;
        private final SplittableRandom random = new SplittableRandom(SEED);
        private long written;

        GeneratedBatches(BufferAllocator allocator, long rows)
        {
            super(allocator);
            this.rows = rows;
        }

        @Override
        public boolean loadNextBatch()
                throws IOException
        {
            if (written >= rows) {
                return false;
            }
            int count = (int) Math.min(BATCH_ROWS, rows - written);
            VectorSchemaRoot root = getVectorSchemaRoot();
            root.allocateNew();
            BigIntVector ids = (BigIntVector) root.getVector("id");
            FixedSizeListVector vectors = (FixedSizeListVector) root.getVector("v");
            Float4Vector elements = (Float4Vector) vectors.getDataVector();
            VarCharVector texts = (VarCharVector) root.getVector("text");
            for (int row = 0; row < count; row++) {
                ids.setSafe(row, written + row);
                vectors.setNotNull(row);
                for (int element = 0; element < DIMENSION; element++) {
                    elements.setSafe(row * DIMENSION + element, (float) (random.nextDouble() * 2 - 1));
                }
                texts.setSafe(row, text());
            }
            elements.setValueCount(count * DIMENSION);
            root.setRowCount(count);
            written += count;
            return true;
        }

        // words of 2 to 9 letters: compressible like prose, but few repeated values, so no dictionary
        private byte[] text()
        {
            byte[] text = new byte[random.nextInt(MIN_TEXT_BYTES, MAX_TEXT_BYTES + 1)];
            int next = random.nextInt(2, 10);
            for (int i = 0; i < text.length; i++) {
                if (i == next) {
                    text[i] = ' ';
                    next = i + 1 + random.nextInt(2, 10);
                }
                else {
                    text[i] = LETTERS[random.nextInt(LETTERS.length)];
                }
            }
            return text;
        }

        @Override
        public long bytesRead()
        {
            return 0;
        }

        @Override
        protected void closeReadSource() {}

        @Override
        protected Schema readSchema()
        {
            return schema();
        }
    }

    private static void deleteRecursively(Path directory)
            throws IOException
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
