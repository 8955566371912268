package io.lancetrino.file.codec;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.protobuf.ByteString;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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
    private static final Cache<ByteString, FsstDecoder> DECODERS = CacheBuilder.newBuilder().weakKeys().maximumSize(4096).build();
    private static final VarHandle LITTLE_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long[] symbols = new long[256];
    private final int[] lengths = new int[256];
    // tiny inputs are stored as they are, with compression switched off in the header
    private final boolean enabled;

    /**
     * The decoder of a symbol table from a file's metadata. Every chunk of a page names the same table, so decoders are
     * kept per table instance (compared by identity) while the metadata holding it lives.
     */
    public static FsstDecoder of(ByteString table)
    {
        FsstDecoder decoder = DECODERS.getIfPresent(table);
        if (decoder == null) {
            decoder = new FsstDecoder(table.toByteArray());
            DECODERS.put(table, decoder);
        }
        return decoder;
    }

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
        int[] offsets = new int[compressed.count() + 1];
        VariableOutput output = new VariableOutput(compressed.count());
        decompressInto(compressed, 0, compressed.count(), output, offsets, 0, null);
        return new VariableValues(output.slice(), offsets);
    }

    /**
     * Decompresses values {@code [first, last)} straight into {@code output}, setting {@code offsets[out + k + 1]} for
     * the k-th of them; values marked null keep no bytes.
     */
    public void decompressInto(VariableValues compressed, int first, int last, VariableOutput output, int[] offsets, int out, boolean[] nulls)
    {
        if (!enabled) {
            output.append(compressed, first, last, offsets, out, nulls);
            return;
        }
        int[] inputOffsets = compressed.offsets();
        Slice data = compressed.data();
        byte[] input = data.byteArray();
        int inputBase = data.byteArrayOffset();
        // the exact size first, so the output grows once per chunk; every symbol is then written as a whole 8-byte word
        int decompressed = 0;
        for (int position = inputBase + inputOffsets[first], end = inputBase + inputOffsets[last]; position < end; ) {
            int code = input[position++] & 0xFF;
            if (code == ESCAPE) {
                position++;
                decompressed++;
            }
            else {
                decompressed += lengths[code];
            }
        }
        int written = output.size();
        byte[] bytes = output.reserve(decompressed + 8, last - first);
        for (int i = first; i < last; i++) {
            int target = out + i - first;
            int position = inputBase + inputOffsets[i];
            int end = inputBase + inputOffsets[i + 1];
            if (nulls != null && nulls[target]) {
                offsets[target + 1] = written;
                continue;
            }
            while (position < end) {
                int code = input[position++] & 0xFF;
                if (code == ESCAPE) {
                    bytes[written++] = input[position++];
                }
                else {
                    LITTLE_ENDIAN_LONGS.set(bytes, written, symbols[code]);
                    written += lengths[code];
                }
            }
            offsets[target + 1] = written;
        }
        output.setSize(written);
    }
}
