package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.proto.Transaction.OperationCase;
import org.roaringbitmap.RoaringBitmap;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A compaction takes along the rows a DELETE, UPDATE or MERGE deleted after the compaction read the table: it copied
 * them, in order, into its new fragments, so each has one place there, and the new fragments get deletion files for
 * them when the compaction commits (their ids are known only then). A group whose fragment the user write replaced or
 * removed, or whose deletions the compaction cannot place, is given up ({@link CompactionYield}); the rest commits.
 */
final class CompactionRebase
{
    private static final Set<OperationCase> ROW_CHANGES = Set.of(OperationCase.DELETE, OperationCase.UPDATE);

    private final LanceTable table;
    private final Optional<String> branch;
    /** rows to delete in the new fragments, by the new fragment's first data file */
    private final Map<String, RoaringBitmap> carried = new HashMap<>();

    CompactionRebase(LanceTable table, Optional<String> branch)
    {
        this.table = requireNonNull(table, "table is null");
        this.branch = requireNonNull(branch, "branch is null");
    }

    static boolean applies(Transaction mine, Transaction theirs)
    {
        return mine.getOperationCase() == OperationCase.REWRITE && mine.getRewrite().getGroupsCount() > 0 && ROW_CHANGES.contains(theirs.getOperationCase());
    }

    /**
     * @return the compaction carrying the deletions {@code theirs} made in its fragments, without the groups it cannot
     * carry them for; empty when no group is left
     */
    Optional<Transaction> rebase(Transaction mine, Transaction theirs, long version)
    {
        Set<Long> changed = ConflictChecker.touchedFragments(theirs);
        TableSnapshot committed = table.snapshot(branch, version);
        Map<Long, DataFragment> now = new HashMap<>();
        committed.manifest().getFragmentsList().forEach(fragment -> now.put(fragment.getId(), fragment));
        Transaction.Rewrite.Builder rewrite = mine.getRewrite().toBuilder().clearGroups();
        for (Transaction.RewriteGroup group : mine.getRewrite().getGroupsList()) {
            if (group.getOldFragmentsList().stream().noneMatch(fragment -> changed.contains(fragment.getId()))) {
                rewrite.addGroups(group);
                continue;
            }
            Optional<Map<String, RoaringBitmap>> deletions = carry(group, changed, now, committed);
            if (deletions.isPresent()) {
                deletions.get().forEach((file, rows) -> carried.computeIfAbsent(file, _ -> new RoaringBitmap()).or(rows));
                rewrite.addGroups(group);
            }
        }
        if (rewrite.getGroupsCount() == 0) {
            return Optional.empty();
        }
        return Optional.of(mine.toBuilder().setUuid(UUID.randomUUID().toString()).setRewrite(rewrite).build());
    }

    /**
     * The rows deleted since the compaction read the group's changed fragments, as offsets in its new fragments.
     */
    private Optional<Map<String, RoaringBitmap>> carry(Transaction.RewriteGroup group, Set<Long> changed, Map<Long, DataFragment> now, TableSnapshot committed)
    {
        List<DataFragment> written = group.getNewFragmentsList();
        long[] starts = RowChangeRebase.starts(written);
        Map<String, RoaringBitmap> deletions = new HashMap<>();
        long position = 0;
        for (DataFragment old : group.getOldFragmentsList()) {
            if (!changed.contains(old.getId())) {
                position += old.getPhysicalRows() - RowChangeRebase.deletedCount(table, committed, old);
                continue;
            }
            // what the compaction skipped: the rows deleted when it read the fragment
            RoaringBitmap skipped = DeletionFiles.read(table.fileSystem(), committed, old);
            DataFragment current = now.get(old.getId());
            if (current == null || !current.getFilesList().equals(old.getFilesList()) || current.getPhysicalRows() != old.getPhysicalRows()) {
                return Optional.empty();
            }
            RoaringBitmap deleted = DeletionFiles.read(table.fileSystem(), committed, current);
            if (!deleted.contains(skipped)) {
                return Optional.empty();
            }
            for (int row : RoaringBitmap.andNot(deleted, skipped)) {
                long at = position + row - skipped.rank(row);
                int target = RowChangeRebase.targetOf(starts, at);
                if (target < 0 || at - starts[target] >= written.get(target).getPhysicalRows()) {
                    return Optional.empty();
                }
                deletions.computeIfAbsent(RowChangeRebase.firstFile(written.get(target)), _ -> new RoaringBitmap()).add((int) (at - starts[target]));
            }
            position += old.getPhysicalRows() - skipped.getLongCardinality();
        }
        return position == starts[starts.length - 1] + written.getLast().getPhysicalRows() ? Optional.of(deletions) : Optional.empty();
    }

    boolean carriesDeletions()
    {
        return !carried.isEmpty();
    }

    /**
     * Writes the carried deletions for the new fragments of the built manifest, whose ids are now known.
     *
     * @return the manifest and the compaction with the new fragments' deletion files
     */
    Carried apply(Manifest manifest, Transaction compaction, String datasetLocation)
    {
        Manifest.Builder next = manifest.toBuilder();
        Map<String, DataFragment> deleted = new HashMap<>();
        for (int i = 0; i < next.getFragmentsCount(); i++) {
            DataFragment fragment = next.getFragments(i);
            RoaringBitmap rows = carried.get(RowChangeRebase.firstFile(fragment));
            if (rows != null) {
                DataFragment withDeletions = fragment.toBuilder()
                        .setDeletionFile(DeletionFiles.write(table.fileSystem(), datasetLocation, fragment.getId(), manifest.getVersion() - 1, rows))
                        .build();
                next.setFragments(i, withDeletions);
                deleted.put(RowChangeRebase.firstFile(fragment), withDeletions);
            }
        }
        Transaction.Rewrite.Builder rewrite = compaction.getRewrite().toBuilder();
        for (Transaction.RewriteGroup.Builder group : rewrite.getGroupsBuilderList()) {
            for (int i = 0; i < group.getNewFragmentsCount(); i++) {
                DataFragment fragment = deleted.get(RowChangeRebase.firstFile(group.getNewFragments(i)));
                if (fragment != null) {
                    group.setNewFragments(i, fragment);
                }
            }
        }
        return new Carried(ManifestBuilder.withFlags(next).build(), compaction.toBuilder().setRewrite(rewrite).build());
    }

    record Carried(Manifest manifest, Transaction transaction) {}
}
