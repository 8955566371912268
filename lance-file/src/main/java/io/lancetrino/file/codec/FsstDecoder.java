package io.lancetrino.file.codec;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;

/**
 * FSST decompression with Lance's serialized symbol table (a fixed 2,312 bytes): a u64 header ("FSST" in the high half,
 * the symbol count in the low byte, bit 24 set when compression is on), the symbols as one little-endian u64 each,
 * then right after them one length byte per symbol. Code 255 escapes: the next byte is a literal.
 */
public final class FsstDecoder
{
    private static final int TABLE_SIZE = 8 + 256 * 8 + 256;
    private static final int ESCAPE = 255;

    private static final long MAGIC = 0x46535354L << 32;

    private final long[] symbols = new long[256];
    private final int[] lengths = new int[256];
    // tiny inputs are stored as they are, with compression switched off in the header
    private final boolean enabled;

    public FsstDecoder(byte[] table)
    {
        if (table.length != TABLE_SIZE) {
            throw new UnsupportedLanceEncodingException("FSST symbol table of %s bytes".formatted(table.length));
        }
        Slice slice = Slices.wrappedBuffer(table);
        long header = slice.getLong(0);
        if ((header & MAGIC) != MAGIC) {
            throw new UnsupportedLanceEncodingException("FSST symbol table without its magic");
        }
        enabled = (header & (1L << 24)) != 0;
        int symbolCount = (int) (header & 0xFF);
        for (int code = 0; code < symbolCount; code++) {
            symbols[code] = slice.getLong(8 + code * 8);
            lengths[code] = slice.getUnsignedByte(8 + symbolCount * 8 + code);
        }
    }

    /** Decompresses every value; offsets stay relative to the output. */
    public VariableValues decompress(VariableValues compressed)
    {
        if (!enabled) {
            return compressed;
        }
        int count = compressed.count();
        int[] offsets = new int[count + 1];
        DynamicSliceOutput output = new DynamicSliceOutput(compressed.data().length() * 3);
        Slice data = compressed.data();
        for (int i = 0; i < count; i++) {
            int end = compressed.offsets()[i + 1];
            for (int position = compressed.offsets()[i]; position < end; position++) {
                int code = data.getUnsignedByte(position);
                if (code == ESCAPE) {
                    position++;
                    output.writeByte(data.getUnsignedByte(position));
                }
                else {
                    long symbol = symbols[code];
                    for (int b = 0; b < lengths[code]; b++) {
                        output.writeByte((int) (symbol >>> (8 * b)) & 0xFF);
                    }
                }
            }
            offsets[i + 1] = output.size();
        }
        return new VariableValues(output.slice(), offsets);
    }
}
