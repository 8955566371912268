package io.lancetrino.file.writer;

import com.google.protobuf.ByteString;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.ConstantLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.RepDefLayer;

import java.util.List;

/**
 * Pages without a buffer, as Lance writes them for a top-level flat column: every value NULL (formats 2.1 and 2.2), or
 * every value the same fixed-width value, kept in the layout itself (format 2.2). A reader returns the value (or NULL)
 * for any row without reading the file.
 */
final class ConstantPages
{
    private ConstantPages() {}

    static boolean allNull(boolean[] nulls, int count)
    {
        for (int i = 0; i < count; i++) {
            if (!nulls[i]) {
                return false;
            }
        }
        return count > 0;
    }

    static EncodedPage allNull(int rows)
    {
        ConstantLayout layout = ConstantLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).build();
        return new EncodedPage(rows, List.of(), PageLayout.newBuilder().setConstantLayout(layout).build());
    }

    /** Every row the value, its bytes little-endian as a chunk would hold it. */
    static EncodedPage constant(int rows, byte[] value)
    {
        ConstantLayout layout = ConstantLayout.newBuilder()
                .addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM)
                .setInlineValue(ByteString.copyFrom(value))
                .build();
        return new EncodedPage(rows, List.of(), PageLayout.newBuilder().setConstantLayout(layout).build());
    }

    /**
     * Every row the variable-width value, kept (as Lance keeps it) in the page's one buffer: a block of two buffers,
     * their count and sizes as u32, then the value's two offsets ({@code offsetBytes} wide) and its bytes.
     */
    static EncodedPage constantVariableWidth(int rows, Slice value, int offsetBytes)
    {
        Slice buffer = Slices.allocate(12 + 2 * offsetBytes + value.length());
        buffer.setInt(0, 2);
        buffer.setInt(4, 2 * offsetBytes);
        buffer.setInt(8, value.length());
        if (offsetBytes == Long.BYTES) {
            buffer.setLong(20, value.length());
        }
        else {
            buffer.setInt(16, value.length());
        }
        buffer.setBytes(12 + 2 * offsetBytes, value);
        ConstantLayout layout = ConstantLayout.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM).build();
        return new EncodedPage(rows, List.of(buffer), PageLayout.newBuilder().setConstantLayout(layout).build());
    }

    /** The low {@code bytes} bytes of the value, little-endian. */
    static byte[] littleEndian(long value, int bytes)
    {
        byte[] result = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            result[i] = (byte) (value >>> (8 * i));
        }
        return result;
    }
}
