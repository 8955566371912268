package io.lancetrino.file.codec;

import io.airlift.slice.Slice;

import static io.lancetrino.file.codec.FastLanesUnpacker.BLOCK_VALUES;

/** The two bit-packing forms of Lance 2.1/2.2 built on FastLanes blocks. */
public final class Bitpacking
{
    private Bitpacking() {}

    /**
     * Inline bit-packing: each block of 1024 values starts with one word holding its bit width, then the packed words.
     * The last block is zero padded, so {@code count} may be less than the values present.
     */
    public static long[] decodeInline(Slice data, int wordBits, int count)
    {
        long[] padded = new long[roundUp(count)];
        int wordBytes = wordBits / 8;
        int position = 0;
        for (int block = 0; block * BLOCK_VALUES < count; block++) {
            int bitWidth = (int) FastLanesUnpacker.word(data, position, wordBits);
            position += wordBytes;
            FastLanesUnpacker.unpack(data, position, wordBits, bitWidth, padded, block * BLOCK_VALUES);
            position += FastLanesUnpacker.packedWords(wordBits, bitWidth) * wordBytes;
        }
        return padded;
    }

    /**
     * Decodes values {@code [first, last)} of an inline bit-packed buffer into {@code destination} from
     * {@code destinationOffset}: whole blocks are unpacked in place, only partial ones through a scratch block.
     */
    public static void decodeInlineInto(Slice data, int wordBits, int first, int last, long[] destination, int destinationOffset)
    {
        decodeInlineInto(data, wordBits, first, last, (Object) destination, destinationOffset);
    }

    /** As {@link #decodeInlineInto(Slice, int, int, int, long[], int)}, into ints, for words of at most 32 bits. */
    public static void decodeInlineInto(Slice data, int wordBits, int first, int last, int[] destination, int destinationOffset)
    {
        decodeInlineInto(data, wordBits, first, last, (Object) destination, destinationOffset);
    }

    // one walk over the blocks for both widths of destination: System.arraycopy takes either array
    private static void decodeInlineInto(Slice data, int wordBits, int first, int last, Object destination, int destinationOffset)
    {
        int wordBytes = wordBits / 8;
        int position = 0;
        Object scratch = null;
        for (int block = 0; block * BLOCK_VALUES < last; block++) {
            int bitWidth = (int) FastLanesUnpacker.word(data, position, wordBits);
            position += wordBytes;
            int blockStart = block * BLOCK_VALUES;
            int blockEnd = blockStart + BLOCK_VALUES;
            if (blockEnd > first) {
                if (blockStart >= first && blockEnd <= last) {
                    unpack(data, position, wordBits, bitWidth, destination, destinationOffset + blockStart - first);
                }
                else {
                    if (scratch == null) {
                        scratch = destination instanceof int[] ? new int[BLOCK_VALUES] : new long[BLOCK_VALUES];
                    }
                    unpack(data, position, wordBits, bitWidth, scratch, 0);
                    int from = Math.max(first, blockStart);
                    int to = Math.min(last, blockEnd);
                    System.arraycopy(scratch, from - blockStart, destination, destinationOffset + from - first, to - from);
                }
            }
            position += FastLanesUnpacker.packedWords(wordBits, bitWidth) * wordBytes;
        }
    }

    private static void unpack(Slice data, int position, int wordBits, int bitWidth, Object destination, int offset)
    {
        switch (destination) {
            case int[] ints -> FastLanesUnpacker.unpack(data, position, wordBits, bitWidth, ints, offset);
            case long[] longs -> FastLanesUnpacker.unpack(data, position, wordBits, bitWidth, longs, offset);
            default -> throw new IllegalArgumentException("destination " + destination.getClass());
        }
    }

    /**
     * Out-of-line bit-packing with one bit width for the buffer: full blocks are packed; the tail is either packed and
     * zero padded, or stored raw at full word width, which the buffer's length tells apart.
     */
    public static long[] decodeOutOfLine(Slice data, int wordBits, int bitWidth, int count)
    {
        long[] values = new long[roundUp(count)];
        int wordBytes = wordBits / 8;
        int blockBytes = FastLanesUnpacker.packedWords(wordBits, bitWidth) * wordBytes;
        int fullBlocks = count / BLOCK_VALUES;
        int tail = count % BLOCK_VALUES;
        for (int block = 0; block < fullBlocks; block++) {
            FastLanesUnpacker.unpack(data, block * blockBytes, wordBits, bitWidth, values, block * BLOCK_VALUES);
        }
        if (tail > 0) {
            int position = fullBlocks * blockBytes;
            if (data.length() - position == tail * wordBytes) {
                for (int i = 0; i < tail; i++) {
                    values[fullBlocks * BLOCK_VALUES + i] = FastLanesUnpacker.word(data, position + i * wordBytes, wordBits);
                }
            }
            else {
                FastLanesUnpacker.unpack(data, position, wordBits, bitWidth, values, fullBlocks * BLOCK_VALUES);
            }
        }
        return values;
    }

    private static int roundUp(int count)
    {
        return (count + BLOCK_VALUES - 1) / BLOCK_VALUES * BLOCK_VALUES;
    }
}
