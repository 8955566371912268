package io.lancetrino.file.codec;

import io.airlift.slice.Slice;

import static java.util.Objects.requireNonNull;

/** Variable-width values: value {@code i} is {@code data[offsets[i], offsets[i + 1])}. */
public record VariableValues(Slice data, int[] offsets)
{
    public VariableValues
    {
        requireNonNull(data, "data is null");
        requireNonNull(offsets, "offsets is null");
    }

    public int count()
    {
        return offsets.length - 1;
    }
}
