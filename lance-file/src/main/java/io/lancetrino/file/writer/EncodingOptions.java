package io.lancetrino.file.writer;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * How the Java writer may encode values. Page by page it takes the smallest of the plain, bit-packed and dictionary
 * encodings; with a general compression it also tries that codec over larger chunks, and keeps it only where it saves
 * at least {@link #MIN_GENERAL_SAVING} of the best other encoding's bytes, since general compression costs decode time
 * and random reads.
 *
 * @param compression general compression the writer may apply
 * @param zstdLevel the zstd level of fixed-width values, when {@code compression} is zstd
 * @param stringZstdLevel the zstd level of strings and binaries: a higher level pays there, since text compresses
 * further at the same decode speed (TPC-H l_comment: 62.6 MB at level 3, 57.2 MB at 9, both decoded at about 1.3 GB/s)
 */
public record EncodingOptions(Compression compression, int zstdLevel, int stringZstdLevel)
{
    public static final double MIN_GENERAL_SAVING = 0.15;
    // values bit-packed to this many bits or fewer decompress into 8-32x their packed bytes, so general compression
    // must save MIN_NARROW_GENERAL_SAVING of them: TPC-H l_returnflag's indices saved 17% under zstd and read at 1.5x
    // Iceberg's CPU, l_linenumber saved 48% and read at 1.4x
    public static final int NARROW_BITS_PER_VALUE = 4;
    public static final double MIN_NARROW_GENERAL_SAVING = 0.5;
    public static final int DEFAULT_ZSTD_LEVEL = 3;
    public static final int DEFAULT_STRING_ZSTD_LEVEL = 9;
    public static final EncodingOptions DEFAULT = new EncodingOptions(Compression.ZSTD, DEFAULT_ZSTD_LEVEL, DEFAULT_STRING_ZSTD_LEVEL);
    public static final EncodingOptions UNCOMPRESSED = new EncodingOptions(Compression.NONE, 0, 0);

    public enum Compression { NONE, LZ4, ZSTD }

    /** Options with one zstd level for every column, as a table's {@code compression-level} asks. */
    public static EncodingOptions zstd(int level)
    {
        return new EncodingOptions(Compression.ZSTD, level, level);
    }

    public static EncodingOptions lz4()
    {
        return new EncodingOptions(Compression.LZ4, 0, 0);
    }

    public EncodingOptions
    {
        requireNonNull(compression, "compression is null");
        checkArgument(zstdLevel >= 0 && zstdLevel <= 22, "zstd level %s is not within 0 and 22", zstdLevel);
        checkArgument(stringZstdLevel >= 0 && stringZstdLevel <= 22, "zstd level %s is not within 0 and 22", stringZstdLevel);
    }
}
