package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.commit.ConflictChecker.Outcome;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;
import org.junit.jupiter.api.Test;

import static io.lancetrino.metadata.commit.ConflictChecker.Outcome.COMPATIBLE;
import static io.lancetrino.metadata.commit.ConflictChecker.Outcome.INCOMPATIBLE;
import static io.lancetrino.metadata.commit.ConflictChecker.Outcome.RETRYABLE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lance's conflict matrix for a compaction ({@code Rewrite}) against what another writer committed after its read
 * version, and for row changes against a committed compaction.
 */
final class TestConflictChecker
{
    private static final Transaction REWRITE_1_2 = rewrite(1, 2);

    @Test
    void testRewriteAgainstOperationsThatLeaveItsFragmentsAlone()
    {
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setAppend(Transaction.Append.newBuilder().addFragments(fragment(0))))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setReserveFragments(Transaction.ReserveFragments.newBuilder().setNumFragments(3)))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setProject(Transaction.Project.getDefaultInstance()))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setClone(Transaction.Clone.getDefaultInstance()))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setUpdateConfig(Transaction.UpdateConfig.getDefaultInstance()))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setUpdateBases(Transaction.UpdateBases.getDefaultInstance()))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setUpdateMemWalState(Transaction.UpdateMemWalState.getDefaultInstance()))).isEqualTo(COMPATIBLE);
        // changes to other fragments
        assertThat(check(REWRITE_1_2, delete(3))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setUpdate(Transaction.Update.newBuilder().addUpdatedFragments(fragment(0)).addNewFragments(fragment(0))))).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, rewrite(3, 4).toBuilder())).isEqualTo(COMPATIBLE);
        assertThat(check(REWRITE_1_2, dataReplacement(5))).isEqualTo(COMPATIBLE);
    }

    @Test
    void testRewriteAgainstChangesToItsFragments()
    {
        assertThat(check(REWRITE_1_2, delete(2))).isEqualTo(RETRYABLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setDelete(Transaction.Delete.newBuilder().addDeletedFragmentIds(1)))).isEqualTo(RETRYABLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setUpdate(Transaction.Update.newBuilder().addRemovedFragmentIds(1)))).isEqualTo(RETRYABLE);
        assertThat(check(REWRITE_1_2, rewrite(2, 3).toBuilder())).isEqualTo(RETRYABLE);
        assertThat(check(REWRITE_1_2, dataReplacement(1))).isEqualTo(RETRYABLE);
        // new columns bring new data files for every fragment; a new index may cover the old fragments
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setMerge(Transaction.Merge.getDefaultInstance()))).isEqualTo(RETRYABLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setCreateIndex(Transaction.CreateIndex.getDefaultInstance()))).isEqualTo(RETRYABLE);
    }

    @Test
    void testRewriteAgainstReplacedData()
    {
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setOverwrite(Transaction.Overwrite.getDefaultInstance()))).isEqualTo(INCOMPATIBLE);
        assertThat(check(REWRITE_1_2, Transaction.newBuilder().setRestore(Transaction.Restore.newBuilder().setVersion(1)))).isEqualTo(INCOMPATIBLE);
    }

    @Test
    void testRowChangesAgainstACommittedRewrite()
    {
        assertThat(ConflictChecker.check(delete(2).build(), REWRITE_1_2)).isEqualTo(RETRYABLE);
        assertThat(ConflictChecker.check(delete(3).build(), REWRITE_1_2)).isEqualTo(COMPATIBLE);
        assertThat(ConflictChecker.check(Transaction.newBuilder().setUpdate(Transaction.Update.newBuilder().addRemovedFragmentIds(1)).build(), REWRITE_1_2)).isEqualTo(RETRYABLE);
        // an append never conflicts with a compaction
        assertThat(ConflictChecker.check(Transaction.newBuilder().setAppend(Transaction.Append.newBuilder().addFragments(fragment(0))).build(), REWRITE_1_2)).isEqualTo(COMPATIBLE);
    }

    private static Outcome check(Transaction mine, Transaction.Builder theirs)
    {
        return ConflictChecker.check(mine, theirs.build());
    }

    private static Transaction rewrite(long... oldIds)
    {
        Transaction.RewriteGroup.Builder group = Transaction.RewriteGroup.newBuilder().addNewFragments(fragment(0));
        for (long id : oldIds) {
            group.addOldFragments(fragment(id));
        }
        return Transaction.newBuilder().setRewrite(Transaction.Rewrite.newBuilder().addGroups(group)).build();
    }

    private static Transaction.Builder delete(long fragmentId)
    {
        return Transaction.newBuilder().setDelete(Transaction.Delete.newBuilder().addUpdatedFragments(fragment(fragmentId)));
    }

    private static Transaction.Builder dataReplacement(long fragmentId)
    {
        return Transaction.newBuilder().setDataReplacement(Transaction.DataReplacement.newBuilder()
                .addReplacements(Transaction.DataReplacementGroup.newBuilder().setFragmentId(fragmentId)));
    }

    private static DataFragment fragment(long id)
    {
        return DataFragment.newBuilder().setId(id).setPhysicalRows(10).build();
    }
}
