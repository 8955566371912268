package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.proto.Transaction.OperationCase;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Carries a DELETE's or UPDATE's deleted rows over changes committed to the same fragments after the statement read
 * the table, as Lance's own commit does for deletes:
 * <ul>
 * <li>another DELETE or UPDATE of the fragment: the deletions are united, unless both deleted the same row (then the
 * statement must re-run: its row was changed by someone else);</li>
 * <li>a compaction: it wrote the live rows of a contiguous run of fragments, in order, into new fragments, so every
 * row the statement deletes has exactly one place in the new ones, which get the deletions instead. Refused when the
 * compaction copied other files than the statement read, saw rows deleted the statement did not, or wrote a
 * different number of rows.</li>
 * </ul>
 */
final class RowChangeRebase
{
    private static final Set<OperationCase> ROW_CHANGES = Set.of(OperationCase.DELETE, OperationCase.UPDATE);

    private final LanceTable table;
    private final Optional<String> branch;
    /** the fragments as the statement's deletions were last computed on, by id; loaded on the first rebase */
    private Map<Long, DataFragment> bases;
    /** the rows the statement itself deletes, by fragment id */
    private final Map<Long, RoaringBitmap> ownRows = new HashMap<>();

    RowChangeRebase(LanceTable table, Optional<String> branch)
    {
        this.table = requireNonNull(table, "table is null");
        this.branch = requireNonNull(branch, "branch is null");
    }

    static boolean applies(Transaction mine, Transaction theirs)
    {
        return ROW_CHANGES.contains(mine.getOperationCase())
                && (ROW_CHANGES.contains(theirs.getOperationCase()) || theirs.getOperationCase() == OperationCase.REWRITE);
    }

    /**
     * @param theirs the transaction committed as {@code version}, which changed fragments {@code mine} deletes from
     * @return {@code mine} with its deletions carried onto the fragments as {@code version} has them, or empty
     */
    Optional<Transaction> rebase(Transaction mine, Transaction theirs, long version)
    {
        if (bases == null) {
            bases = fragmentsById(table.snapshot(branch, mine.getReadVersion()));
        }
        TableSnapshot committed = table.snapshot(branch, version);
        Deletions deletions = Deletions.of(mine);
        Optional<Map<Long, RoaringBitmap>> moved = theirs.getOperationCase() == OperationCase.REWRITE
                ? followRewrite(theirs.getRewrite(), deletions, committed)
                : uniteWith(ConflictChecker.touchedFragments(theirs), deletions, committed);
        if (moved.isEmpty()) {
            return Optional.empty();
        }
        Map<Long, DataFragment> fragments = fragmentsById(committed);
        for (Map.Entry<Long, RoaringBitmap> entry : moved.get().entrySet()) {
            DataFragment target = fragments.get(entry.getKey());
            bases.put(target.getId(), target);
            RoaringBitmap deleted = DeletionFiles.read(table.fileSystem(), committed, target);
            deleted.or(entry.getValue());
            deletions.forget(target.getId());
            if (deleted.getLongCardinality() >= target.getPhysicalRows()) {
                deletions.removed.add(target.getId());
            }
            else {
                deletions.updated.add(target.toBuilder()
                        .setDeletionFile(DeletionFiles.write(table.fileSystem(), committed.datasetLocation(), target.getId(), version, deleted))
                        .build());
            }
        }
        return Optional.of(deletions.into(mine));
    }

    /**
     * The statement's own deleted rows in fragments another DELETE or UPDATE changed, by fragment id; empty when that
     * change deleted one of the same rows or replaced the fragment's data.
     */
    private Optional<Map<Long, RoaringBitmap>> uniteWith(Set<Long> changed, Deletions deletions, TableSnapshot committed)
    {
        Map<Long, DataFragment> fragments = fragmentsById(committed);
        Map<Long, RoaringBitmap> united = new HashMap<>();
        for (long id : changed) {
            if (!deletions.touches(id)) {
                continue;
            }
            DataFragment theirs = fragments.get(id);
            DataFragment base = bases.get(id);
            if (theirs == null || base == null || !theirs.getFilesList().equals(base.getFilesList()) || theirs.getPhysicalRows() != base.getPhysicalRows()) {
                return Optional.empty();
            }
            RoaringBitmap own = ownRows(base, deletions, committed);
            if (RoaringBitmap.intersects(own, DeletionFiles.read(table.fileSystem(), committed, theirs))) {
                return Optional.empty();
            }
            united.put(id, own);
        }
        return Optional.of(united);
    }

