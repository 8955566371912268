package io.lancetrino.file.codec;

import io.airlift.compress.v3.lz4.Lz4JavaDecompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.BufferCompression;

import static java.lang.Math.toIntExact;

/** Lance's general (lz4/zstd) buffer compression, each with the length prefix Lance writes in front. */
public final class BufferDecompressor
{
    private BufferDecompressor() {}

    public static Slice decompress(BufferCompression compression, Slice data)
    {
        byte[] input = data.getBytes();
        return switch (compression.getScheme()) {
            // an LZ4 block prefixed with its u32 uncompressed size
            case COMPRESSION_ALGORITHM_LZ4 -> {
                int size = data.getInt(0);
                byte[] output = new byte[size];
                int written = new Lz4JavaDecompressor().decompress(input, 4, input.length - 4, output, 0, size);
                yield Slices.wrappedBuffer(output, 0, written);
            }
            // a zstd frame prefixed with its u64 uncompressed size
            case COMPRESSION_ALGORITHM_ZSTD -> {
                int size = toIntExact(data.getLong(0));
                byte[] output = new byte[size];
                int written = new ZstdJavaDecompressor().decompress(input, 8, input.length - 8, output, 0, size);
                yield Slices.wrappedBuffer(output, 0, written);
            }
            default -> throw new UnsupportedLanceEncodingException("Buffer compression " + compression.getScheme());
        };
    }
}
