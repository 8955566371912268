package io.lancetrino.metadata.merge;

import java.util.Locale;

/**
 * What a merge does with a conflict: fail and change nothing, or keep the source's or the target's side of each
 * conflicting item (everything else merges normally).
 */
public enum MergePolicy
{
    FAIL,
    SOURCE_WINS,
    TARGET_WINS;

    public String sqlName()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
