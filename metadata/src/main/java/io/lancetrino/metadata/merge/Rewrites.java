package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.lancetrino.metadata.LanceErrorKind.MERGE_HISTORY_MISSING;

/**
 * Fragments a side compacted since the merge base (Lance {@code Rewrite} transactions), by the location of their first
 * data file: their rows live on in other fragments, so a change the other side made to them cannot be merged.
 */
final class Rewrites
{
    private Rewrites() {}

    static Set<String> rewrittenSince(LanceTable table, TableSnapshot head, TableSnapshot base)
    {
        long after = base.tableRoot().equals(head.tableRoot()) && base.branch().equals(head.branch()) ? base.version() : 0;
        Set<String> keys = new HashSet<>();
        List<Long> versions = table.listVersions(head.branch());
        long previous = -1;
        for (long version : versions) {
            if (version <= after || version > head.version()) {
                continue;
            }
            if ((previous >= 0 && version != previous + 1) || (previous < 0 && after > 0 && version != after + 1)) {
                // a rewrite among the versions that are gone would go unseen
                throw new LanceTableException(MERGE_HISTORY_MISSING, "Cannot merge: versions of %s after %s before %s are gone (cleaned up), so the merge cannot tell which fragments were compacted since merge base %s; nothing was changed"
                        .formatted(head.branch().map(name -> "branch '" + name + "'").orElse("main"), previous >= 0 ? previous : after, version, base.describe()));
            }
            previous = version;
            Optional<Transaction> transaction = Transactions.read(table.fileSystem(), table.snapshot(head.branch(), version));
            if (transaction.isEmpty() || !transaction.get().hasRewrite() || !versions.contains(version - 1)) {
                continue;
            }
            TableSnapshot before = table.snapshot(head.branch(), version - 1);
            Set<Long> ids = new HashSet<>();
            Transaction.Rewrite rewrite = transaction.get().getRewrite();
            rewrite.getOldFragmentsList().forEach(fragment -> ids.add(fragment.getId()));
            rewrite.getGroupsList().forEach(group -> group.getOldFragmentsList().forEach(fragment -> ids.add(fragment.getId())));
            for (DataFragment fragment : before.manifest().getFragmentsList()) {
                if (ids.contains(fragment.getId())) {
                    keys.add(FilePaths.dataFile(before, fragment, fragment.getFiles(0)));
                }
            }
        }
        return keys;
    }
}
