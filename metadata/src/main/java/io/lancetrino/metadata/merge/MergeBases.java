package io.lancetrino.metadata.merge;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;

import java.util.List;
import java.util.Optional;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;
import static io.lancetrino.metadata.LanceErrorKind.INVALID_REF;

/**
 * Finds the merge base: the fork point of the two branches (or the version a clone was made from), moved forward to
 * what the newest earlier merge between the two sides brought over.
 */
public final class MergeBases
{
    private static final int MAX_BRANCH_DEPTH = 1000;

    private MergeBases() {}

    private record Point(Optional<String> branch, long version) {}

    public static MergeBase forBranches(LanceTable table, TableSnapshot source, TableSnapshot target)
    {
        List<Point> sourceChain = chain(table, source);
        List<Point> targetChain = chain(table, target);
        Point fork = null;
        for (Point onTarget : targetChain) {
            for (Point onSource : sourceChain) {
                if (onTarget.branch().equals(onSource.branch())) {
                    fork = new Point(onTarget.branch(), Math.min(onTarget.version(), onSource.version()));
                    break;
                }
            }
            if (fork != null) {
                break;
            }
        }
        if (fork == null) {
            throw new LanceTableException(CORRUPT_MANIFEST, "Table %s: %s and %s share no history".formatted(table.displayName(), source.describe(), target.describe()));
        }
        MergeBase best = new MergeBase(table.snapshot(fork.branch(), fork.version()), describe(fork.branch(), fork.version()));
        long targetAfter = fork.branch().equals(target.branch()) ? fork.version() : 0;
        long sourceAfter = fork.branch().equals(source.branch()) ? fork.version() : 0;
        Optional<MergeRecords.Found> intoTarget = MergeRecords.latestMergeFrom(table, target.branch(), targetAfter, MergeRecords.branchSource(source.branch()));
        Optional<MergeRecords.Found> intoSource = MergeRecords.latestMergeFrom(table, source.branch(), sourceAfter, MergeRecords.branchSource(target.branch()));
        TableSnapshot newestMerge = null;
        if (intoTarget.isPresent() && intoTarget.get().sourceVersion() <= source.version() && table.manifestLocation(source.branch(), intoTarget.get().sourceVersion()).isPresent()) {
            newestMerge = intoTarget.get().mergeCommit();
            best = new MergeBase(table.snapshot(source.branch(), intoTarget.get().sourceVersion()), describe(source.branch(), intoTarget.get().sourceVersion()));
        }
        if (intoSource.isPresent() && intoSource.get().sourceVersion() <= target.version() && table.manifestLocation(target.branch(), intoSource.get().sourceVersion()).isPresent()
                && (newestMerge == null || RefResolver.commitTime(intoSource.get().mergeCommit()).isAfter(RefResolver.commitTime(newestMerge)))) {
            best = new MergeBase(table.snapshot(target.branch(), intoSource.get().sourceVersion()), describe(target.branch(), intoSource.get().sourceVersion()));
        }
        return best;
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

    private static List<Point> chain(LanceTable table, TableSnapshot snapshot)
    {
        ImmutableList.Builder<Point> chain = ImmutableList.builder();
        Point point = new Point(snapshot.branch(), snapshot.version());
        for (int depth = 0; depth < MAX_BRANCH_DEPTH; depth++) {
            chain.add(point);
            if (point.branch().isEmpty()) {
                return chain.build();
            }
            String name = point.branch().get();
            BranchRef ref = table.refs().getBranch(name)
                    .orElseThrow(() -> new LanceTableException(INVALID_REF, "Table %s has no branch '%s'".formatted(table.displayName(), name)));
            point = new Point(ref.parentBranch().filter(parent -> !parent.equals(RefResolver.MAIN)), ref.parentVersion());
        }
        throw new LanceTableException(CORRUPT_MANIFEST, "Table %s: the branches above %s form a cycle".formatted(table.displayName(), snapshot.describe()));
    }
}
