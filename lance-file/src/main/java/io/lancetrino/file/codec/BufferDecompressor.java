package io.lancetrino.file.codec;

import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.airlift.compress.v3.zstd.ZstdDecompressor;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.BufferCompression;

import static java.lang.Math.toIntExact;

/**
 * Lance's general (lz4/zstd) buffer compression, each with the length prefix Lance writes in front. Uses aircompressor's
 * native libraries where the platform has them (as Trino's Parquet reader does), its Java code otherwise; decompressors
 * keep state, so each thread has its own.
 */
public final class BufferDecompressor
{
    private static final ThreadLocal<Lz4Decompressor> LZ4 = ThreadLocal.withInitial(Lz4Decompressor::create);
    private static final ThreadLocal<ZstdDecompressor> ZSTD = ThreadLocal.withInitial(ZstdDecompressor::create);

    private BufferDecompressor() {}

    public static Slice decompress(BufferCompression compression, Slice data)
    {
        byte[] input = data.byteArray();
        int inputOffset = data.byteArrayOffset();
        return switch (compression.getScheme()) {
            // an LZ4 block prefixed with its u32 uncompressed size
            case COMPRESSION_ALGORITHM_LZ4 -> {
                int size = data.getInt(0);
                checkSize(size, data);
                byte[] output = new byte[size];
                int written = LZ4.get().decompress(input, inputOffset + 4, data.length() - 4, output, 0, size);
                yield Slices.wrappedBuffer(output, 0, written);
            }
            // a zstd frame prefixed with its u64 uncompressed size
            case COMPRESSION_ALGORITHM_ZSTD -> {
                long size = data.getLong(0);
                checkSize(size, data);
                byte[] output = new byte[toIntExact(size)];
                int written = ZSTD.get().decompress(input, inputOffset + 8, data.length() - 8, output, 0, output.length);
                yield Slices.wrappedBuffer(output, 0, written);
            }
            default -> throw new UnsupportedLanceEncodingException("Buffer compression " + compression.getScheme());
        };
    }

    // neither codec expands data more than 255 times (lz4) or about 2^17 times (zstd's largest frames); a larger
    // claimed size is a corrupt prefix, refused before allocating it
    private static void checkSize(long size, Slice data)
    {
        if (size < 0 || size > Integer.MAX_VALUE - 16 || size > (data.length() + 64L) * 32_768) {
            throw new IllegalStateException("compressed buffer of %s bytes claims %s bytes uncompressed".formatted(data.length(), size));
        }
    }
}
