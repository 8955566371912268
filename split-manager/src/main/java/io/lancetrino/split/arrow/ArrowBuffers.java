package io.lancetrino.split.arrow;

import io.trino.spi.TrinoException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Optional;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static java.lang.String.format;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Bulk copies out of Arrow buffers (always little-endian) into heap arrays, and validity bitmaps in Trino's layout.
 * <p>
 * Trino's block bitmaps have the same layout as Arrow's: 64-bit words, bit {@code i & 63} of word {@code i >>> 6},
 * set when position {@code i} is <em>valid</em> ({@code LongArrayBlock.isNull} is {@code !Bitmap.isSet}).
 */
final class ArrowBuffers
{
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LITTLE_ENDIAN);

    private ArrowBuffers() {}

    /**
     * Validity words for the first {@code count} positions ANDed with {@code parentValid} (may be null), or null when
     * every position is valid. Bits past {@code count} are clear.
     */
    static long[] validity(ValueVector vector, int count, long[] parentValid)
    {
        if (count == 0) {
            return null;
        }
        int words = wordCount(count);
        long[] valid;
        ArrowBuf buffer = vector.getValidityBuffer();
        if (buffer == null || buffer.capacity() == 0) {
            // no validity buffer at all means no nulls (Arrow C data allows omitting it)
            if (parentValid == null) {
                return null;
            }
            valid = new long[words];
            Arrays.fill(valid, -1L);
        }
        else {
            valid = readBits(buffer, count);
        }
        int tailBits = count & 63;
        if (tailBits != 0) {
            valid[words - 1] &= (1L << tailBits) - 1;
        }
        if (parentValid != null) {
            for (int i = 0; i < words; i++) {
                valid[i] &= parentValid[i];
            }
        }
        return allSet(valid, count) ? null : valid;
    }

    static Optional<long[]> optional(long[] valid)
    {
        return Optional.ofNullable(valid);
    }

    static boolean isNull(long[] valid, int position)
    {
        return valid != null && (valid[position >>> 6] & (1L << position)) == 0;
    }

    private static boolean allSet(long[] valid, int count)
    {
        int fullWords = count >>> 6;
        for (int i = 0; i < fullWords; i++) {
            if (valid[i] != -1L) {
                return false;
            }
        }
        int tailBits = count & 63;
        return tailBits == 0 || valid[fullWords] == (1L << tailBits) - 1;
    }

    static int wordCount(int bits)
    {
        return (bits + 63) >>> 6;
    }

    /**
     * Bit-packed LSB-first booleans (validity or BitVector values) as 64-bit words; bits past {@code count} are unspecified.
     */
    static long[] readBits(ArrowBuf buffer, int count)
    {
        long[] words = new long[wordCount(count)];
        long bytes = (count + 7L) >>> 3;
        MemorySegment segment = segment(buffer, 0, bytes);
        int fullWords = (int) (bytes >>> 3);
        MemorySegment.copy(segment, LONG, 0, words, 0, fullWords);
        for (long offset = fullWords * 8L; offset < bytes; offset++) {
            words[fullWords] |= (segment.get(ValueLayout.JAVA_BYTE, offset) & 0xFFL) << ((offset & 7) * 8);
        }
        return words;
    }

    static byte[] readBytes(ArrowBuf buffer, long offset, int count)
    {
        byte[] values = new byte[count];
        MemorySegment.copy(segment(buffer, offset, count), ValueLayout.JAVA_BYTE, 0, values, 0, count);
        return values;
    }

    static short[] readShorts(ArrowBuf buffer, int count)
    {
        short[] values = new short[count];
        MemorySegment.copy(segment(buffer, 0, count * 2L), SHORT, 0, values, 0, count);
        return values;
    }

    static int[] readInts(ArrowBuf buffer, int count)
    {
        int[] values = new int[count];
        MemorySegment.copy(segment(buffer, 0, count * 4L), INT, 0, values, 0, count);
        return values;
    }

    static long[] readLongs(ArrowBuf buffer, int count)
    {
        long[] values = new long[count];
        MemorySegment.copy(segment(buffer, 0, count * 8L), LONG, 0, values, 0, count);
        return values;
    }

    private static MemorySegment segment(ArrowBuf buffer, long offset, long length)
    {
        if (length == 0) {
            return MemorySegment.NULL;
        }
        if (offset < 0 || buffer.capacity() < offset + length) {
            throw new TrinoException(LANCE_BAD_DATA, format("Arrow buffer has %s bytes, expected at least %s", buffer.capacity(), offset + length));
        }
        return MemorySegment.ofAddress(buffer.memoryAddress() + offset).reinterpret(length);
    }
}
