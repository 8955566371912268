package io.lancetrino.metadata.merge;

import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The figures of a merge (or of a dry run, which computes the same and commits nothing).
 *
 * @param conflicts resolved by the policy; under {@link MergePolicy#FAIL} a merge with conflicts throws instead
 * @param committedVersion the target's new version, empty for a dry run or when there was nothing to merge
 */
public record MergeOutcome(
        long fragmentsAdded,
        long rowsAdded,
        long rowsDeleted,
        List<MergeConflict> conflicts,
        boolean fastForward,
        String base,
        OptionalLong committedVersion)
{
    public MergeOutcome
    {
        conflicts = ImmutableList.copyOf(requireNonNull(conflicts, "conflicts is null"));
        requireNonNull(base, "base is null");
        requireNonNull(committedVersion, "committedVersion is null");
    }
}
