package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;
import static io.lancetrino.metadata.LanceErrorKind.INVALID_REF;
import static io.lancetrino.metadata.LanceErrorKind.MERGE_HISTORY_MISSING;

/**
 * Finds the merge base: the newest version both branches descend from (or the version a clone was made from, moved
 * forward to what the newest earlier merge of the clone brought over).
 */
public final class MergeBases
{
    private static final int FROM_SOURCE = 1;
    private static final int FROM_TARGET = 2;

    private MergeBases() {}

    private record Point(Optional<String> branch, long version) {}

    private record Visit(TableSnapshot snapshot, Instant committed)
    {
        Point point()
        {
            return new Point(snapshot.branch(), snapshot.version());
        }
    }

    /**
     * A version descends from the one before it on its branch, a branch's first version from the version it was made
     * from, and a merge (or fast-forward) also from the version it brought over: so an earlier merge between the two
     * branches, or one that reached both through other branches, moves the base past their fork point. The walk goes
     * back from both heads newest first and stops at the first version reached from both; commit times grow along
     * every edge, so no newer version can be reached from both.
     */
    public static MergeBase forBranches(LanceTable table, TableSnapshot source, TableSnapshot target)
    {
        Map<Point, Integer> reached = new HashMap<>();
        Map<Point, Integer> walked = new HashMap<>();
        PriorityQueue<Visit> newestFirst = new PriorityQueue<>(Comparator.comparing(Visit::committed).reversed());
        reach(newestFirst, reached, source, FROM_SOURCE);
        reach(newestFirst, reached, target, FROM_TARGET);
        Map<Optional<String>, List<Long>> versions = new HashMap<>();
        while (!newestFirst.isEmpty()) {
            Visit visit = newestFirst.poll();
            Point point = visit.point();
            int from = reached.get(point);
            if (from == (FROM_SOURCE | FROM_TARGET)) {
                return new MergeBase(visit.snapshot(), describe(point.branch(), point.version()));
            }
            if (walked.getOrDefault(point, 0) == from) {
                continue;
            }
            walked.put(point, from);
            for (TableSnapshot parent : parents(table, visit.snapshot(), versions)) {
                reach(newestFirst, reached, parent, from);
            }
        }
        throw new LanceTableException(CORRUPT_MANIFEST, "Table %s: %s and %s share no history".formatted(table.displayName(), source.describe(), target.describe()));
    }

    private static void reach(PriorityQueue<Visit> queue, Map<Point, Integer> reached, TableSnapshot snapshot, int from)
    {
        Point point = new Point(snapshot.branch(), snapshot.version());
        int before = reached.getOrDefault(point, 0);
        if ((before | from) != before) {
            reached.put(point, before | from);
            queue.add(new Visit(snapshot, RefResolver.commitTime(snapshot)));
        }
    }

    private static List<TableSnapshot> parents(LanceTable table, TableSnapshot snapshot, Map<Optional<String>, List<Long>> versions)
    {
        List<TableSnapshot> parents = new ArrayList<>();
        Optional<String> branch = snapshot.branch();
        List<Long> onBranch = versions.computeIfAbsent(branch, table::listVersions);
        int index = Collections.binarySearch(onBranch, snapshot.version());
        if (index > 0) {
            parents.add(table.snapshot(branch, onBranch.get(index - 1)));
        }
        else if (branch.isPresent()) {
            BranchRef ref = table.refs().getBranch(branch.get())
                    .orElseThrow(() -> new LanceTableException(INVALID_REF, "Table %s has no branch '%s'".formatted(table.displayName(), branch.get())));
            Optional<String> parent = RefResolver.branch(ref.parentBranch());
            if (table.manifestLocation(parent, ref.parentVersion()).isEmpty()) {
                throw new LanceTableException(MERGE_HISTORY_MISSING, "Table %s: version %s, which branch '%s' was made from, is gone (cleaned up), so the merge base cannot be found; nothing was changed"
                        .formatted(table.displayName(), TableSnapshot.describe(parent, ref.parentVersion()), branch.get()));
            }
            parents.add(table.snapshot(parent, ref.parentVersion()));
        }
        Optional<MergeRecords.BranchVersion> merged = Transactions.read(table.fileSystem(), snapshot).flatMap(MergeRecords::mergedBranchVersion);
        if (merged.isPresent()) {
            Optional<String> source = merged.get().branch();
            boolean sourceExists = source.isEmpty() || table.refs().getBranch(source.get()).isPresent();
            if (sourceExists && table.manifestLocation(source, merged.get().version()).isEmpty()) {
                throw new LanceTableException(MERGE_HISTORY_MISSING, "Table %s: version %s, which the merge committed as %s brought over, is gone (cleaned up), so the merge base cannot be found; nothing was changed"
                        .formatted(table.displayName(), TableSnapshot.describe(source, merged.get().version()), snapshot.describe()));
            }
            if (sourceExists) {
                parents.add(table.snapshot(source, merged.get().version()));
            }
        }
        return parents;
    }

    /**
     * The base for merging a shallow clone back into the table it was cloned from.
     */
    public static MergeBase forClone(LanceTable targetTable, TableSnapshot target, LanceTable clone, TableSnapshot source)
    {
        Transaction.Clone origin = cloneOrigin(clone);
        if (!origin.getIsShallow()) {
            throw new LanceTableException(INVALID_REF, "Table %s is a deep clone: its files are copies, so it cannot be merged back; merge a shallow clone or a branch"
                    .formatted(clone.displayName()));
        }
        Optional<String> originBranch = origin.hasRefName() ? Optional.of(origin.getRefName()) : Optional.empty();
        if (!origin.getRefPath().equals(target.datasetLocation()) || !originBranch.equals(target.branch())) {
            throw new LanceTableException(INVALID_REF, "Table %s was cloned from %s (%s), not from %s of table %s"
                    .formatted(clone.displayName(), origin.getRefPath(), describe(originBranch, origin.getRefVersion()), target.branch().map(name -> "branch '" + name + "'").orElse("main"), targetTable.displayName()));
        }
        MergeBase best = new MergeBase(targetTable.snapshot(target.branch(), origin.getRefVersion()), describe(target.branch(), origin.getRefVersion()));
        Optional<MergeRecords.Found> merged = MergeRecords.latestMergeFrom(targetTable, target.branch(), origin.getRefVersion(), MergeRecords.tableSource(clone.root()));
        if (merged.isPresent() && merged.get().sourceVersion() <= source.version() && clone.manifestLocation(Optional.empty(), merged.get().sourceVersion()).isPresent()) {
            best = new MergeBase(clone.snapshot(Optional.empty(), merged.get().sourceVersion()), clone.displayName() + "@" + merged.get().sourceVersion());
        }
        return best;
    }

    /**
     * The {@code Clone} transaction of a table's first version, if it was made as a clone.
     */
    public static Transaction.Clone cloneOrigin(LanceTable clone)
    {
        List<Long> versions = clone.listVersions(Optional.empty());
        Optional<Transaction> first = versions.isEmpty() ? Optional.empty() : Transactions.read(clone.fileSystem(), clone.snapshot(Optional.empty(), versions.getFirst()));
        if (first.isEmpty() || !first.get().hasClone()) {
            throw new LanceTableException(INVALID_REF, "Table %s is not a clone: its first version was not made by a clone".formatted(clone.displayName()));
        }
        return first.get().getClone();
    }

    static String describe(Optional<String> branch, long version)
    {
        return branch.orElse(RefResolver.MAIN) + "@" + version;
    }
}
