package io.lancetrino.file.writer;

import io.trino.spi.type.Type;

import java.util.OptionalInt;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A column of a file to write: its Trino type, and what the type alone does not carry: for a vector (an {@code array}
 * stored as a Lance fixed-size list) its dimension, and for strings or binaries whether they are Arrow's large ones
 * (64-bit offsets; Lance reads a page's offsets as the field's type has them).
 */
public record FileColumn(Type type, OptionalInt dimension, boolean largeOffsets)
{
    public FileColumn
    {
        requireNonNull(type, "type is null");
        requireNonNull(dimension, "dimension is null");
        checkArgument(!largeOffsets || (dimension.isEmpty() && VariableWidthColumnWriter.supports(type)), "64-bit offsets are for strings and binaries, not %s", type);
    }

    public static FileColumn of(Type type)
    {
        return new FileColumn(type, OptionalInt.empty(), false);
    }

    public static FileColumn vector(Type type, int dimension)
    {
        return new FileColumn(type, OptionalInt.of(dimension), false);
    }

    /** Strings or binaries stored as Arrow's {@code large_utf8} or {@code large_binary} (Lance's {@code json} is one). */
    public static FileColumn largeVariableWidth(Type type)
    {
        return new FileColumn(type, OptionalInt.empty(), true);
    }
}
