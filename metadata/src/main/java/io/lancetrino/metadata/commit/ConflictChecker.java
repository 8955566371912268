package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.proto.Transaction.OperationCase;

import java.util.HashSet;
import java.util.Set;

import static io.lancetrino.metadata.proto.Transaction.OperationCase.APPEND;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.CLONE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.CREATE_INDEX;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.DATA_REPLACEMENT;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.DELETE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.MERGE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.OVERWRITE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.PROJECT;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.RESERVE_FRAGMENTS;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.RESTORE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.REWRITE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.UPDATE;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.UPDATE_BASES;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.UPDATE_CONFIG;
import static io.lancetrino.metadata.proto.Transaction.OperationCase.UPDATE_MEM_WAL_STATE;

/**
 * Lance's conflict rules for the operations this connector commits, judged against one transaction another writer
 * committed after our read version. Appends never conflict; deletes, updates and compactions on different fragments
 * rebase; changes to the same fragment must be re-run.
 */
public final class ConflictChecker
{
    public enum Outcome
    {
        COMPATIBLE,
        /** re-reading the table and running the statement again may succeed */
        RETRYABLE,
        INCOMPATIBLE,
    }

    private static final Set<OperationCase> METADATA_ONLY = Set.of(CREATE_INDEX, RESERVE_FRAGMENTS, CLONE, UPDATE_CONFIG, UPDATE_BASES);

    private ConflictChecker() {}

    public static Outcome check(Transaction mine, Transaction theirs)
    {
        OperationCase their = theirs.getOperationCase();
        return switch (mine.getOperationCase()) {
            case APPEND -> their == OVERWRITE || their == RESTORE || their == UPDATE_MEM_WAL_STATE ? Outcome.INCOMPATIBLE : Outcome.COMPATIBLE;
            case DELETE, UPDATE -> checkRowChange(mine, theirs);
            case MERGE -> {
                if (their == OVERWRITE || their == RESTORE || their == PROJECT || their == UPDATE_MEM_WAL_STATE) {
                    yield Outcome.INCOMPATIBLE;
                }
                yield METADATA_ONLY.contains(their) ? Outcome.COMPATIBLE : Outcome.RETRYABLE;
            }
            case PROJECT -> {
                if (their == OVERWRITE || their == RESTORE || their == UPDATE_MEM_WAL_STATE) {
                    yield Outcome.INCOMPATIBLE;
                }
                yield their == MERGE || their == PROJECT ? Outcome.RETRYABLE : Outcome.COMPATIBLE;
            }
            case REWRITE -> checkRewrite(mine, theirs);
            case UPDATE_CONFIG -> their == UPDATE_CONFIG || their == OVERWRITE ? Outcome.RETRYABLE : Outcome.COMPATIBLE;
            // dropping an index changes only the index section, rebuilt on the latest version
            case CREATE_INDEX -> their == OVERWRITE || their == RESTORE ? Outcome.INCOMPATIBLE : Outcome.COMPATIBLE;
            case OVERWRITE, RESTORE, CLONE -> their == UPDATE_MEM_WAL_STATE ? Outcome.INCOMPATIBLE : Outcome.COMPATIBLE;
            default -> Outcome.RETRYABLE;
        };
    }

    /**
     * A compaction holds as long as the fragments it replaced are as it read them: appends and metadata changes
     * commute with it; a change to one of its fragments, a schema change adding data files and a new index (whose
     * fragment bitmap may name the old fragments) mean compacting again.
     */
    private static Outcome checkRewrite(Transaction mine, Transaction theirs)
    {
        OperationCase their = theirs.getOperationCase();
        return switch (their) {
            case OVERWRITE, RESTORE -> Outcome.INCOMPATIBLE;
            case MERGE, CREATE_INDEX -> Outcome.RETRYABLE;
            case DELETE, UPDATE, REWRITE, DATA_REPLACEMENT -> {
                Set<Long> touched = touchedFragments(theirs);
                touched.retainAll(touchedFragments(mine));
                yield touched.isEmpty() ? Outcome.COMPATIBLE : Outcome.RETRYABLE;
            }
            case APPEND, RESERVE_FRAGMENTS, PROJECT, CLONE, UPDATE_CONFIG, UPDATE_BASES, UPDATE_MEM_WAL_STATE -> Outcome.COMPATIBLE;
            // an operation this connector does not know may have changed anything
            default -> Outcome.RETRYABLE;
        };
    }

    private static Outcome checkRowChange(Transaction mine, Transaction theirs)
    {
        OperationCase their = theirs.getOperationCase();
        if (their == OVERWRITE || their == RESTORE || their == UPDATE_MEM_WAL_STATE) {
            return Outcome.INCOMPATIBLE;
        }
        if (their == MERGE) {
            return Outcome.RETRYABLE;
        }
        if (their == DELETE || their == UPDATE || their == REWRITE || their == DATA_REPLACEMENT) {
            Set<Long> touched = touchedFragments(theirs);
            touched.retainAll(touchedFragments(mine));
            return touched.isEmpty() ? Outcome.COMPATIBLE : Outcome.RETRYABLE;
        }
        return Outcome.COMPATIBLE;
    }

    /**
     * Fragments whose rows or files the transaction changed or removed.
     */
    static Set<Long> touchedFragments(Transaction transaction)
    {
        Set<Long> ids = new HashSet<>();
        switch (transaction.getOperationCase()) {
            case DELETE -> {
                transaction.getDelete().getUpdatedFragmentsList().forEach(fragment -> ids.add(fragment.getId()));
                ids.addAll(transaction.getDelete().getDeletedFragmentIdsList());
            }
            case UPDATE -> {
                transaction.getUpdate().getUpdatedFragmentsList().forEach(fragment -> ids.add(fragment.getId()));
                ids.addAll(transaction.getUpdate().getRemovedFragmentIdsList());
            }
            case REWRITE -> {
                transaction.getRewrite().getOldFragmentsList().forEach(fragment -> ids.add(fragment.getId()));
                for (Transaction.RewriteGroup group : transaction.getRewrite().getGroupsList()) {
                    for (DataFragment fragment : group.getOldFragmentsList()) {
                        ids.add(fragment.getId());
                    }
                }
            }
            case DATA_REPLACEMENT -> transaction.getDataReplacement().getReplacementsList().forEach(group -> ids.add(group.getFragmentId()));
            default -> {}
        }
        return ids;
    }
}
