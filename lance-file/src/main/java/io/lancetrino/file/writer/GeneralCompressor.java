package io.lancetrino.file.writer;

import io.airlift.compress.v3.Compressor;
import io.airlift.compress.v3.lz4.Lz4Compressor;
import io.airlift.compress.v3.zstd.ZstdCompressor;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.BufferCompression;
import io.lancetrino.file.proto.encodings.CompressionScheme;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.General;

import static java.util.Objects.requireNonNull;

/**
 * Lance's general compression of one buffer: a zstd frame after its u64 uncompressed length, or an LZ4 block after its
 * u32 uncompressed length, as Lance's readers expect them. One instance per writer: compressors keep state.
 */
final class GeneralCompressor
{
    private final BufferCompression compression;
    private final Compressor compressor;
    private final int prefixBytes;
    // zstd levels at which the library parses optimally and takes 3-byte matches (strategy btopt and above)
    private static final int OPTIMAL_PARSING_LEVEL = 14;
    private byte[] scratch = new byte[0];

    private GeneralCompressor(BufferCompression compression, Compressor compressor, int prefixBytes)
    {
        this.compression = requireNonNull(compression, "compression is null");
        this.compressor = requireNonNull(compressor, "compressor is null");
        this.prefixBytes = prefixBytes;
    }

    /** The compressor of fixed-width values the options ask for, or null for none. */
    static GeneralCompressor of(EncodingOptions options)
    {
        return of(options.compression(), options.zstdLevel());
    }

    /** The compressor of strings and binaries the options ask for, or null for none. */
    static GeneralCompressor forStrings(EncodingOptions options)
    {
        return of(options.compression(), options.stringZstdLevel());
    }

    private static GeneralCompressor of(EncodingOptions.Compression compression, int zstdLevel)
    {
        return switch (compression) {
            case NONE -> null;
            case LZ4 -> new GeneralCompressor(BufferCompression.newBuilder().setScheme(CompressionScheme.COMPRESSION_ALGORITHM_LZ4).build(), Lz4Compressor.create(), 4);
            case ZSTD -> new GeneralCompressor(
                    BufferCompression.newBuilder().setScheme(CompressionScheme.COMPRESSION_ALGORITHM_ZSTD).setLevel(zstdLevel).build(),
                    ZstdCompressor.create(zstdLevel),
                    8);
        };
    }

    /** Whether this is zstd at a level that parses optimally, where larger frames pay more than they do below it. */
    boolean parsesOptimally()
    {
        return compression.getScheme() == CompressionScheme.COMPRESSION_ALGORITHM_ZSTD && compression.getLevel() >= OPTIMAL_PARSING_LEVEL;
    }

    CompressiveEncoding wrap(CompressiveEncoding values)
    {
        return CompressiveEncoding.newBuilder().setGeneral(General.newBuilder().setCompression(compression).setValues(values)).build();
    }

    Slice compress(Slice data)
    {
        int bound = compressor.maxCompressedLength(data.length());
        if (scratch.length < bound) {
            scratch = new byte[bound];
        }
        int length = compressor.compress(data.byteArray(), data.byteArrayOffset(), data.length(), scratch, 0, bound);
        Slice result = Slices.allocate(prefixBytes + length);
        if (prefixBytes == 8) {
            result.setLong(0, data.length());
        }
        else {
            result.setInt(0, data.length());
        }
        result.setBytes(prefixBytes, scratch, 0, length);
        return result;
    }
}
