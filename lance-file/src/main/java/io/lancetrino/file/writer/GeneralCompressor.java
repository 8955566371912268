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
    // zstd levels at which the library parses optimally and takes 3-byte matches (strategy btopt and above) on inputs
    // of up to 128 KiB
    private static final int OPTIMAL_PARSING_LEVEL = 14;

    private final BufferCompression compression;
    private final Compressor compressor;
    private final int prefixBytes;
    // zstd only: the offsets in front of variable-width values get a frame of their own (made when first needed)
    private Compressor offsetsCompressor;
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
        return compress(data, 0);
    }

    /**
     * A chunk of variable-width values, {@code offsetsLength} bytes of offsets and then the values' bytes. With zstd they
     * become two frames one after the other under the one length prefix (zstd data may hold several frames, and Lance's
     * readers decompress them in one call): the increasing offsets at a level that parses optimally, since only its
     * 3-byte matches find their repeats, and the bytes at the column's level with entropy tables of their own. TPC-H
     * {@code l_comment}, 1 M values in 64 KiB chunks at level 9: 10.0 MB as one frame, 8.0 MB as two, for a quarter more
     * CPU on that column. LZ4 blocks do not chain, so LZ4 keeps one block.
     */
    Slice compressVariable(Slice chunk, int offsetsLength)
    {
        if (compression.getScheme() != CompressionScheme.COMPRESSION_ALGORITHM_ZSTD) {
            return compress(chunk, 0);
        }
        if (offsetsCompressor == null) {
            offsetsCompressor = ZstdCompressor.create(Math.max(compression.getLevel(), OPTIMAL_PARSING_LEVEL));
        }
        return compress(chunk, offsetsLength);
    }

    private Slice compress(Slice data, int offsetsLength)
    {
        int rest = data.length() - offsetsLength;
        int bound = (offsetsLength == 0 ? 0 : offsetsCompressor.maxCompressedLength(offsetsLength)) + compressor.maxCompressedLength(rest);
        if (scratch.length < bound) {
            scratch = new byte[bound];
        }
        byte[] input = data.byteArray();
        int inputOffset = data.byteArrayOffset();
        int length = offsetsLength == 0 ? 0 : offsetsCompressor.compress(input, inputOffset, offsetsLength, scratch, 0, bound);
        length += compressor.compress(input, inputOffset + offsetsLength, rest, scratch, length, bound - length);
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
