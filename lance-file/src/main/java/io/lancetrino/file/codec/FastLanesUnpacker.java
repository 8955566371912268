package io.lancetrino.file.codec;

import io.airlift.slice.Slice;

import java.util.Arrays;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Unpacking of Lance's FastLanes bit-packing: blocks of 1024 values of an unsigned word type of T bits.
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
    private static final ThreadLocal<int[]> INT_VALUES = ThreadLocal.withInitial(() -> new int[BLOCK_VALUES]);

    // 32- and 64-bit words unpack with the Vector API where Trino's JVM has its module (Trino needs it too)
    private static final boolean VECTORS = vectorsUsable();

    private FastLanesUnpacker() {}

    private static boolean vectorsUsable()
    {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return false;
        }
        try {
            return VectorUnpacker.usable();
        }
        catch (LinkageError e) {
            return false;
        }
    }

    /** Where a row's first lane goes in the block: Lance's (FastLanes') interleaving of the eight 8-row groups. */
    static int rowStart(int row)
    {
        return FL_ORDER[row >>> 3] * 16 + (row & 7) * 128;
    }

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
        checkWidths(wordBits, bitWidth);
        if (bitWidth == 0) {
            Arrays.fill(out, outOffset, outOffset + BLOCK_VALUES, 0);
            return;
        }
        if (wordBits < 64) {
            // narrower words unpack as ints, then widen
            int[] values = INT_VALUES.get();
            unpackNarrow(packed, offset, wordBits, bitWidth, values, 0);
            for (int i = 0; i < BLOCK_VALUES; i++) {
                out[outOffset + i] = values[i] & 0xFFFF_FFFFL;
            }
            return;
        }
        long[] scratch = LONG_SCRATCH.get();
        packed.getLongs(offset, scratch, 0, packedWords(wordBits, bitWidth));
        if (VECTORS) {
            VectorUnpacker.unpackLongs(scratch, bitWidth, out, outOffset);
        }
        else {
            unpackLongs(scratch, bitWidth, out, outOffset);
        }
    }

    /**
     * As {@link #unpack(Slice, int, int, int, long[], int)} for words of at most 32 bits, into ints: values of 32-bit
     * types and dictionary ids go to Trino blocks as ints, so they never pass through longs.
     */
    public static void unpack(Slice packed, int offset, int wordBits, int bitWidth, int[] out, int outOffset)
    {
        checkWidths(wordBits, bitWidth);
        checkArgument(wordBits <= 32, "%s-bit words do not unpack into ints", wordBits);
        if (bitWidth == 0) {
            Arrays.fill(out, outOffset, outOffset + BLOCK_VALUES, 0);
            return;
        }
        unpackNarrow(packed, offset, wordBits, bitWidth, out, outOffset);
    }

    private static void checkWidths(int wordBits, int bitWidth)
    {
        checkArgument(wordBits == 8 || wordBits == 16 || wordBits == 32 || wordBits == 64, "word width %s", wordBits);
        checkArgument(bitWidth >= 0 && bitWidth <= wordBits, "bit width %s for %s-bit words", bitWidth, wordBits);
    }

    private static void unpackNarrow(Slice packed, int offset, int wordBits, int bitWidth, int[] out, int outOffset)
    {
        int words = packedWords(wordBits, bitWidth);
        int[] scratch = INT_SCRATCH.get();
        switch (wordBits) {
            case 32 -> packed.getInts(offset, scratch, 0, words);
            case 16 -> {
                for (int i = 0; i < words; i++) {
                    scratch[i] = packed.getUnsignedShort(offset + i * 2);
                }
            }
            default -> {
                for (int i = 0; i < words; i++) {
                    scratch[i] = packed.getUnsignedByte(offset + i);
                }
            }
        }
        if (wordBits == 32 && VECTORS) {
            VectorUnpacker.unpackInts(scratch, bitWidth, out, outOffset);
        }
        else {
            unpackInts(scratch, wordBits, bitWidth, out, outOffset);
        }
    }

    /**
     * The row's values of all lanes are adjacent both in the packed words and in the output, so the inner loop runs over
     * lanes with one shift for all of them (C2 does not vectorize it; {@link VectorUnpacker} does this with vectors where
     * it can). Words narrower than 32 bits are zero-extended in {@code words}, so shifting left past them needs the word
     * mask.
     */
    static void unpackInts(int[] words, int wordBits, int bitWidth, int[] out, int outOffset)
    {
        int lanes = BLOCK_VALUES / wordBits;
        int mask = bitWidth == 32 ? -1 : (1 << bitWidth) - 1;
        int wordMask = wordBits == 32 ? -1 : (1 << wordBits) - 1;
        for (int row = 0; row < wordBits; row++) {
            int bit = row * bitWidth;
            int first = (bit / wordBits) * lanes;
            int shift = bit % wordBits;
            int base = outOffset + rowStart(row);
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

    /** As {@link #unpackInts} for 64-bit words. */
    static void unpackLongs(long[] words, int bitWidth, long[] out, int outOffset)
    {
        int lanes = BLOCK_VALUES / 64;
        long mask = bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
        for (int row = 0; row < 64; row++) {
            int bit = row * bitWidth;
            int first = (bit / 64) * lanes;
            int shift = bit % 64;
            int base = outOffset + rowStart(row);
            if (shift + bitWidth <= 64) {
                for (int lane = 0; lane < lanes; lane++) {
                    out[base + lane] = (words[first + lane] >>> shift) & mask;
                }
            }
            else {
                int second = first + lanes;
                int back = 64 - shift;
                for (int lane = 0; lane < lanes; lane++) {
                    out[base + lane] = ((words[first + lane] >>> shift) | (words[second + lane] << back)) & mask;
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
