package io.lancetrino.metadata.merge;

import static java.util.Objects.requireNonNull;

/**
 * One thing both sides of a merge changed since the merge base, differently.
 */
public record MergeConflict(Kind kind, String detail)
{
    public enum Kind
    {
        /** both sides changed the data files of a fragment (e.g. filled a new column), differently */
        FRAGMENT_FILES,
        /** one side compacted a fragment whose rows the other side changed; no policy can resolve it */
        FRAGMENT_REWRITTEN,
        /** both sides changed the columns, in ways that cannot be combined */
        SCHEMA,
        /** both sides set a table config key to different values */
        CONFIG,
    }

    public MergeConflict
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(detail, "detail is null");
    }

    @Override
    public String toString()
    {
        return kind + " " + detail;
    }
}
