package io.lancetrino.metadata.maintenance;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.proto.DataFragment;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Which fragments of one version a compaction rewrites: each group is a contiguous run of the version's fragment list
 * whose surviving rows become new fragments in the same place.
 *
 * @param readVersion the version planned from, which the commit names as its read version
 * @param fragmentsBefore fragments of that version
 */
public record CompactionPlan(long readVersion, long targetRowsPerFragment, int fragmentsBefore, List<Group> groups)
{
    public CompactionPlan
    {
        checkArgument(targetRowsPerFragment > 0, "targetRowsPerFragment must be positive");
        groups = ImmutableList.copyOf(groups);
    }

    /**
     * Fragments rewritten together, in the order of the fragment list.
     */
    public record Group(List<DataFragment> fragments)
    {
        public Group
        {
            fragments = ImmutableList.copyOf(fragments);
            checkArgument(!fragments.isEmpty(), "a group has fragments");
        }

        public long liveRows()
        {
            return fragments.stream().mapToLong(CompactionPlanner::liveRows).sum();
        }

        public long deletedRows()
        {
            return fragments.stream().mapToLong(VersionSummary::deletedRows).sum();
        }
    }

    public boolean isEmpty()
    {
        return groups.isEmpty();
    }

    public int fragmentsRewritten()
    {
        return groups.stream().mapToInt(group -> group.fragments().size()).sum();
    }

    public long rowsRewritten()
    {
        return groups.stream().mapToLong(Group::liveRows).sum();
    }

    public long deletedRowsPurged()
    {
        return groups.stream().mapToLong(Group::deletedRows).sum();
    }

    @Override
    public String toString()
    {
        return "CompactionPlan[version %s, target %s, groups %s]".formatted(readVersion, targetRowsPerFragment,
                groups.stream().map(group -> group.fragments().stream().map(DataFragment::getId).toList()).toList());
    }
}
