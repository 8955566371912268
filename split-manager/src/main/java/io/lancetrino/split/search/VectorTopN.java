package io.lancetrino.split.search;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * {@code ORDER BY <distance column> LIMIT count}, pushed into the scan: each split returns its nearest {@code count}
 * rows (and every row tied with the last of them), and the engine keeps the final top-N over all splits.
 */
public record VectorTopN(String distanceColumn, long count, boolean descending, boolean nullsFirst)
{
    public VectorTopN
    {
        requireNonNull(distanceColumn, "distanceColumn is null");
        checkArgument(count > 0, "count must be positive");
    }
}
