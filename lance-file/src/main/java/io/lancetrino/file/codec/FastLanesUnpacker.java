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

    // a block never packs into more than 1024 words; decoding threads reuse theirs
    private static final ThreadLocal<long[]> LONG_SCRATCH = ThreadLocal.withInitial(() -> new long[BLOCK_VALUES]);
    private static final ThreadLocal<int[]> INT_SCRATCH = ThreadLocal.withInitial(() -> new int[BLOCK_VALUES]);

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
        int words = packedWords(wordBits, bitWidth);
        if (wordBits == 32) {
            int[] scratch = INT_SCRATCH.get();
            packed.getInts(offset, scratch, 0, words);
            unpackInts(scratch, bitWidth, out, outOffset);
            return;
        }
        long[] scratch = LONG_SCRATCH.get();
        words(packed, offset, wordBits, words, scratch);
        unpackWords(scratch, wordBits, bitWidth, out, outOffset);
    }

    /** As {@link #unpackWords} for 32-bit words, read as unsigned without widening them first. */
    private static void unpackInts(int[] words, int bitWidth, long[] out, int outOffset)
    {
        int lanes = BLOCK_VALUES / 32;
        long mask = (1L << bitWidth) - 1;
        for (int row = 0; row < 32; row++) {
            int bit = row * bitWidth;
            int first = (bit >>> 5) * lanes;
            int shift = bit & 31;
            int base = outOffset + FL_ORDER[row >>> 3] * 16 + (row & 7) * 128;
            if (shift + bitWidth <= 32) {
                for (int lane = 0; lane < lanes; lane++) {
                    out[base + lane] = ((words[first + lane] & 0xFFFF_FFFFL) >>> shift) & mask;
                }
            }
            else {
                int second = first + lanes;
                int back = 32 - shift;
                for (int lane = 0; lane < lanes; lane++) {
                    out[base + lane] = (((words[first + lane] & 0xFFFF_FFFFL) >>> shift) | ((words[second + lane] & 0xFFFF_FFFFL) << back)) & mask;
                }
            }
        }
    }

    /**
     * The row's values of all lanes are adjacent both in the packed words and in the output, so the inner loop runs over
     * lanes with one shift for all of them, which the JIT turns into vector instructions.
     */
    private static void unpackWords(long[] words, int wordBits, int bitWidth, long[] out, int outOffset)
    {
        int lanes = BLOCK_VALUES / wordBits;
        long mask = bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
        // a narrower word's high bits are zero in the widened array, so shifting left past them needs the word mask
        long wordMask = wordBits == 64 ? -1L : (1L << wordBits) - 1;
        for (int row = 0; row < wordBits; row++) {
            int bit = row * bitWidth;
            int first = (bit / wordBits) * lanes;
            int shift = bit % wordBits;
            int base = outOffset + FL_ORDER[row / 8] * 16 + (row % 8) * 128;
            if (shift + bitWidth <= wordBits) {
                for (int lane = 0; lane < lanes; lane++) {
                    out[base + lane] = (words[first + lane] >>> shift) & mask;
                }
            }
            else {
                // the value straddles two packed words of its lane
                int second = first + lanes;
                int back = wordBits - shift;
                for (int lane = 0; lane < lanes; lane++) {
                    out[base + lane] = ((words[first + lane] >>> shift) | ((words[second + lane] << back) & wordMask)) & mask;
                }
            }
        }
    }

    /** The block's packed words, zero-extended to longs. */
    private static void words(Slice packed, int offset, int wordBits, int count, long[] words)
    {
        switch (wordBits) {
            case 64 -> packed.getLongs(offset, words, 0, count);
            case 16 -> {
                for (int i = 0; i < count; i++) {
                    words[i] = packed.getUnsignedShort(offset + i * 2);
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    words[i] = packed.getUnsignedByte(offset + i);
                }
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
