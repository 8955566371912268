package io.lancetrino.metadata.refs;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A branch from {@code _refs/branches/{name with / as %2F}.json}; its dataset lives under {@code tree/{name}}.
 *
 * @param parentBranch empty when the branch was made from main
 * @param lineage Lance's branch identifier: the fork points from main down to this branch, each a parent version
 * and a random id; a child's lineage extends its parent's, which is how Lance's cleanup finds descendants
 * @param manifestSize size of the parent manifest the branch was made from
 */
public record BranchRef(
        String name,
        Optional<String> parentBranch,
        long parentVersion,
        Optional<Instant> createdAt,
        List<VersionMapping> lineage,
        long manifestSize,
        Map<String, String> metadata)
{
    public BranchRef
    {
        requireNonNull(name, "name is null");
        requireNonNull(parentBranch, "parentBranch is null");
        requireNonNull(createdAt, "createdAt is null");
        lineage = ImmutableList.copyOf(requireNonNull(lineage, "lineage is null"));
        metadata = ImmutableMap.copyOf(requireNonNull(metadata, "metadata is null"));
    }

    /**
     * One fork point of a branch's lineage, as Lance's {@code version_mapping} pairs.
     */
    public record VersionMapping(long parentVersion, String id)
    {
        public VersionMapping
        {
            requireNonNull(id, "id is null");
        }
    }

    /**
     * Whether {@code other} was forked from this branch, directly or through other branches.
     */
    public boolean isAncestorOf(BranchRef other)
    {
        return lineage.size() < other.lineage.size()
                && !lineage.isEmpty()
                && other.lineage.subList(0, lineage.size()).equals(lineage);
    }
}
