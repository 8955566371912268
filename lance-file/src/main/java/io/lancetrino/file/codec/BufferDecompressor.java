package io.lancetrino.file.codec;

import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.BufferCompression;

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
            // a zstd frame prefixed with its u64 uncompressed size
            case COMPRESSION_ALGORITHM_ZSTD -> {
                long size = data.getLong(0);
                ZstdDecompressor decompressor = ZSTD.get();
                // the frame records its own content size: a prefix that disagrees is damaged, not worth an allocation
                long frameSize = decompressor.getDecompressedSize(input, inputOffset + 8, data.length() - 8);
                if (size < 0 || size > Integer.MAX_VALUE - 16 || (frameSize >= 0 && frameSize != size)) {
                    throw new IllegalStateException("zstd buffer claims %s bytes uncompressed, its frame %s".formatted(size, frameSize));
                }
                byte[] output = new byte[toIntExact(size)];
                int written = nativeZstd
                        ? NativeZstd.instance().orElseThrow().decompress(input, inputOffset + 8, data.length() - 8, output, 0, output.length)
                        : decompressor.decompress(input, inputOffset + 8, data.length() - 8, output, 0, output.length);
                yield Slices.wrappedBuffer(output, 0, written);
            }
            default -> throw new UnsupportedLanceEncodingException("Buffer compression " + compression.getScheme());
        };
    }
}
