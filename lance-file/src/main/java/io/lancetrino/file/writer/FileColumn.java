package io.lancetrino.file.writer;

import com.google.common.collect.ImmutableSet;
import io.trino.spi.type.Type;

import java.util.OptionalInt;
import java.util.Set;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A column of a file to write: its Trino type, and what the type alone does not carry: for a vector (an {@code array}
 * stored as a Lance fixed-size list) its dimension, and which of its string or binary leaves are Arrow's large ones
 * (64-bit offsets; Lance reads a page's offsets as the field's type has them).
 *
 * @param largeOffsetLeaves indexes of the leaves with 64-bit offsets, counted in Lance's order of leaf columns (depth
 * first, fields in order; 0 for the column itself when it is a string or binary)
 */
public record FileColumn(Type type, OptionalInt dimension, Set<Integer> largeOffsetLeaves)
{
    public FileColumn
    {
        requireNonNull(type, "type is null");
        requireNonNull(dimension, "dimension is null");
        largeOffsetLeaves = ImmutableSet.copyOf(largeOffsetLeaves);
        checkArgument(largeOffsetLeaves.isEmpty() || dimension.isEmpty(), "64-bit offsets are for strings and binaries, not vectors");
    }

    public static FileColumn of(Type type)
    {
        return new FileColumn(type, OptionalInt.empty(), Set.of());
    }

    public static FileColumn vector(Type type, int dimension)
    {
        return new FileColumn(type, OptionalInt.of(dimension), Set.of());
    }

    /** Strings or binaries stored as Arrow's {@code large_utf8} or {@code large_binary} (Lance's {@code json} is one). */
    public static FileColumn largeVariableWidth(Type type)
    {
        checkArgument(VariableWidthColumnWriter.supports(type), "64-bit offsets are for strings and binaries, not %s", type);
        return new FileColumn(type, OptionalInt.empty(), Set.of(0));
    }

    /** A column of rows and arrays whose leaves {@code largeOffsetLeaves} are large strings or binaries. */
    public static FileColumn withLargeOffsetLeaves(Type type, Set<Integer> largeOffsetLeaves)
    {
        return new FileColumn(type, OptionalInt.empty(), largeOffsetLeaves);
    }
}
