package io.lancetrino.metadata.deletion;

import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.List;
import java.nio.ByteBuffer;

/**
 * Deletion files: Arrow IPC {@code .arrow} files (one UInt32 {@code row_id} column, ZSTD declared) and portable
 * Roaring {@code .bin} bitmaps. Both hold deleted row offsets local to the fragment.
 */
public final class DeletionVectors
{
    private DeletionVectors() {}

    public static RoaringBitmap read(String location, byte[] content, boolean bitmap, BufferAllocator allocator)
    {
        try {
            return bitmap ? readBitmap(content) : readArrow(content, allocator);
        }
        catch (IOException | RuntimeException e) {
            throw new LanceTableException(LanceErrorKind.BAD_DELETION_FILE, "Cannot read deletion file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    public static boolean isBitmapLocation(String location)
    {
        return location.endsWith(".bin");
    }

    private static RoaringBitmap readBitmap(byte[] content)
            throws IOException
    {
        RoaringBitmap bitmap = new RoaringBitmap();
        bitmap.deserialize(ByteBuffer.wrap(content));
        return bitmap;
    }

    private static RoaringBitmap readArrow(byte[] content, BufferAllocator allocator)
            throws IOException
    {
        RoaringBitmap bitmap = new RoaringBitmap();
        try (ArrowFileReader reader = new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(content), allocator, CommonsCompressionFactory.INSTANCE)) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                FieldVector vector = root.getVector(0);
                for (int i = 0; i < root.getRowCount(); i++) {
                    if (vector.isNull(i)) {
                        throw new IOException("row " + i + " of the deletion vector is null");
                    }
                    bitmap.add(switch (vector) {
                        case UInt4Vector uint -> uint.get(i);
                        case IntVector integer -> integer.get(i);
                        default -> throw new IOException("unexpected deletion vector type " + vector.getField().getType());
                    });
                }
            }
        }
        return bitmap;
    }

    /**
     * Lance writes Arrow files up to this many deleted rows and Roaring bitmaps above.
     */
    public static final int ARROW_MAX_ROWS = 5000;

    public static boolean useBitmap(RoaringBitmap deleted)
    {
        return deleted.getLongCardinality() > ARROW_MAX_ROWS;
    }

    /**
     * Portable Roaring serialization without run containers, as Lance writes it.
     */
    public static byte[] writeBitmap(RoaringBitmap deleted)
    {
        RoaringBitmap portable = deleted.clone();
        portable.removeRunCompression();
        ByteBuffer buffer = ByteBuffer.allocate(portable.serializedSizeInBytes());
        portable.serialize(buffer);
        return buffer.array();
    }

    /**
     * An Arrow IPC file with one non-nullable UInt32 {@code row_id} column; Lance reads it with or without compression.
     */
    public static byte[] writeArrow(RoaringBitmap deleted, BufferAllocator allocator)
    {
        Schema schema = new Schema(List.of(new Field("row_id", new FieldType(false, new ArrowType.Int(32, false), null), null)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
            UInt4Vector vector = (UInt4Vector) root.getVector(0);
            vector.allocateNew(deleted.getCardinality());
            int index = 0;
            for (int row : deleted) {
                vector.set(index++, row);
            }
            root.setRowCount(index);
            writer.start();
            writer.writeBatch();
            writer.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
