package io.lancetrino.metadata.deletion;

import io.lancetrino.metadata.ArrowAllocators;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pure-Java Arrow IPC codec of deletion files against Arrow Java's own reader and writer (with and without the ZSTD
 * body compression Lance declares). Files the Lance SDK writes are read in {@code TestSdkWrittenTables}; the SDK reads
 * the codec's files in the end-to-end deletion tests.
 */
final class TestArrowIpcRowIds
{
    private static final List<RoaringBitmap> ROW_SETS = List.of(
            new RoaringBitmap(),
            RoaringBitmap.bitmapOf(0),
            RoaringBitmap.bitmapOf(7, 3, 1_000_000, -1),
            RoaringBitmap.bitmapOf(IntStream.range(0, DeletionVectors.ARROW_MAX_ROWS).toArray()),
            RoaringBitmap.bitmapOf(new Random(5).ints(1234, 0, 1 << 20).toArray()));

    @Test
    void testArrowJavaReadsWhatTheCodecWrites()
            throws Exception
    {
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            for (RoaringBitmap rows : ROW_SETS) {
                byte[] file = ArrowIpcRowIds.write(rows);
                assertThat(ArrowIpcRowIds.read(file)).isEqualTo(rows);
                List<Integer> read = new ArrayList<>();
                try (ArrowFileReader reader = new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(file), allocator)) {
                    Field field = reader.getVectorSchemaRoot().getSchema().getFields().getFirst();
                    assertThat(field.getName()).isEqualTo("row_id");
                    assertThat(field.isNullable()).isFalse();
                    assertThat(field.getType()).isEqualTo(new ArrowType.Int(32, false));
                    while (reader.loadNextBatch()) {
                        UInt4Vector vector = (UInt4Vector) reader.getVectorSchemaRoot().getVector(0);
                        for (int i = 0; i < vector.getValueCount(); i++) {
                            read.add(vector.get(i));
                        }
                    }
                }
                assertThat(read).isEqualTo(Arrays.stream(rows.toArray()).boxed().toList());
            }
        }
    }

    @Test
    void testCodecReadsWhatArrowJavaWrites()
            throws Exception
    {
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            for (CompressionUtil.CodecType codec : List.of(CompressionUtil.CodecType.NO_COMPRESSION, CompressionUtil.CodecType.ZSTD)) {
                for (RoaringBitmap rows : ROW_SETS) {
                    // two batches, in descending order: readers must take rows in any order and in several batches
                    int[] values = rows.toArray();
                    byte[] file = arrowJavaFile(allocator, codec, reversed(values));
                    assertThat(ArrowIpcRowIds.read(file)).as("%s, %s rows", codec, values.length).isEqualTo(rows);
                }
            }
        }
    }

    @Test
    void testDamagedFilesFailWithTheirCause()
    {
        byte[] file = ArrowIpcRowIds.write(RoaringBitmap.bitmapOf(1, 2, 3));
        assertThatThrownBy(() -> DeletionVectors.read("d/1-2-3.arrow", Arrays.copyOf(file, file.length - 3), false))
                .hasMessageStartingWith("Cannot read deletion file d/1-2-3.arrow: not an Arrow IPC file");
        byte[] lyingFooter = file.clone();
        // the footer length's high byte
        lyingFooter[file.length - 7] = 0x7F;
        assertThatThrownBy(() -> DeletionVectors.read("d/1-2-3.arrow", lyingFooter, false))
                .hasMessageStartingWith("Cannot read deletion file d/1-2-3.arrow: footer of");
        byte[] scrambled = file.clone();
        // the footer's flatbuffer
        for (int i = file.length - 60; i < file.length - 10; i++) {
            scrambled[i] = (byte) 0xEE;
        }
        assertThatThrownBy(() -> DeletionVectors.read("d/1-2-3.arrow", scrambled, false))
                .hasMessageStartingWith("Cannot read deletion file d/1-2-3.arrow: malformed Arrow IPC metadata");
    }

    private static int[] reversed(int[] values)
    {
        int[] copy = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            copy[i] = values[values.length - 1 - i];
        }
        return copy;
    }

    private static byte[] arrowJavaFile(BufferAllocator allocator, CompressionUtil.CodecType codec, int[] values)
            throws Exception
    {
        Schema schema = new Schema(List.of(new Field("row_id", new FieldType(false, new ArrowType.Int(32, false), null), null)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out), null, IpcOption.DEFAULT,
                        codec == CompressionUtil.CodecType.ZSTD ? CommonsCompressionFactory.INSTANCE : NoCompressionCodec.Factory.INSTANCE, codec, Optional.of(3))) {
            writer.start();
            int half = values.length / 2;
            for (int[] batch : List.of(Arrays.copyOfRange(values, 0, half), Arrays.copyOfRange(values, half, values.length))) {
                UInt4Vector vector = (UInt4Vector) root.getVector(0);
                vector.allocateNew(Math.max(1, batch.length));
                for (int i = 0; i < batch.length; i++) {
                    vector.set(i, batch[i]);
                }
                root.setRowCount(batch.length);
                writer.writeBatch();
            }
            writer.end();
        }
        return out.toByteArray();
    }
}
