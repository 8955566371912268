package io.lancetrino.file.codec;

import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.BufferCompression;

import java.lang.ref.WeakReference;

import static java.lang.Math.toIntExact;

/**
 * Lance's general (lz4/zstd) buffer compression, each with the length prefix Lance writes in front. zstd through the
 * system's libzstd where it is installed ({@link NativeZstd}), else, like lz4, through aircompressor's Java codecs.
 * Decompressors keep state, so each thread has its own.
 */
public final class BufferDecompressor
{
    private static final ThreadLocal<Lz4Decompressor> LZ4 = ThreadLocal.withInitial(Lz4JavaDecompressor::new);
    private static final ThreadLocal<ZstdDecompressor> ZSTD = ThreadLocal.withInitial(ZstdJavaDecompressor::new);

    private static final ThreadLocal<RecentFrames> RECENT_FRAMES = ThreadLocal.withInitial(RecentFrames::new);

    private BufferDecompressor() {}

    public static Slice decompress(BufferCompression compression, Slice data)
    {
        return decompress(compression, data, NativeZstd.instance().isPresent());
    }

    static boolean nativeZstdAvailable()
    {
        return NativeZstd.instance().isPresent();
    }

    static Slice decompress(BufferCompression compression, Slice data, boolean nativeZstd)
    {
        RecentFrames recent = RECENT_FRAMES.get();
        Slice cached = recent.get(data);
        if (cached != null) {
            return cached;
        }
        Slice decompressed = decompressFrame(compression, data, nativeZstd);
        recent.put(data, decompressed);
        return decompressed;
    }

    private static Slice decompressFrame(BufferCompression compression, Slice data, boolean nativeZstd)
    {
        byte[] input = data.byteArray();
        int inputOffset = data.byteArrayOffset();
        return switch (compression.getScheme()) {
            // an LZ4 block prefixed with its u32 uncompressed size
            case COMPRESSION_ALGORITHM_LZ4 -> {
                int size = data.getInt(0);
                // LZ4 expands at most about 255 times: a larger size is a damaged prefix, not worth an allocation
                if (size < 0 || size > (data.length() - 4L) * 255 + 16) {
                    throw new IllegalStateException("LZ4 buffer of %s bytes claims %s bytes uncompressed".formatted(data.length(), size));
                }
                byte[] output = new byte[size];
                int written = LZ4.get().decompress(input, inputOffset + 4, data.length() - 4, output, 0, size);
                yield Slices.wrappedBuffer(output, 0, written);
            }
            // zstd frames (one, or several one after the other) prefixed with their u64 uncompressed size
            case COMPRESSION_ALGORITHM_ZSTD -> {
                long size = data.getLong(0);
                // frames record their content sizes: a prefix that disagrees is damaged, not worth an allocation
                long framesSize = ZstdFrames.contentSize(input, inputOffset + 8, data.length() - 8);
                if (size < 0 || size > Integer.MAX_VALUE - 16 || framesSize == ZstdFrames.DAMAGED || (framesSize >= 0 && framesSize != size)) {
                    throw new IllegalStateException("zstd buffer claims %s bytes uncompressed, its frames %s".formatted(size, framesSize));
                }
                byte[] output = new byte[toIntExact(size)];
                int written = decompressZstd(input, inputOffset + 8, data.length() - 8, output, 0, output.length, nativeZstd);
                if (written != size) {
                    throw new IllegalStateException("zstd buffer claims %s bytes uncompressed, its frames gave %s".formatted(size, written));
                }
                yield Slices.wrappedBuffer(output, 0, written);
            }
            default -> throw new UnsupportedLanceEncodingException("Buffer compression " + compression.getScheme());
        };
    }

    /**
     * Decompresses zstd frames without a length prefix into {@code output[outputOffset, outputOffset + outputLength)},
     * returning the bytes written.
     */
    static int decompressZstd(byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int outputLength)
    {
        return decompressZstd(input, inputOffset, inputLength, output, outputOffset, outputLength, nativeZstdAvailable());
    }

    private static int decompressZstd(byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int outputLength, boolean nativeZstd)
    {
        return nativeZstd
                ? NativeZstd.instance().orElseThrow().decompress(input, inputOffset, inputLength, output, outputOffset, outputLength)
                : ZSTD.get().decompress(input, inputOffset, inputLength, output, outputOffset, outputLength);
    }

    /**
     * The last frames this thread decompressed, by the identity of the bytes they came from. A chunk that straddles two
     * batches is decoded for each of them, and its frame (64 KiB of strings) is then decompressed once; every column of
     * a batch decodes in turn, so a few frames per column are kept. Page buffers are never written after they are read.
     */
    private static final class RecentFrames
    {
        private static final int SIZE = 16;
        private static final int MAX_FRAME_BYTES = 256 << 10;

        // weakly, so a finished read's page buffers are not kept alive by this cache
        @SuppressWarnings("unchecked")
        private final WeakReference<Object>[] bases = new WeakReference[SIZE];
        private final long[] offsets = new long[SIZE];
        private final int[] lengths = new int[SIZE];
        private final Slice[] frames = new Slice[SIZE];
        private int next;

        Slice get(Slice data)
        {
            Object base = data.byteArray();
            long offset = data.byteArrayOffset();
            int length = data.length();
            for (int i = 0; i < SIZE; i++) {
                if (bases[i] != null && bases[i].get() == base && offsets[i] == offset && lengths[i] == length) {
                    return frames[i];
                }
            }
            return null;
        }

        void put(Slice data, Slice frame)
        {
            if (frame.length() > MAX_FRAME_BYTES) {
                return;
            }
            bases[next] = new WeakReference<>(data.byteArray());
            offsets[next] = data.byteArrayOffset();
            lengths[next] = data.length();
            frames[next] = frame;
            next = (next + 1) % SIZE;
        }
    }
}
