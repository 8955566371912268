package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.proto.Transaction.OperationCase;

import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A compaction gives way to user writes: the groups whose fragments a DELETE, UPDATE, MERGE or another compaction
 * changed after the compaction read them are dropped, and the rest still commits.
 */
final class CompactionYield
{
    private static final Set<OperationCase> FRAGMENT_CHANGES = Set.of(OperationCase.DELETE, OperationCase.UPDATE, OperationCase.REWRITE, OperationCase.DATA_REPLACEMENT);

    private CompactionYield() {}

    static boolean applies(Transaction mine, Transaction theirs)
    {
        // the deprecated single-group form has nothing to drop but everything
        return mine.getOperationCase() == OperationCase.REWRITE && mine.getRewrite().getGroupsCount() > 0
                && FRAGMENT_CHANGES.contains(theirs.getOperationCase());
    }

    /**
     * @return the compaction without the groups {@code theirs} changed, or empty when no group is left
     */
    static Optional<Transaction> without(Transaction mine, Transaction theirs)
    {
        Set<Long> changed = ConflictChecker.touchedFragments(theirs);
        Transaction.Rewrite.Builder rewrite = mine.getRewrite().toBuilder().clearGroups();
        for (Transaction.RewriteGroup group : mine.getRewrite().getGroupsList()) {
            if (group.getOldFragmentsList().stream().noneMatch(fragment -> changed.contains(fragment.getId()))) {
                rewrite.addGroups(group);
            }
        }
        if (rewrite.getGroupsCount() == 0) {
            return Optional.empty();
        }
        return Optional.of(mine.toBuilder().setUuid(UUID.randomUUID().toString()).setRewrite(rewrite).build());
    }
}
