package io.lancetrino.file.codec;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestByteStreamSplit
{
    @Test
    void everyRangeOfSmallBuffersDecodesToTheValues()
    {
        Random random = new Random(3);
        for (int width : new int[] {4, 8}) {
            for (int values = 0; values <= 27; values++) {
                long[] expected = randomValues(random, values, width);
                // the buffer sits inside a larger array, as a slice of a chunk does
                byte[] bytes = split(expected, width, 5);
                for (int first = 0; first <= values; first++) {
                    for (int last = first; last <= values; last++) {
                        long[] decoded = new long[last - first + 3];
                        Arrays.fill(decoded, -7);
                        ByteStreamSplit.decodeInto(bytes, 5, values, width, first, last, decoded, 2);
                        assertThat(Arrays.copyOfRange(decoded, 2, 2 + last - first)).as("width %s, values %s, [%s, %s)", width, values, first, last)
                                .isEqualTo(Arrays.copyOfRange(expected, first, last));
                        assertThat(decoded[0]).isEqualTo(-7);
                        assertThat(decoded[decoded.length - 1]).isEqualTo(-7);
                        if (width == 4) {
                            int[] ints = new int[last - first + 3];
                            Arrays.fill(ints, -7);
                            ByteStreamSplit.decodeInto(bytes, 5, values, first, last, ints, 2);
                            assertThat(Arrays.stream(ints, 2, 2 + last - first).mapToLong(Integer::toUnsignedLong).toArray()).as("ints, values %s, [%s, %s)", values, first, last)
                                    .isEqualTo(Arrays.copyOfRange(expected, first, last));
                            assertThat(ints[0]).isEqualTo(-7);
                            assertThat(ints[ints.length - 1]).isEqualTo(-7);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aLargeChunkDecodesToTheValues()
    {
        Random random = new Random(4);
        for (int width : new int[] {4, 8}) {
            long[] expected = randomValues(random, 4099, width);
            long[] decoded = new long[4099];
            ByteStreamSplit.decodeInto(split(expected, width, 0), 0, 4099, width, 0, 4099, decoded, 0);
            assertThat(decoded).isEqualTo(expected);
        }
    }

    @Test
    void refusesOtherWidthsAndRangesOutsideTheBuffer()
    {
        assertThatThrownBy(() -> ByteStreamSplit.decodeInto(new byte[16], 0, 8, 2, 0, 8, new long[8], 0))
                .hasMessage("byte stream split of 2-byte values");
        assertThatThrownBy(() -> ByteStreamSplit.decodeInto(new byte[31], 0, 8, 4, 0, 8, new long[8], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ByteStreamSplit.decodeInto(new byte[32], 0, 8, 4, 0, 9, new long[9], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    private static long[] randomValues(Random random, int count, int width)
    {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            // every byte of every value differs, so a byte taken from the wrong plane or value shows
            values[i] = width == 8 ? random.nextLong() : random.nextLong() & 0xFFFF_FFFFL;
        }
        return values;
    }

    private static byte[] split(long[] values, int width, int base)
    {
        byte[] bytes = new byte[base + values.length * width + 3];
        for (int i = 0; i < values.length; i++) {
            for (int b = 0; b < width; b++) {
                bytes[base + b * values.length + i] = (byte) (values[i] >>> (8 * b));
            }
        }
        return bytes;
    }
}
