package io.lancetrino.file;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.block.Block;
import io.trino.spi.type.ArrayType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static io.trino.spi.type.RealType.REAL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rough, one-off timing (not a benchmark, not part of the suite: its name keeps surefire from picking it up unless
 * asked with {@code -Dtest=RoughVectorDecodeTiming}) of decoding a 768-dim float32 vector column with the Java reader
 * against the SDK's file reader. Files sit in the page cache; single thread; few repetitions on a shared machine.
 */
class RoughVectorDecodeTiming
{
    private static final int DIMENSION = 768;
    private static final int BATCH_ROWS = 10_000;
    private static final int BATCHES = 4;
    private static final int READ_BATCH = 8192;
    private static final int RUNS = 11;

    @TempDir
    Path directory;

    @Test
    void time()
            throws Exception
    {
        Path path = directory.resolve("vectors.lance");
        int rows = BATCH_ROWS * BATCHES;
        try (BufferAllocator allocator = new RootAllocator()) {
            Field item = new Field("item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
            Schema schema = new Schema(List.of(new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIMENSION)), List.of(item))));
            Random random = new Random(1);
            List<Consumer<VectorSchemaRoot>> batches = new ArrayList<>();
            for (int b = 0; b < BATCHES; b++) {
                batches.add(root -> {
                    FixedSizeListVector list = (FixedSizeListVector) root.getVector("v");
                    list.setInitialCapacity(BATCH_ROWS);
                    list.allocateNew();
                    Float4Vector data = (Float4Vector) list.getDataVector();
                    for (int r = 0; r < BATCH_ROWS; r++) {
                        list.setNotNull(r);
                        for (int d = 0; d < DIMENSION; d++) {
                            data.setSafe(r * DIMENSION + d, (float) random.nextGaussian());
                        }
                    }
                    data.setValueCount(BATCH_ROWS * DIMENSION);
                    list.setValueCount(BATCH_ROWS);
                    root.setRowCount(BATCH_ROWS);
                });
            }
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                SdkFiles.write(path, "2.1", allocator, root, batches);
            }

            TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
            long[] javaReader = new long[RUNS];
            long[] javaCpu = new long[RUNS];
            long[] sdkArrow = new long[RUNS];
            long[] sdkCopied = new long[RUNS];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (int run = 0; run < javaReader.length; run++) {
                long start = System.nanoTime();
                long cpuStart = threads.getCurrentThreadCpuTime();
                long checksum = 0;
                LanceFileMetadata metadata = LanceFileMetadata.read(file);
                try (TrinoInput input = file.newInput()) {
                    for (int row = 0; row < rows; row += READ_BATCH) {
                        Block block = LanceColumnReader.read(input, metadata.columns().getFirst(), new ArrayType(REAL), row, Math.min(READ_BATCH, rows - row));
                        checksum += block.getPositionCount();
                    }
                }
                javaReader[run] = System.nanoTime() - start;
                javaCpu[run] = threads.getCurrentThreadCpuTime() - cpuStart;
                assertThat(checksum).isEqualTo(rows);

                for (boolean copy : new boolean[] {false, true}) {
                    start = System.nanoTime();
                    checksum = 0;
                    try (LanceFileReader reader = LanceFileReader.open(path.toString(), allocator);
                            ArrowReader arrow = reader.readAll(List.of("v"), null, READ_BATCH)) {
                        while (arrow.loadNextBatch()) {
                            FixedSizeListVector vector = (FixedSizeListVector) arrow.getVectorSchemaRoot().getVector("v");
                            if (copy) {
                                // about what the SDK path adds to turn the Arrow vector into a Trino block: one copy of the floats
                                Float4Vector data = (Float4Vector) vector.getDataVector();
                                int[] values = new int[data.getValueCount()];
                                data.getDataBuffer().nioBuffer(0, values.length * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(values);
                                checksum += values.length / DIMENSION;
                            }
                            else {
                                checksum += vector.getValueCount();
                            }
                        }
                    }
                    (copy ? sdkCopied : sdkArrow)[run] = System.nanoTime() - start;
                    assertThat(checksum).isEqualTo(rows);
                }
            }
            double megabytes = (double) rows * DIMENSION * 4 / (1 << 20);
            System.out.printf("ROUGH vector decode timing, %s rows x %s float32 (%.0f MiB), batches of %s rows, %s runs, first run dropped%n",
                    rows, DIMENSION, megabytes, READ_BATCH, javaReader.length);
            report("java reader -> ArrayBlock", javaReader, megabytes);
            report("java reader, CPU time of the thread", javaCpu, megabytes);
            report("SDK LanceFileReader -> Arrow only", sdkArrow, megabytes);
            report("SDK -> Arrow + one copy to int[]", sdkCopied, megabytes);
        }
    }

    // the SDK decodes on native threads of its own: only wall time compares
    private static void report(String label, long[] nanos, double megabytes)
    {
        long[] sorted = Arrays.copyOfRange(nanos, 1, nanos.length);
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2] / 1e6;
        double best = sorted[0] / 1e6;
        System.out.printf("ROUGH %-36s median %7.1f ms, best %7.1f ms (%.0f MiB/s at the median)%n", label, median, best, megabytes / (median / 1000));
    }
}
