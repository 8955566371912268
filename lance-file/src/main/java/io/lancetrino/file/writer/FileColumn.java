package io.lancetrino.file.writer;

import io.trino.spi.type.Type;

import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * A column of a file to write: its Trino type, and for a vector (an {@code array} stored as a Lance fixed-size list)
 * its dimension, which the type alone does not carry.
 */
public record FileColumn(Type type, OptionalInt dimension)
{
    public FileColumn
    {
        requireNonNull(type, "type is null");
        requireNonNull(dimension, "dimension is null");
    }

    public static FileColumn of(Type type)
    {
        return new FileColumn(type, OptionalInt.empty());
    }

    public static FileColumn vector(Type type, int dimension)
    {
        return new FileColumn(type, OptionalInt.of(dimension));
    }
}
