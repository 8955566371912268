package io.lancetrino.file;

import io.airlift.slice.Slice;

/**
 * The value of a constant page that Lance keeps in the page's first buffer rather than inline (variable-width values:
 * strings, binaries): a serialized block of buffers, as Lance writes it: the buffer count (u32), each buffer's size
 * (u32), then the buffers, which for one variable-width value are its two offsets (u32 or u64) and its bytes.
 */
final class ConstantValue
{
    private ConstantValue() {}

    /**
     * Whether the page keeps its value in a buffer: it has no inline value and, besides the rep and def level buffers
     * (both or neither), one more.
     */
    static boolean inBuffer(io.lancetrino.file.proto.encodings.ConstantLayout layout, int buffers)
    {
        return !layout.hasInlineValue() && buffers % 2 == 1;
    }

    static Slice variableWidth(String where, Slice buffer)
    {
        if (buffer.length() < 12 || buffer.getInt(0) != 2) {
            throw new UnsupportedLanceEncodingException(where + ": constant value of a layout other than offsets and bytes");
        }
        int offsetsSize = buffer.getInt(4);
        int bytesSize = buffer.getInt(8);
        int offsetWidth = offsetsSize / 2;
        if (offsetWidth != Integer.BYTES && offsetWidth != Long.BYTES || offsetsSize % 2 != 0) {
            throw new IllegalStateException(where + ": constant value with %s bytes of offsets".formatted(offsetsSize));
        }
        int offsets = 12;
        long start = offsetWidth == Integer.BYTES ? buffer.getUnsignedInt(offsets) : buffer.getLong(offsets);
        long end = offsetWidth == Integer.BYTES ? buffer.getUnsignedInt(offsets + 4) : buffer.getLong(offsets + 8);
        if (start < 0 || end < start || end > bytesSize || 12 + offsetsSize + bytesSize > buffer.length()) {
            throw new IllegalStateException(where + ": constant value [%s, %s) outside its %s bytes".formatted(start, end, bytesSize));
        }
        return buffer.slice(offsets + offsetsSize + (int) start, (int) (end - start));
    }
}