    /**
     * The statement's own deleted rows in fragments the compaction rewrote, mapped to the compacted fragments by id.
     */
    private Optional<Map<Long, RoaringBitmap>> followRewrite(Transaction.Rewrite rewrite, Deletions deletions, TableSnapshot compacted)
    {
        Map<Long, RoaringBitmap> moved = new HashMap<>();
        for (Transaction.RewriteGroup group : ManifestBuilder.rewriteGroups(rewrite)) {
            if (group.getOldFragmentsList().stream().anyMatch(old -> deletions.touches(old.getId()))) {
                Optional<Map<Long, RoaringBitmap>> groupMoves = followGroup(group, deletions, compacted);
                if (groupMoves.isEmpty()) {
                    return Optional.empty();
                }
                moved.putAll(groupMoves.get());
                group.getOldFragmentsList().forEach(old -> deletions.forget(old.getId()));
            }
        }
        moved.forEach((id, rows) -> ownRows.put(id, rows.clone()));
        return Optional.of(moved);
    }

    private Optional<Map<Long, RoaringBitmap>> followGroup(Transaction.RewriteGroup group, Deletions deletions, TableSnapshot compacted)
    {
        Map<String, DataFragment> byFirstFile = new HashMap<>();
        compacted.manifest().getFragmentsList().forEach(fragment -> byFirstFile.put(firstFile(fragment), fragment));
        List<DataFragment> targets = new ArrayList<>();
        long newRows = 0;
        for (DataFragment written : group.getNewFragmentsList()) {
            // a compaction may carry deletions committed while it ran: those rows are still in its files
            DataFragment target = byFirstFile.get(firstFile(written));
            if (target == null) {
                return Optional.empty();
            }
            targets.add(target);
            newRows += target.getPhysicalRows();
        }
        long[] targetStarts = starts(targets);

        Map<Long, RoaringBitmap> moved = new HashMap<>();
        long position = 0;
        for (DataFragment old : group.getOldFragmentsList()) {
            if (!deletions.touches(old.getId())) {
                position += old.getPhysicalRows() - deletedCount(table, compacted, old);
                continue;
            }
            DataFragment base = bases.get(old.getId());
            // the compaction must have copied the fragment the statement read, with at most the rows it saw deleted
            // (it carried deletions committed while it ran into its new fragments)
            if (base == null || base.getPhysicalRows() != old.getPhysicalRows() || !base.getFilesList().equals(old.getFilesList())) {
                return Optional.empty();
            }
            RoaringBitmap compactedAway = DeletionFiles.read(table.fileSystem(), compacted, old);
            if (!DeletionFiles.read(table.fileSystem(), compacted, base).contains(compactedAway)) {
                return Optional.empty();
            }
            for (int row : ownRows(base, deletions, compacted)) {
                long at = position + row - compactedAway.rank(row);
                int target = targetOf(targetStarts, at);
                if (target < 0 || at - targetStarts[target] >= targets.get(target).getPhysicalRows()) {
                    return Optional.empty();
                }
                moved.computeIfAbsent(targets.get(target).getId(), _ -> new RoaringBitmap()).add((int) (at - targetStarts[target]));
            }
            position += old.getPhysicalRows() - compactedAway.getLongCardinality();
        }
        return position == newRows ? Optional.of(moved) : Optional.empty();
    }

    /**
     * The rows of the fragment the statement deletes that were not deleted in {@code base}, the fragment it read.
     */
    private RoaringBitmap ownRows(DataFragment base, Deletions deletions, TableSnapshot snapshot)
    {
        return ownRows.computeIfAbsent(base.getId(), id -> {
            RoaringBitmap all = deletions.deletedRows(base, table, snapshot);
            all.andNot(DeletionFiles.read(table.fileSystem(), snapshot, base));
            return all;
        });
    }

