package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.commit.ManifestBuilder;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.lancetrino.metadata.LanceErrorKind.MERGE_HISTORY_MISSING;

/**
 * Where the rows of a merge base live at the head of one side of a merge. A fragment keeps its rows at their offsets
 * for as long as it lives; only a compaction ({@code Rewrite}) moves rows, copying the live rows of each group of old
 * fragments, in order, into the group's new fragments. This follows the base's rows through every rewrite on the
 * side's history, version by version from the base to the head, so a merge can tell rows that moved from rows that
 * changed. Versions cleanup removed are crossed only where no fragment holding base rows went in between (then no
 * rewrite can have moved them); otherwise the merge is refused, naming the versions.
 */
final class RowLineage
{
    /** The origin of a row the side wrote after the base. */
    static final long NEW = -1;

    private final Map<String, Integer> baseIndex;
    /** head fragments a rewrite wrote, by key, with the origin of each of their rows */
    private final Map<String, long[]> moved;
    /** base fragments still in place at the head, by key */
    private final Set<String> inPlace;
    private final boolean rewrote;

    private RowLineage(Map<String, Integer> baseIndex, Map<String, long[]> moved, Set<String> inPlace, boolean rewrote)
    {
        this.baseIndex = baseIndex;
        this.moved = moved;
        this.inPlace = inPlace;
        this.rewrote = rewrote;
    }

    /** Whether a rewrite moved any row on this side since the base. */
    boolean rewrote()
    {
        return rewrote;
    }

    /** Whether the fragment is one of the base's, its rows where they were. */
    boolean inPlace(String key)
    {
        return inPlace.contains(key);
    }

    boolean moved(String key)
    {
        return moved.containsKey(key);
    }

    /** The base row at each offset of a head fragment whose rows a compaction moved, or null for another fragment. */
    long[] movedOrigins(String key)
    {
        return moved.get(key);
    }

    /**
     * The base row at an offset of a head fragment: its base fragment's index in the base manifest (high 32 bits) and
     * offset there (low 32 bits), or {@link #NEW}.
     */
    long origin(String key, int offset)
    {
        long[] origins = moved.get(key);
        if (origins != null) {
            return origins[offset];
        }
        return inPlace.contains(key) ? encode(baseIndex.get(key), offset) : NEW;
    }

    static long encode(int fragmentIndex, int offset)
    {
        return ((long) fragmentIndex << 32) | offset;
    }

    static int fragmentIndex(long origin)
    {
        return (int) (origin >>> 32);
    }

    static int offset(long origin)
    {
        return (int) origin;
    }

    /** Base fragment keys by their index in the base manifest. */
    static Map<String, Integer> baseIndex(TableSnapshot base)
    {
        Map<String, Integer> index = new HashMap<>();
        List<DataFragment> fragments = base.manifest().getFragmentsList();
        for (int i = 0; i < fragments.size(); i++) {
            index.put(key(base, fragments.get(i)), i);
        }
        return index;
    }

    static String key(TableSnapshot snapshot, DataFragment fragment)
    {
        return FilePaths.dataFile(snapshot, fragment, fragment.getFiles(0));
    }

    /** A version after the one before it on the walk, with the transaction that made it (read once). */
    private record Step(TableSnapshot previous, TableSnapshot current, boolean consecutive, Optional<Transaction> transaction) {}

    /**
     * The versions after the start, oldest first; the start is the base, or a merge (or fast-forward) commit that
     * brought the base over from its branch.
     */
    private record Walk(List<Step> steps, Optional<MergeCommit> mergeCommit) {}

    /** A merge (or fast-forward) commit that brought the base over, with its transaction (read once). */
    private record MergeCommit(TableSnapshot snapshot, Transaction transaction) {}

