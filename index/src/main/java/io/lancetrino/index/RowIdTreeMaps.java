package io.lancetrino.index;

import io.airlift.slice.Slice;
import org.roaringbitmap.InvalidRoaringFormat;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Lance's serialized {@code RowIdTreeMap}, the bitmaps of bitmap and label-list indexes: {@code u32} entry count,
 * then per entry {@code u32} fragment id, {@code u32} size and that many bytes of a portable 32-bit Roaring bitmap of
 * row offsets; size 0 means every row of the fragment. Little-endian.
 */
final class RowIdTreeMaps
{
    private RowIdTreeMaps() {}

    static RowAddresses decode(Slice bytes, String where)
            throws IOException
    {
        try {
            if (bytes.length() < 4) {
                throw new IOException("%s: a row id map of %s bytes".formatted(where, bytes.length()));
            }
            long entries = bytes.getUnsignedInt(0);
            // each entry takes at least 8 bytes: a lying count must not drive the loop
            if (entries > (bytes.length() - 4) / 8) {
                throw new IOException("%s: %s entries in a row id map of %s bytes".formatted(where, entries, bytes.length()));
            }
            RowAddresses.Builder rows = RowAddresses.builder();
            int offset = 4;
            for (long entry = 0; entry < entries; entry++) {
                if (offset + 8 > bytes.length()) {
                    throw new IOException("%s: row id map entry %s lies past its %s bytes".formatted(where, entry, bytes.length()));
                }
                int fragmentId = bytes.getInt(offset);
                long size = bytes.getUnsignedInt(offset + 4);
                offset += 8;
                if (size == 0) {
                    rows.addWholeFragment(fragmentId);
                    continue;
                }
                if (size > bytes.length() - offset) {
                    throw new IOException("%s: row id map entry %s of %s bytes lies past its %s bytes".formatted(where, entry, size, bytes.length()));
                }
                ByteBuffer buffer = bytes.toByteBuffer(offset, (int) size).slice();
                RoaringBitmap bitmap = new RoaringBitmap();
                bitmap.deserialize(buffer);
                rows.addAll(fragmentId, bitmap);
                offset += (int) size;
            }
            return rows.build();
        }
        catch (InvalidRoaringFormat | BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new IOException("%s: a row id map does not decode: %s".formatted(where, e.getMessage()), e);
        }
    }
}