    static long deletedCount(LanceTable table, TableSnapshot snapshot, DataFragment fragment)
    {
        if (!fragment.hasDeletionFile()) {
            return 0;
        }
        // older writers left the count out
        long count = fragment.getDeletionFile().getNumDeletedRows();
        return count > 0 ? count : DeletionFiles.read(table.fileSystem(), snapshot, fragment).getLongCardinality();
    }

    /**
     * Where each fragment's rows start when the fragments' rows are laid end to end.
     */
    static long[] starts(List<DataFragment> fragments)
    {
        long[] starts = new long[fragments.size()];
        for (int i = 1; i < fragments.size(); i++) {
            starts[i] = starts[i - 1] + fragments.get(i - 1).getPhysicalRows();
        }
        return starts;
    }

    static int targetOf(long[] starts, long position)
    {
        int target = -1;
        for (int i = 0; i < starts.length && starts[i] <= position; i++) {
            target = i;
        }
        return target;
    }

    static String firstFile(DataFragment fragment)
    {
        return fragment.getFilesCount() == 0 ? "" : fragment.getFiles(0).getPath();
    }

    private static Map<Long, DataFragment> fragmentsById(TableSnapshot snapshot)
    {
        Map<Long, DataFragment> fragments = new HashMap<>();
        snapshot.manifest().getFragmentsList().forEach(fragment -> fragments.put(fragment.getId(), fragment));
        return fragments;
    }

    /**
     * The deletion side of a DELETE or UPDATE: fragments with a new deletion file and fragments removed outright.
     */
    private static final class Deletions
    {
        private final List<DataFragment> updated;
        private final Set<Long> removed;

        private Deletions(List<DataFragment> updated, Set<Long> removed)
        {
            this.updated = updated;
            this.removed = removed;
        }

        static Deletions of(Transaction transaction)
        {
            return switch (transaction.getOperationCase()) {
                case DELETE -> new Deletions(new ArrayList<>(transaction.getDelete().getUpdatedFragmentsList()), new HashSet<>(transaction.getDelete().getDeletedFragmentIdsList()));
                case UPDATE -> new Deletions(new ArrayList<>(transaction.getUpdate().getUpdatedFragmentsList()), new HashSet<>(transaction.getUpdate().getRemovedFragmentIdsList()));
                default -> throw new IllegalArgumentException("Not a row change: " + transaction.getOperationCase());
            };
        }

        boolean touches(long fragmentId)
        {
            return removed.contains(fragmentId) || updated.stream().anyMatch(fragment -> fragment.getId() == fragmentId);
        }

        /**
         * Every row of the fragment deleted once the statement commits: its deletions before the statement and its own.
         */
        RoaringBitmap deletedRows(DataFragment base, LanceTable table, TableSnapshot snapshot)
        {
            if (removed.contains(base.getId())) {
                RoaringBitmap all = new RoaringBitmap();
                all.add(0L, base.getPhysicalRows());
                return all;
            }
            DataFragment mine = updated.stream().filter(fragment -> fragment.getId() == base.getId()).findFirst().orElseThrow();
            return DeletionFiles.read(table.fileSystem(), snapshot, mine);
        }

        void forget(long fragmentId)
        {
            removed.remove(fragmentId);
            updated.removeIf(fragment -> fragment.getId() == fragmentId);
        }

        Transaction into(Transaction transaction)
        {
            Transaction.Builder rebased = transaction.toBuilder().setUuid(UUID.randomUUID().toString());
            switch (transaction.getOperationCase()) {
                case DELETE -> rebased.setDelete(transaction.getDelete().toBuilder()
                        .clearUpdatedFragments().addAllUpdatedFragments(updated)
                        .clearDeletedFragmentIds().addAllDeletedFragmentIds(removed));
                case UPDATE -> rebased.setUpdate(transaction.getUpdate().toBuilder()
                        .clearUpdatedFragments().addAllUpdatedFragments(updated)
                        .clearRemovedFragmentIds().addAllRemovedFragmentIds(removed));
                default -> throw new IllegalArgumentException("Not a row change: " + transaction.getOperationCase());
            }
            return rebased.build();
        }
    }
}
