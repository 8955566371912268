package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;

import java.util.Arrays;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Packs blocks of 1024 values the way Lance's FastLanes bit-packing lays them out: in words of T bits (8, 16, 32 or 64),
 * 1024 / T lanes side by side, with the eight 8-row groups of each lane interleaved. The exact inverse of the reader's
 * unpacker.
 */
final class FastLanesPacker
{
    static final int BLOCK_VALUES = 1024;
    private static final int[] FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

    private FastLanesPacker() {}

    /** The bits a block needs: the highest set bit of any of its values (0 when all are zero). */
    static int bitWidth(long[] values, int offset, int count, int wordBits)
    {
        long or = 0;
        for (int i = 0; i < count; i++) {
            or |= values[offset + i];
        }
        if (wordBits < 64) {
            or &= (1L << wordBits) - 1;
        }
        return 64 - Long.numberOfLeadingZeros(or);
    }

    static int packedBytes(int wordBits, int bitWidth)
    {
        return BLOCK_VALUES * bitWidth / 8;
    }

    /**
     * One block of inline bit-packing, as Lance writes it: a word of {@code wordBits} holding the block's bit width, then
     * the block of {@code values[offset, offset + 1024)} packed at that width; {@code words} is scratch of 1024 longs.
     */
    static Slice packInline(long[] values, int offset, int wordBits, long[] words)
    {
        int width = bitWidth(values, offset, BLOCK_VALUES, wordBits);
        int wordBytes = wordBits / 8;
        Slice output = Slices.allocate(wordBytes + packedBytes(wordBits, width));
        setWord(output, 0, wordBytes, width);
        pack(values, offset, wordBits, width, words, output, wordBytes);
        return output;
    }

    /**
     * Packs {@code values[offset, offset + 1024)} (low {@code wordBits} bits of each) at {@code bitWidth} bits into
     * {@code output} from byte {@code outputOffset}; {@code words} is scratch of at least 1024 longs.
     */
    static void pack(long[] values, int offset, int wordBits, int bitWidth, long[] words, Slice output, int outputOffset)
    {
        checkArgument(wordBits == 8 || wordBits == 16 || wordBits == 32 || wordBits == 64, "word width %s", wordBits);
        checkArgument(bitWidth >= 0 && bitWidth <= wordBits, "bit width %s for %s-bit words", bitWidth, wordBits);
        if (bitWidth == 0) {
            return;
        }
        int lanes = BLOCK_VALUES / wordBits;
        int wordCount = BLOCK_VALUES * bitWidth / wordBits;
        Arrays.fill(words, 0, wordCount, 0);
        long mask = bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
        long wordMask = wordBits == 64 ? -1L : (1L << wordBits) - 1;
        for (int row = 0; row < wordBits; row++) {
            int bit = row * bitWidth;
            int first = (bit / wordBits) * lanes;
            int shift = bit % wordBits;
            int base = offset + FL_ORDER[row / 8] * 16 + (row % 8) * 128;
            boolean straddles = shift + bitWidth > wordBits;
            int back = wordBits - shift;
            for (int lane = 0; lane < lanes; lane++) {
                long value = values[base + lane] & mask;
                words[first + lane] |= (value << shift) & wordMask;
                if (straddles) {
                    words[first + lanes + lane] |= value >>> back;
                }
            }
        }
        int wordBytes = wordBits / 8;
        for (int i = 0; i < wordCount; i++) {
            setWord(output, outputOffset + i * wordBytes, wordBytes, words[i]);
        }
    }

    private static void setWord(Slice output, int position, int wordBytes, long word)
    {
        switch (wordBytes) {
            case 1 -> output.setByte(position, (int) word);
            case 2 -> output.setShort(position, (int) word);
            case 4 -> output.setInt(position, (int) word);
            default -> output.setLong(position, word);
        }
    }
}
