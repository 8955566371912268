package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether rows may have moved anywhere in a side's history since the merge base, where that history reaches the base
 * only through other merges (so {@link RowLineage} cannot follow it): a compaction in any version committed after the
 * base among the head's ancestors (previous versions, branch points, versions merges brought over), or a version
 * there that is gone, which might have been one.
 */
final class Compactions
{
    private Compactions() {}

    /** The first compaction (or missing version) found, described; empty when rows stayed where they were. */
    static Optional<String> since(LanceTable table, TableSnapshot head, TableSnapshot base)
    {
        Instant baseTime = RefResolver.commitTime(base);
        Map<Optional<String>, List<Long>> versions = new HashMap<>();
        Set<String> visited = new HashSet<>();
        Deque<TableSnapshot> pending = new ArrayDeque<>();
        pending.add(head);
        while (!pending.isEmpty()) {
            TableSnapshot snapshot = pending.removeLast();
            if (!visited.add(snapshot.describe()) || RefResolver.commitTime(snapshot).isBefore(baseTime)
                    || (snapshot.branch().equals(base.branch()) && snapshot.version() <= base.version() && snapshot.tableRoot().equals(base.tableRoot()))) {
                continue;
            }
            Optional<Transaction> transaction = Transactions.read(table.fileSystem(), snapshot);
            if (transaction.isPresent() && transaction.get().hasRewrite()) {
                return Optional.of("the compaction that made " + snapshot.describe());
            }
            Optional<String> branch = snapshot.branch();
            List<Long> onBranch = versions.computeIfAbsent(branch, table::listVersions);
            int index = Collections.binarySearch(onBranch, snapshot.version());
            if (index > 0) {
                long previous = onBranch.get(index - 1);
                if (previous != snapshot.version() - 1) {
                    return Optional.of("versions of %s before %s, which are gone (cleaned up)".formatted(branch.orElse(RefResolver.MAIN), snapshot.describe()));
                }
                pending.add(table.snapshot(branch, previous));
            }
            else if (branch.isPresent()) {
                Optional<BranchRef> ref = table.refs().getBranch(branch.get());
                if (ref.isEmpty()) {
                    return Optional.of("the history of branch '%s', which is gone".formatted(branch.get()));
                }
                Optional<String> parent = RefResolver.branch(ref.get().parentBranch());
                if (table.manifestLocation(parent, ref.get().parentVersion()).isEmpty()) {
                    return Optional.of("version %s, which is gone (cleaned up)".formatted(TableSnapshot.describe(parent, ref.get().parentVersion())));
                }
                pending.add(table.snapshot(parent, ref.get().parentVersion()));
            }
            Optional<MergeRecords.BranchVersion> merged = transaction.flatMap(MergeRecords::mergedBranchVersion);
            if (merged.isPresent()) {
                Optional<String> source = merged.get().branch();
                if (table.manifestLocation(source, merged.get().version()).isEmpty()) {
                    return Optional.of("version %s, which is gone (cleaned up)".formatted(TableSnapshot.describe(source, merged.get().version())));
                }
                pending.add(table.snapshot(source, merged.get().version()));
            }
        }
        return Optional.empty();
    }
}
