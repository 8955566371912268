package io.lancetrino.index;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * The rows of the index's covered fragments whose value may satisfy a domain. Exact: exactly the rows that satisfy
 * it (deleted rows included: the index predates deletions, the caller applies deletion vectors). Not exact: a
 * superset, to be filtered again.
 */
public record IndexAnswer(RowAddresses rows, boolean exact, long bytesRead)
{
    public IndexAnswer
    {
        requireNonNull(rows, "rows is null");
        checkArgument(bytesRead >= 0, "bytesRead is negative");
    }
}
