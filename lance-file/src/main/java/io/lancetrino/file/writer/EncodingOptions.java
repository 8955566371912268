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
 * @param zstdLevel the zstd level, when {@code compression} is zstd
 */
public record EncodingOptions(Compression compression, int zstdLevel)
{
    public static final double MIN_GENERAL_SAVING = 0.15;
    public static final EncodingOptions DEFAULT = new EncodingOptions(Compression.ZSTD, 3);
    public static final EncodingOptions UNCOMPRESSED = new EncodingOptions(Compression.NONE, 0);

    public enum Compression { NONE, LZ4, ZSTD }

    public EncodingOptions
    {
        requireNonNull(compression, "compression is null");
        checkArgument(zstdLevel >= 0 && zstdLevel <= 22, "zstd level %s is not within 0 and 22", zstdLevel);
    }
}
