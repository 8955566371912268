package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The rows of a split's fragment that scalar indexes left to read: only they can match the query's filter. Rows of
 * the fragment outside {@code rows} are never decoded.
 *
 * @param indexes the names of the indexes that answered
 * @param rows row offsets in the fragment, a portable Roaring bitmap
 * @param rowsSkipped rows of the split the indexes ruled out
 */
public record IndexedRows(List<String> indexes, byte[] rows, long rowsSkipped)
{
    public IndexedRows
    {
        indexes = ImmutableList.copyOf(indexes);
        requireNonNull(rows, "rows is null");
    }

    public static IndexedRows of(List<String> indexes, RoaringBitmap rows, long rowsSkipped)
    {
        rows.runOptimize();
        ByteBuffer buffer = ByteBuffer.allocate(rows.serializedSizeInBytes());
        rows.serialize(buffer);
        return new IndexedRows(indexes, buffer.array(), rowsSkipped);
    }

    public RoaringBitmap bitmap()
    {
        RoaringBitmap bitmap = new RoaringBitmap();
        try {
            bitmap.deserialize(ByteBuffer.wrap(rows));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bitmap;
    }
}