    /**
     * The base's rows at {@code head} of {@code table}, or empty when the head's history does not lead back to the
     * base through previous versions, branch points, a clone's first version and a merge that brought the base over.
     *
     * @param baseTable the table holding the base: {@code table}, or the clone a merge brought the base from
     */
    static Optional<RowLineage> follow(LanceTable table, LanceTable baseTable, TableSnapshot base, TableSnapshot head, Map<String, Integer> baseIndex)
    {
        Optional<Walk> walk = path(table, base, head);
        if (walk.isEmpty()) {
            return Optional.empty();
        }
        Map<String, long[]> moved = new HashMap<>();
        Set<String> inPlace = new HashSet<>();
        boolean rewrote = false;
        if (walk.get().mergeCommit().isPresent()) {
            Optional<RowLineage> atMerge = atMergeCommit(table, baseTable, base, walk.get().mergeCommit().get(), baseIndex);
            if (atMerge.isEmpty()) {
                return Optional.empty();
            }
            moved.putAll(atMerge.get().moved);
            inPlace.addAll(atMerge.get().inPlace);
            rewrote = atMerge.get().rewrote;
        }
        else {
            inPlace.addAll(baseIndex.keySet());
        }
        for (Step step : walk.get().steps()) {
            Map<String, DataFragment> current = fragments(step.current());
            Optional<Transaction> transaction = step.transaction();
            if (step.consecutive() && transaction.isPresent() && transaction.get().hasRewrite()) {
                for (Transaction.RewriteGroup group : ManifestBuilder.rewriteGroups(transaction.get().getRewrite())) {
                    rewrite(table, step, group, baseIndex, moved, inPlace);
                }
                rewrote = true;
            }
            else if (!step.consecutive() || transaction.isEmpty()) {
                // versions between are gone (or wrote no transaction): a fragment holding base rows that went is
                // known deleted only if this version's own transaction removed it (fragment ids change only by
                // rewrites, which take new ids); otherwise it may have been compacted in between
                Set<Long> removedHere = transaction.filter(value -> !value.hasRewrite()).map(RowLineage::removedFragmentIds).orElse(Set.of());
                Map<String, DataFragment> before = fragments(step.previous());
                for (String key : holding(moved, inPlace)) {
                    if (!current.containsKey(key) && !(before.containsKey(key) && removedHere.contains(before.get(key).getId()))) {
                        throw new LanceTableException(MERGE_HISTORY_MISSING, ("Cannot follow the rows of merge base %s to %s: a fragment holding them (%s) went between %s and %s, "
                                + "whose versions in between are gone (cleaned up), so the merge cannot tell a compaction from a deletion; nothing was changed")
                                .formatted(base.describe(), head.describe(), key, step.previous().describe(), step.current().describe()));
                    }
                }
            }
            moved.keySet().retainAll(current.keySet());
            inPlace.retainAll(current.keySet());
        }
        return Optional.of(new RowLineage(baseIndex, moved, inPlace, rewrote));
    }

    /** Whether the transaction made a clone's first version from the base. */
    private static boolean clonedFrom(Optional<Transaction> transaction, TableSnapshot base)
    {
        return transaction
                .filter(Transaction::hasClone)
                .map(Transaction::getClone)
                .filter(clone -> clone.getRefPath().equals(base.datasetLocation()) && clone.getRefVersion() == base.version()
                        && (clone.hasRefName() ? Optional.of(clone.getRefName()) : Optional.<String>empty()).equals(base.branch()))
                .isPresent();
    }

    /**
     * Whether the transaction is a merge or fast-forward that brought over exactly the base: a version of a branch of
     * the same table, or of a clone merged back.
     */
    private static boolean brought(Optional<Transaction> transaction, TableSnapshot base, boolean sameTable)
    {
        if (!sameTable) {
            return base.branch().isEmpty() && transaction
                    .flatMap(MergeRecords::mergedTableVersion)
                    .filter(merged -> merged.root().equals(base.tableRoot()) && merged.version() == base.version())
                    .isPresent();
        }
        return transaction
                .flatMap(MergeRecords::mergedBranchVersion)
                .filter(merged -> merged.branch().equals(base.branch()) && merged.version() == base.version())
                .isPresent();
    }

