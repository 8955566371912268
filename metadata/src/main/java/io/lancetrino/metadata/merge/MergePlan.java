package io.lancetrino.metadata.merge;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.proto.DataFragment;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What merging the source into the target changes on the target, computed against the merge base.
 *
 * @param newFragments the source's new fragments, pointed at their files from the target (ids are given at commit),
 * without deletion files
 * @param newFragmentDeletions the rows deleted in each new fragment (empty for none), written under its id at commit
 * @param changedFragments target fragments whose data files the source changed
 * @param deletionUnions target fragments that get a new deletion file holding both sides' deleted rows
 * @param removedFragments target fragments whose rows are all deleted by the merge
 * @param configChanges keys to set (a value) or remove (empty)
 */
record MergePlan(
        List<DataFragment> newFragments,
        List<RoaringBitmap> newFragmentDeletions,
        List<DataFragment> changedFragments,
        Map<DataFragment, RoaringBitmap> deletionUnions,
        List<Long> removedFragments,
        SchemaMerge schema,
        Map<String, Optional<String>> configChanges,
        TargetBases bases,
        List<MergeConflict> conflicts,
        long rowsAdded,
        long rowsDeleted,
        boolean fastForward)
{
    MergePlan
    {
        newFragments = ImmutableList.copyOf(newFragments);
        newFragmentDeletions = ImmutableList.copyOf(newFragmentDeletions);
        changedFragments = ImmutableList.copyOf(changedFragments);
        deletionUnions = ImmutableMap.copyOf(deletionUnions);
        removedFragments = ImmutableList.copyOf(removedFragments);
        requireNonNull(schema, "schema is null");
        configChanges = ImmutableMap.copyOf(configChanges);
        requireNonNull(bases, "bases is null");
        conflicts = ImmutableList.copyOf(conflicts);
    }

    boolean changesNothing(List<?> targetFields)
    {
        return newFragments.isEmpty() && changedFragments.isEmpty() && deletionUnions.isEmpty() && removedFragments.isEmpty()
                && configChanges.isEmpty() && schema.fields().equals(targetFields);
    }
}
