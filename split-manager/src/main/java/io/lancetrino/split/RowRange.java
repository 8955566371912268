package io.lancetrino.split;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Rows {@code start} (inclusive) to {@code end} (exclusive) of a fragment's data files: what a split reads.
 */
public record RowRange(int start, int end)
{
    public RowRange
    {
        checkArgument(start >= 0 && start <= end, "invalid row range [%s, %s)", start, end);
    }

    public static RowRange of(int start, int end)
    {
        return new RowRange(start, end);
    }

    public int rows()
    {
        return end - start;
    }
}