    /**
     * The base's rows in a merge commit that brought the base over from its branch or clone: fragments of the base's
     * are its rows in place; the target's own fragments hold rows of the earlier merge base B0, followed through the
     * target's history from B0 to the merge and matched to the base's rows through the base's history from B0.
     */
    private static Optional<RowLineage> atMergeCommit(LanceTable table, LanceTable baseTable, TableSnapshot base, MergeCommit merge, Map<String, Integer> baseIndex)
    {
        TableSnapshot mergeCommit = merge.snapshot();
        Optional<Located> earlierBase = earlierBase(table, baseTable, merge.transaction());
        Optional<String> branch = mergeCommit.branch();
        if (earlierBase.isEmpty() || table.manifestLocation(branch, mergeCommit.version() - 1).isEmpty()) {
            return Optional.empty();
        }
        TableSnapshot b0 = earlierBase.get().snapshot();
        LanceTable b0Table = earlierBase.get().table();
        Map<String, Integer> b0Index = baseIndex(b0);
        Optional<RowLineage> targetRows = follow(table, b0Table, b0, table.snapshot(branch, mergeCommit.version() - 1), b0Index);
        Optional<RowLineage> baseRows = follow(baseTable, b0Table, b0, base, b0Index);
        if (targetRows.isEmpty() || baseRows.isEmpty()) {
            return Optional.empty();
        }
        // each B0 row, as a row of the base
        List<DataFragment> b0Fragments = b0.manifest().getFragmentsList();
        long[][] asBaseRow = new long[b0Fragments.size()][];
        for (int i = 0; i < asBaseRow.length; i++) {
            asBaseRow[i] = new long[(int) b0Fragments.get(i).getPhysicalRows()];
            Arrays.fill(asBaseRow[i], NEW);
        }
        for (DataFragment fragment : base.manifest().getFragmentsList()) {
            String key = key(base, fragment);
            int index = baseIndex.get(key);
            for (int offset = 0; offset < fragment.getPhysicalRows(); offset++) {
                long origin = baseRows.get().origin(key, offset);
                if (origin != NEW) {
                    asBaseRow[fragmentIndex(origin)][offset(origin)] = encode(index, offset);
                }
            }
        }
        Map<String, long[]> moved = new HashMap<>();
        Set<String> inPlace = new HashSet<>();
        for (DataFragment fragment : mergeCommit.manifest().getFragmentsList()) {
            String key = key(mergeCommit, fragment);
            if (baseIndex.containsKey(key)) {
                inPlace.add(key);
                continue;
            }
            long[] origins = new long[(int) fragment.getPhysicalRows()];
            boolean any = false;
            for (int offset = 0; offset < origins.length; offset++) {
                long origin = targetRows.get().origin(key, offset);
                origins[offset] = origin == NEW ? NEW : asBaseRow[fragmentIndex(origin)][offset(origin)];
                any |= origins[offset] != NEW;
            }
            if (any) {
                moved.put(key, origins);
            }
        }
        return Optional.of(new RowLineage(baseIndex, moved, inPlace, targetRows.get().rewrote() || baseRows.get().rewrote() || !moved.isEmpty()));
    }

    /** A version and the table that holds it. */
    private record Located(LanceTable table, TableSnapshot snapshot) {}

    /**
     * The base an earlier merge recorded, {@code <branch>@<version>} of the table or {@code <clone>@<version>} of the
     * clone it merged back. Merges record the base's table root; for older ones a clone is known by its name.
     */
    private static Optional<Located> earlierBase(LanceTable table, LanceTable baseTable, Transaction merge)
    {
        String description = merge.getTransactionPropertiesMap().get(MergeRecords.BASE);
        int at = description == null ? -1 : description.lastIndexOf('@');
        if (at <= 0) {
            return Optional.empty();
        }
        String name = description.substring(0, at);
        long version;
        try {
            version = Long.parseLong(description.substring(at + 1));
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
        Optional<String> root = Optional.ofNullable(merge.getTransactionPropertiesMap().get(MergeRecords.BASE_TABLE));
        boolean inClone = baseTable != table && root.map(baseTable.root()::equals).orElse(name.equals(baseTable.displayName()));
        if (inClone) {
            return baseTable.manifestLocation(Optional.empty(), version).isPresent()
                    ? Optional.of(new Located(baseTable, baseTable.snapshot(Optional.empty(), version)))
                    : Optional.empty();
        }
        if (root.isPresent() && !root.get().equals(table.root())) {
            return Optional.empty();
        }
        Optional<String> branch = RefResolver.branch(name);
        if ((branch.isPresent() && table.refs().getBranch(branch.get()).isEmpty()) || table.manifestLocation(branch, version).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Located(table, table.snapshot(branch, version)));
    }

    private static Set<Long> removedFragmentIds(Transaction transaction)
    {
        if (transaction.hasDelete()) {
            return new HashSet<>(transaction.getDelete().getDeletedFragmentIdsList());
        }
        if (transaction.hasUpdate()) {
            return new HashSet<>(transaction.getUpdate().getRemovedFragmentIdsList());
        }
        return Set.of();
    }

    private static Set<String> holding(Map<String, long[]> moved, Set<String> inPlace)
    {
        Set<String> keys = new HashSet<>(inPlace);
        keys.addAll(moved.keySet());
        return keys;
    }

    /**
     * The live rows of the group's old fragments (as the rewrite read them), in order, become the rows of its new
     * fragments, in order.
     */
    private static void rewrite(LanceTable table, Step step, Transaction.RewriteGroup group, Map<String, Integer> baseIndex, Map<String, long[]> moved, Set<String> inPlace)
    {
        long[] origins = new long[16];
        int count = 0;
        for (DataFragment old : group.getOldFragmentsList()) {
            String key = key(step.previous(), old);
            long[] oldOrigins = moved.remove(key);
            int fromBase = inPlace.remove(key) ? baseIndex.get(key) : -1;
            RoaringBitmap live = RoaringBitmap.bitmapOfRange(0, old.getPhysicalRows());
            live.andNot(DeletionFiles.read(table.fileSystem(), step.previous(), old));
            int liveRows = live.getCardinality();
            if (count + liveRows > origins.length) {
                origins = Arrays.copyOf(origins, Math.max(count + liveRows, origins.length * 2));
            }
            PeekableIntIterator offsets = live.getIntIterator();
            while (offsets.hasNext()) {
                int offset = offsets.next();
                origins[count++] = oldOrigins != null ? oldOrigins[offset] : fromBase >= 0 ? encode(fromBase, offset) : NEW;
            }
        }
        int position = 0;
        for (DataFragment fresh : group.getNewFragmentsList()) {
            int rows = (int) fresh.getPhysicalRows();
            if (position + rows > count) {
                break;
            }
            long[] slice = Arrays.copyOfRange(origins, position, position + rows);
            if (Arrays.stream(slice).anyMatch(origin -> origin != NEW)) {
                moved.put(key(step.current(), fresh), slice);
            }
            position += rows;
        }
        long written = group.getNewFragmentsList().stream().mapToLong(DataFragment::getPhysicalRows).sum();
        if (written != count) {
            throw new LanceTableException(MERGE_HISTORY_MISSING, "Cannot follow rows through the compaction that made %s: its new fragments hold %s rows, its old fragments had %s live rows; nothing was changed"
                    .formatted(step.current().describe(), written, count));
        }
    }

    private static Map<String, DataFragment> fragments(TableSnapshot snapshot)
    {
        Map<String, DataFragment> fragments = new HashMap<>();
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            fragments.put(key(snapshot, fragment), fragment);
        }
        return fragments;
    }

