package io.lancetrino.metadata.index;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.IndexMetadata;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * An index segment's {@code fragment_bitmap}: the fragments it covers, as a portable 32-bit Roaring bitmap.
 */
public final class FragmentBitmaps
{
    private FragmentBitmaps() {}

    /**
     * The fragments the segment covers, or empty when it records none (Lance before fragment bitmaps: any fragment).
     */
    public static Optional<RoaringBitmap> covered(String table, IndexMetadata index)
    {
        if (index.getFragmentBitmap().isEmpty()) {
            return Optional.empty();
        }
        RoaringBitmap bitmap = new RoaringBitmap();
        try {
            bitmap.deserialize(ByteBuffer.wrap(index.getFragmentBitmap().toByteArray()).order(ByteOrder.LITTLE_ENDIAN));
        }
        catch (IOException | RuntimeException e) {
            throw new LanceTableException(LanceErrorKind.CORRUPT_MANIFEST, "Table %s: index %s has a corrupt fragment bitmap: %s".formatted(table, index.getName(), e.getMessage()), e);
        }
        return Optional.of(bitmap);
    }

    public static ByteString serialize(RoaringBitmap bitmap)
    {
        bitmap.runOptimize();
        ByteBuffer buffer = ByteBuffer.allocate(bitmap.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
        bitmap.serialize(buffer);
        return ByteString.copyFrom(buffer.array());
    }
}
