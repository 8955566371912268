package io.lancetrino.file.codec;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
                if (wordBits <= 32) {
                    int[] ints = new int[1024 + 5];
                    FastLanesUnpacker.unpack(packed, 3, wordBits, bitWidth, ints, 5);
                    for (int i = 0; i < 1024; i++) {
                        assertThat(Integer.toUnsignedLong(ints[5 + i])).as("u%s width %s value %s as an int", wordBits, bitWidth, i).isEqualTo(values[i]);
                    }
                }
            }
        }
    }

    @Test
    void vectorAndScalarKernelsAgree()
    {
        // the tests run where the Vector API is usable, so the public unpack takes the vector kernels: the scalar ones,
        // for JVMs without it, are checked against them here
        assertThat(VectorUnpacker.usable()).isTrue();
        Random random = new Random(17);
        for (int bitWidth = 0; bitWidth <= 64; bitWidth++) {
            long[] longWords = random.longs(1024).toArray();
            long[] vector = new long[1024 + 3];
            long[] scalar = new long[1024 + 3];
            VectorUnpacker.unpackLongs(longWords, bitWidth, vector, 3);
            FastLanesUnpacker.unpackLongs(longWords, bitWidth, scalar, 3);
            assertThat(vector).as("64-bit words, width %s", bitWidth).isEqualTo(scalar);
            if (bitWidth <= 32) {
                int[] intWords = random.ints(1024).toArray();
                int[] vectorInts = new int[1024 + 3];
                int[] scalarInts = new int[1024 + 3];
                VectorUnpacker.unpackInts(intWords, bitWidth, vectorInts, 3);
                FastLanesUnpacker.unpackInts(intWords, 32, bitWidth, scalarInts, 3);
                assertThat(vectorInts).as("32-bit words, width %s", bitWidth).isEqualTo(scalarInts);
            }
        }
    }

    @Test
    void refusesWordsWiderThanAnInt()
    {
        assertThatThrownBy(() -> FastLanesUnpacker.unpack(Slices.allocate(8 * 1024), 0, 64, 40, new int[1024], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("64-bit words do not unpack into ints");
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
        // a range across the blocks, into both widths of destination: partial blocks go through a scratch block
        long[] longs = new long[1000 + 2];
        int[] ints = new int[1000 + 2];
        Bitpacking.decodeInlineInto(data, 16, 500, 1500, longs, 2);
        Bitpacking.decodeInlineInto(data, 16, 500, 1500, ints, 2);
        for (int i = 0; i < 1000; i++) {
            assertThat(longs[2 + i]).as("value %s as a long", 500 + i).isEqualTo(values[500 + i]);
            assertThat((long) ints[2 + i]).as("value %s as an int", 500 + i).isEqualTo(values[500 + i]);
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