    /**
     * The versions from the base to the head, oldest first: back from the head through previous versions, and from a
     * branch's first version to the version it was made from, or from a clone's first version to the base it was
     * made from. Empty when that walk passes the base without reaching it.
     */
    private static Optional<Walk> path(LanceTable table, TableSnapshot base, TableSnapshot head)
    {
        List<Step> steps = new ArrayList<>();
        Map<Optional<String>, List<Long>> versions = new HashMap<>();
        TableSnapshot current = head;
        boolean sameTable = base.tableRoot().equals(head.tableRoot());
        Optional<MergeCommit> mergeCommit = Optional.empty();
        while (!(sameTable && current.branch().equals(base.branch()) && current.version() == base.version())) {
            Optional<Transaction> transaction = Transactions.read(table.fileSystem(), current);
            if (brought(transaction, base, sameTable)) {
                mergeCommit = Optional.of(new MergeCommit(current, transaction.orElseThrow()));
                break;
            }
            Optional<String> branch = current.branch();
            List<Long> onBranch = versions.computeIfAbsent(branch, table::listVersions);
            int index = Collections.binarySearch(onBranch, current.version());
            TableSnapshot previous;
            boolean consecutive;
            if (index > 0) {
                long version = onBranch.get(index - 1);
                previous = table.snapshot(branch, version);
                consecutive = version == current.version() - 1;
            }
            else if (branch.isPresent()) {
                BranchRef ref = table.refs().getBranch(branch.get()).orElse(null);
                if (ref == null) {
                    return Optional.empty();
                }
                Optional<String> parent = RefResolver.branch(ref.parentBranch());
                if (table.manifestLocation(parent, ref.parentVersion()).isEmpty()) {
                    throw new LanceTableException(MERGE_HISTORY_MISSING, "Cannot follow the rows of merge base %s to %s: version %s, which branch '%s' was made from, is gone; nothing was changed"
                            .formatted(base.describe(), head.describe(), TableSnapshot.describe(parent, ref.parentVersion()), branch.get()));
                }
                previous = table.snapshot(parent, ref.parentVersion());
                consecutive = false;
            }
            else if (!sameTable && index == 0 && clonedFrom(transaction, base)) {
                // a clone's first version holds the fragments of the version it was cloned from
                steps.add(new Step(base, current, false, transaction));
                break;
            }
            else {
                return Optional.empty();
            }
            if (sameTable && previous.branch().equals(base.branch()) && previous.version() < base.version()) {
                return Optional.empty();
            }
            steps.add(new Step(previous, current, consecutive, transaction));
            current = previous;
        }
        Collections.reverse(steps);
        return Optional.of(new Walk(steps, mergeCommit));
    }
}
