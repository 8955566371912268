package io.lancetrino.metadata.deletion;

import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Deletion files: Arrow IPC {@code .arrow} files (one UInt32 {@code row_id} column, ZSTD declared) and portable
 * Roaring {@code .bin} bitmaps. Both hold deleted row offsets local to the fragment.
 */
public final class DeletionVectors
{
    private DeletionVectors() {}

    public static RoaringBitmap read(String location, byte[] content, boolean bitmap)
    {
        try {
            return bitmap ? readBitmap(content) : ArrowIpcRowIds.read(content);
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
    public static byte[] writeArrow(RoaringBitmap deleted)
    {
        return ArrowIpcRowIds.write(deleted);
    }
}
