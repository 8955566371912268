package io.lancetrino.file.codec;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every word width and bit width against a packer written straight from the layout rule (value of (row, lane) at
 * logical index FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane, its bits in lane words LANES * word + lane), so
 * widths the SDK files happen not to use are covered too.
 */
class TestFastLanesUnpacker
{
    private static final int[] FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

    @Test
    void unpacksEveryWidth()
    {
        Random random = new Random(13);
        for (int wordBits : new int[] {8, 16, 32, 64}) {
            for (int bitWidth = 0; bitWidth <= wordBits; bitWidth++) {
                long[] values = new long[1024];
                long mask = bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
                for (int i = 0; i < values.length; i++) {
                    values[i] = random.nextLong() & mask;
                }
                Slice packed = pack(values, wordBits, bitWidth, 3);
                long[] out = new long[1024 + 5];
                FastLanesUnpacker.unpack(packed, 3, wordBits, bitWidth, out, 5);
                for (int i = 0; i < 1024; i++) {
                    assertThat(out[5 + i]).as("u%s width %s value %s", wordBits, bitWidth, i).isEqualTo(values[i]);
                }
            }
        }
    }

    @Test
    void decodesInlineBlocksWithTheirOwnWidths()
    {
        // two blocks, 3 and 9 bits wide, the second one padded past the 1500 values asked for
        long[] values = new long[2048];
        for (int i = 0; i < values.length; i++) {
            values[i] = i < 1024 ? i % 8 : i % 512;
        }
        long[] first = new long[1024];
        long[] second = new long[1024];
        System.arraycopy(values, 0, first, 0, 1024);
        System.arraycopy(values, 1024, second, 0, 1024);
        Slice block1 = pack(first, 16, 3, 0);
        Slice block2 = pack(second, 16, 9, 0);
        Slice data = Slices.allocate(2 + block1.length() + 2 + block2.length());
        data.setShort(0, 3);
        data.setBytes(2, block1);
        data.setShort(2 + block1.length(), 9);
        data.setBytes(4 + block1.length(), block2);
        long[] decoded = Bitpacking.decodeInline(data, 16, 1500);
        for (int i = 0; i < 1500; i++) {
            assertThat(decoded[i]).as("value %s", i).isEqualTo(values[i]);
        }
    }

    private static Slice pack(long[] values, int wordBits, int bitWidth, int offset)
    {
        int lanes = 1024 / wordBits;
        int wordBytes = wordBits / 8;
        long[] words = new long[1024 * bitWidth / wordBits];
        for (int lane = 0; lane < lanes; lane++) {
            for (int row = 0; row < wordBits; row++) {
                long value = values[FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane];
                for (int bit = 0; bit < bitWidth; bit++) {
                    if ((value >>> bit & 1) != 0) {
                        int position = row * bitWidth + bit;
                        words[lanes * (position / wordBits) + lane] |= 1L << (position % wordBits);
                    }
                }
            }
        }
        Slice slice = Slices.allocate(offset + words.length * wordBytes);
        for (int i = 0; i < words.length; i++) {
            switch (wordBits) {
                case 8 -> slice.setByte(offset + i, (int) words[i]);
                case 16 -> slice.setShort(offset + i * 2, (int) words[i]);
                case 32 -> slice.setInt(offset + i * 4, (int) words[i]);
                default -> slice.setLong(offset + i * 8, words[i]);
            }
        }
        return slice;
    }
}
