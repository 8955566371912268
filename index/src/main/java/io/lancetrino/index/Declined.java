package io.lancetrino.index;

import static java.util.Objects.requireNonNull;

/** Cached in place of an index's tables when the reader does not handle the index (its value type, its layout). */
record Declined(String reason)
        implements IndexCache.Weighed
{
    Declined
    {
        requireNonNull(reason, "reason is null");
    }

    @Override
    public long retainedBytes()
    {
        return 64 + 2L * reason.length();
    }
}
