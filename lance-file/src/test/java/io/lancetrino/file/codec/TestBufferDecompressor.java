package io.lancetrino.file.codec;

import io.airlift.compress.v3.zstd.ZstdCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.BufferCompression;
import io.lancetrino.file.proto.encodings.CompressionScheme;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The native and the Java zstd paths decode the same frames to the same bytes, and a damaged frame is an error on
 * both, never a crash or a silent short buffer. Lance's own zstd pages are compared with the SDK in
 * {@code TestDifferentialDecoding}.
 */
class TestBufferDecompressor
{
    private static final BufferCompression ZSTD = BufferCompression.newBuilder().setScheme(CompressionScheme.COMPRESSION_ALGORITHM_ZSTD).build();

    @Test
    void nativeZstdIsUsedOnLinux()
    {
        // libzstd is part of every Linux distribution's base system; without it the fast path would silently go untested
        if (System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            assertThat(BufferDecompressor.nativeZstdAvailable()).isTrue();
        }
    }

    @Test
    void nativeAndJavaZstdAgree()
    {
        Random random = new Random(31);
        for (int size : new int[] {0, 1, 7, 100, 4096, 65536, 1_000_000}) {
            byte[] original = new byte[size];
            for (int i = 0; i < size; i++) {
                // runs and repeats, as bit-packed and string chunks have
                original[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt() : i / 13 % 7);
            }
            Slice frame = lanceFrame(original);
            byte[] javaDecoded = bytes(BufferDecompressor.decompress(ZSTD, frame, false));
            assertThat(javaDecoded).as("java, %s bytes", size).isEqualTo(original);
            if (BufferDecompressor.nativeZstdAvailable()) {
                assertThat(bytes(BufferDecompressor.decompress(ZSTD, frame, true))).as("native, %s bytes", size).isEqualTo(original);
                // at an offset inside a larger array, as buffers sliced out of a page are
                byte[] padded = new byte[frame.length() + 20];
                frame.getBytes(0, padded, 11, frame.length());
                assertThat(bytes(BufferDecompressor.decompress(ZSTD, Slices.wrappedBuffer(padded, 11, frame.length()), true))).isEqualTo(original);
            }
        }
    }

    @Test
    void damagedFramesAreErrors()
    {
        byte[] original = new byte[50_000];
        new Random(5).nextBytes(original);
        Arrays.fill(original, 10_000, original.length, (byte) 3);
        Slice frame = lanceFrame(original);
        Slice truncated = frame.slice(0, frame.length() - 5);
        byte[] garbled = frame.getBytes();
        for (int i = 20; i < garbled.length; i += 3) {
            garbled[i] ^= 0x5A;
        }
        for (boolean nativeZstd : nativeZstdAvailable()) {
            assertThatThrownBy(() -> BufferDecompressor.decompress(ZSTD, truncated, nativeZstd)).as("truncated, native %s", nativeZstd)
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> BufferDecompressor.decompress(ZSTD, Slices.wrappedBuffer(garbled), nativeZstd)).as("garbled, native %s", nativeZstd)
                    .isInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void framesOneAfterTheOtherDecodeAsOneBuffer()
    {
        // as the Java writer compresses a chunk of strings: its offsets and its bytes as two frames
        byte[] offsets = new byte[8_000];
        byte[] text = "the quick brown fox jumps over the lazy dog; ".repeat(1_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i < offsets.length; i += 4) {
            int offset = i * 7;
            offsets[i] = (byte) offset;
            offsets[i + 1] = (byte) (offset >>> 8);
        }
        byte[] first = frame(offsets);
        byte[] second = frame(text);
        byte[] buffer = new byte[8 + first.length + second.length];
        Slice data = Slices.wrappedBuffer(buffer);
        data.setLong(0, offsets.length + text.length);
        data.setBytes(8, first);
        data.setBytes(8 + first.length, second);
        byte[] expected = new byte[offsets.length + text.length];
        System.arraycopy(offsets, 0, expected, 0, offsets.length);
        System.arraycopy(text, 0, expected, offsets.length, text.length);
        assertThat(ZstdFrames.contentSize(buffer, 8, buffer.length - 8)).isEqualTo(expected.length);
        for (boolean nativeZstd : nativeZstdAvailable()) {
            assertThat(bytes(BufferDecompressor.decompress(ZSTD, data, nativeZstd))).as("native %s", nativeZstd).isEqualTo(expected);

            // a prefix that disagrees with the frames' sizes is refused before anything is allocated for it
            for (long claimed : new long[] {expected.length - 1, expected.length + 1, offsets.length, Integer.MAX_VALUE - 100}) {
                Slice damaged = Slices.wrappedBuffer(buffer.clone());
                damaged.setLong(0, claimed);
                assertThatThrownBy(() -> BufferDecompressor.decompress(ZSTD, damaged, nativeZstd))
                        .as("claims %s, native %s", claimed, nativeZstd)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("its frames " + expected.length);
            }
        }
        // a second frame cut short, or bytes after the last frame that are no frame, do not parse
        assertThat(ZstdFrames.contentSize(buffer, 8, buffer.length - 9)).isEqualTo(ZstdFrames.DAMAGED);
        byte[] trailing = Arrays.copyOf(buffer, buffer.length + 2);
        assertThat(ZstdFrames.contentSize(trailing, 8, trailing.length - 8)).isEqualTo(ZstdFrames.DAMAGED);
        // skippable frames (which the format allows, and no Lance writer makes) count for nothing
        byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3};
        byte[] withSkippable = new byte[buffer.length + skippable.length];
        System.arraycopy(buffer, 0, withSkippable, 0, 8 + first.length);
        System.arraycopy(skippable, 0, withSkippable, 8 + first.length, skippable.length);
        System.arraycopy(second, 0, withSkippable, 8 + first.length + skippable.length, second.length);
        assertThat(ZstdFrames.contentSize(withSkippable, 8, withSkippable.length - 8)).isEqualTo(expected.length);
    }

    private static byte[] frame(byte[] original)
    {
        ZstdCompressor compressor = ZstdCompressor.create(9);
        byte[] compressed = new byte[compressor.maxCompressedLength(original.length)];
        return Arrays.copyOf(compressed, compressor.compress(original, 0, original.length, compressed, 0, compressed.length));
    }

    private static boolean[] nativeZstdAvailable()
    {
        return BufferDecompressor.nativeZstdAvailable() ? new boolean[] {false, true} : new boolean[] {false};
    }

    /** A zstd frame behind the u64 uncompressed size Lance writes in front. */
    private static Slice lanceFrame(byte[] original)
    {
        ZstdCompressor compressor = new ZstdJavaCompressor();
        byte[] compressed = new byte[8 + compressor.maxCompressedLength(original.length)];
        int length = compressor.compress(original, 0, original.length, compressed, 8, compressed.length - 8);
        Slice frame = Slices.wrappedBuffer(compressed, 0, 8 + length);
        frame.setLong(0, original.length);
        return frame;
    }

    private static byte[] bytes(Slice slice)
    {
        return slice.getBytes();
    }
}
