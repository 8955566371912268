package io.lancetrino.file.codec;

import io.airlift.slice.Slice;

import java.util.Arrays;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Scalar unpacking of Lance's FastLanes bit-packing: blocks of 1024 values of an unsigned word type of T bits.
 * Each of the 1024/T lanes packs T values; the packed word for (row, lane) sits at {@code LANES * word + lane} and the
 * value of (row, lane) belongs at a transposed logical index, so unpacking yields the values in their original order.
 */
public final class FastLanesUnpacker
{
    public static final int BLOCK_VALUES = 1024;
    // Lance's (FastLanes') interleaving of the eight 8-row groups
    private static final int[] FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

    private FastLanesUnpacker() {}

    /** Packed words one block of {@code bitWidth}-bit values takes, in words of {@code wordBits}. */
    public static int packedWords(int wordBits, int bitWidth)
    {
        return BLOCK_VALUES * bitWidth / wordBits;
    }

    /**
     * Unpacks one block of 1024 values of {@code bitWidth} bits from words of {@code wordBits} (8/16/32/64) that start at
     * byte {@code offset} of {@code packed}; writes the values, zero-extended, to {@code out[outOffset..outOffset+1024)}.
     */
    public static void unpack(Slice packed, int offset, int wordBits, int bitWidth, long[] out, int outOffset)
    {
        checkArgument(wordBits == 8 || wordBits == 16 || wordBits == 32 || wordBits == 64, "word width %s", wordBits);
        checkArgument(bitWidth >= 0 && bitWidth <= wordBits, "bit width %s for %s-bit words", bitWidth, wordBits);
        if (bitWidth == 0) {
            Arrays.fill(out, outOffset, outOffset + BLOCK_VALUES, 0);
            return;
        }
        int lanes = BLOCK_VALUES / wordBits;
        int wordBytes = wordBits / 8;
        long mask = bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
        for (int lane = 0; lane < lanes; lane++) {
            for (int row = 0; row < wordBits; row++) {
                int bit = row * bitWidth;
                int word = bit / wordBits;
                int shift = bit % wordBits;
                long value = word(packed, offset + (lanes * word + lane) * wordBytes, wordBits) >>> shift;
                if (shift + bitWidth > wordBits) {
                    // the value straddles two packed words of this lane
                    value |= word(packed, offset + (lanes * (word + 1) + lane) * wordBytes, wordBits) << (wordBits - shift);
                }
                out[outOffset + FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane] = value & mask;
            }
        }
    }

    static long word(Slice slice, int position, int wordBits)
    {
        return switch (wordBits) {
            case 8 -> slice.getUnsignedByte(position);
            case 16 -> slice.getUnsignedShort(position);
            case 32 -> slice.getUnsignedInt(position);
            default -> slice.getLong(position);
        };
    }
}
