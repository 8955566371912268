package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.CommitResult;
import io.lancetrino.metadata.commit.ManifestBuilder;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import static io.lancetrino.metadata.LanceErrorKind.COMMIT_CONFLICT;
import static io.lancetrino.metadata.LanceErrorKind.MERGE_CONFLICT;
import static io.lancetrino.metadata.LanceErrorKind.NOT_AN_ANCESTOR;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * Merges a branch (or a shallow clone) into a target branch as one commit on the target: a fast-forward when the
 * target has not moved since the merge base, a three-way merge at fragment granularity otherwise. The commit is an
 * {@code Update} (removed, updated and new fragments) so every Lance engine reads it as an ordinary change; the
 * source and merge base are recorded in its transaction properties.
 */
public final class BranchMerge
{
    private final TableCommitter committer;

    public BranchMerge(TableCommitter committer)
    {
        this.committer = requireNonNull(committer, "committer is null");
    }

    /**
     * @param sourceName how the source is named in messages ({@code 'dev'}, {@code lab.t_exp})
     * @param sourceId what the transaction records as the source ({@link MergeRecords})
     * @param fastForwardOnly refuse unless the target has not moved since the merge base
     * @param properties added to the transaction's properties (who ran it)
     */
    public MergeOutcome merge(
            LanceTable targetTable,
            TableSnapshot target,
            LanceTable sourceTable,
            TableSnapshot source,
            String sourceName,
            String sourceId,
            MergeBase base,
            MergePolicy policy,
            boolean dryRun,
            boolean fastForwardOnly,
            Map<String, String> properties)
    {
        MergePlan plan = plan(targetTable, target, sourceTable, source, base, policy);
        if (fastForwardOnly && !plan.fastForward()) {
            throw new LanceTableException(NOT_AN_ANCESTOR, "Table %s: %s is not an ancestor of %s: it changed since their common version %s; merge instead of fast-forwarding"
                    .formatted(targetTable.displayName(), describe(target), sourceName, base.description()));
        }
        if (plan.conflicts().stream().anyMatch(conflict -> conflict.kind() == MergeConflict.Kind.FRAGMENT_REWRITTEN)) {
            throw new LanceTableException(MERGE_CONFLICT, "Cannot merge %s into %s of table %s (merge base %s), nothing was changed: a fragment compacted on one side was changed on the other, which no on_conflict policy resolves; merge before compacting: %s"
                    .formatted(sourceName, describe(target), targetTable.displayName(), base.description(),
                            plan.conflicts().stream().map(MergeConflict::toString).collect(joining("; "))));
        }
        if (!plan.conflicts().isEmpty() && policy == MergePolicy.FAIL) {
            throw new LanceTableException(MERGE_CONFLICT, "Cannot merge %s into %s of table %s (merge base %s): %s conflict%s, nothing was changed; use on_conflict => 'source_wins' or 'target_wins' to resolve them: %s"
                    .formatted(sourceName, describe(target), targetTable.displayName(), base.description(), plan.conflicts().size(), plan.conflicts().size() == 1 ? "" : "s",
                            plan.conflicts().stream().map(MergeConflict::toString).collect(joining("; "))));
        }
        if (dryRun || plan.changesNothing(target.manifest().getFieldsList())) {
            return outcome(plan, base, OptionalLong.empty());
        }
        List<DataFragment> updated = new ArrayList<>(plan.changedFragments());
        for (Map.Entry<DataFragment, RoaringBitmap> union : plan.deletionUnions().entrySet()) {
            DataFragment fragment = union.getKey();
            updated.add(fragment.toBuilder()
                    .setDeletionFile(DeletionFiles.write(targetTable.fileSystem(), target.datasetLocation(), fragment.getId(), target.version(), union.getValue()))
                    .build());
        }
        Transaction transaction = Transaction.newBuilder()
                .setReadVersion(target.version())
                .setUuid(UUID.randomUUID().toString())
                .putAllTransactionProperties(properties)
                .putTransactionProperties(MergeRecords.SOURCE, sourceId)
                .putTransactionProperties(MergeRecords.SOURCE_VERSION, String.valueOf(source.version()))
                .putTransactionProperties(MergeRecords.BASE, base.description())
                .putTransactionProperties(MergeRecords.BASE_TABLE, base.snapshot().tableRoot())
                .putTransactionProperties(MergeRecords.FAST_FORWARD, String.valueOf(plan.fastForward()))
                .setUpdate(Transaction.Update.newBuilder()
                        .addAllRemovedFragmentIds(plan.removedFragments())
                        .addAllUpdatedFragments(updated)
                        .addAllNewFragments(plan.newFragments()))
                .build();
        CommitResult result = committer.commit(targetTable, target.branch(), transaction,
                manifest -> withNewFragmentDeletions(applySettings(manifest, plan, target), plan, targetTable, target));
        return outcome(plan, base, OptionalLong.of(result.manifest().version()));
    }

    /**
     * Where both sides' histories lead back to the base version by version, rows are followed through compactions, so
     * a compaction is no conflict. Otherwise (the base lies only on another line, reached through merges of merges)
     * the merge matches fragments by location, and refuses if rows may have moved anywhere since the base.
     */
    private static MergePlan plan(LanceTable targetTable, TableSnapshot target, LanceTable sourceTable, TableSnapshot source, MergeBase base, MergePolicy policy)
    {
        Map<String, Integer> baseIndex = RowLineage.baseIndex(base.snapshot());
        LanceTable baseTable = base.snapshot().tableRoot().equals(sourceTable.root()) ? sourceTable : targetTable;
        Optional<RowLineage> sourceRows = RowLineage.follow(sourceTable, baseTable, base.snapshot(), source, baseIndex);
        Optional<RowLineage> targetRows = RowLineage.follow(targetTable, baseTable, base.snapshot(), target, baseIndex);
        if (sourceRows.isPresent() && targetRows.isPresent()) {
            if (sourceRows.get().rewrote() || targetRows.get().rewrote()) {
                return RowMergePlanner.plan(targetTable.fileSystem(), base.snapshot(), source, target, sourceRows.get(), targetRows.get(), policy);
            }
            return MergePlanner.plan(targetTable.fileSystem(), base.snapshot(), source, target, policy);
        }
        // fragments are matched by location alone there, which is right only while no rows moved
        Optional<String> moved = Compactions.since(sourceTable, source, base.snapshot()).or(() -> Compactions.since(targetTable, target, base.snapshot()));
        if (moved.isPresent()) {
            throw new LanceTableException(MERGE_CONFLICT, ("Cannot merge into %s of table %s (merge base %s), nothing was changed: a side reaches the merge base only through other merges, "
                    + "and rows there cannot be followed through compactions (FRAGMENT_REWRITTEN): %s; merge the branches in between first, or merge from a branch made after the compaction")
                    .formatted(describe(target), targetTable.displayName(), base.description(), moved.get()));
        }
        return MergePlanner.plan(targetTable.fileSystem(), base.snapshot(), source, target, policy);
    }

    /**
     * Columns, config and base paths, which an {@code Update} does not carry. They were merged against the target as it
     * was read; a concurrent commit that changed them makes the merge fail cleanly instead of losing that change.
     */
    private static Manifest applySettings(Manifest manifest, MergePlan plan, TableSnapshot target)
    {
        Manifest.Builder next = manifest.toBuilder();
        List<Field> mergedFields = plan.schema().fields();
        if (!mergedFields.equals(target.manifest().getFieldsList())) {
            if (!manifest.getFieldsList().equals(target.manifest().getFieldsList())) {
                throw new LanceTableException(COMMIT_CONFLICT, "The columns of %s changed while merging; re-run the merge".formatted(describe(target)));
            }
            next.clearFields().addAllFields(mergedFields);
        }
        for (Map.Entry<String, Optional<String>> change : plan.configChanges().entrySet()) {
            String key = change.getKey();
            if (!Objects.equals(manifest.getConfigMap().get(key), target.manifest().getConfigMap().get(key))) {
                throw new LanceTableException(COMMIT_CONFLICT, "Config key '%s' of %s changed while merging; re-run the merge".formatted(key, describe(target)));
            }
            change.getValue().ifPresentOrElse(value -> next.putConfig(key, value), () -> next.removeConfig(key));
        }
        plan.bases().addTo(next);
        return ManifestBuilder.withFlags(next).build();
    }

    /**
     * Gives the new fragments their deleted rows once the commit numbered them (a deletion file's name holds its
     * fragment's id, so the source's file cannot be referred to under the target's id); on every attempt, as a
     * concurrent commit changes the numbering.
     */
    private static Manifest withNewFragmentDeletions(Manifest manifest, MergePlan plan, LanceTable targetTable, TableSnapshot target)
    {
        Manifest.Builder next = manifest.toBuilder();
        int first = manifest.getFragmentsCount() - plan.newFragments().size();
        for (int i = 0; i < plan.newFragments().size(); i++) {
            RoaringBitmap deleted = plan.newFragmentDeletions().get(i);
            DataFragment fragment = manifest.getFragments(first + i);
            if (!fragment.getFilesList().equals(plan.newFragments().get(i).getFilesList())) {
                throw new IllegalStateException("The new fragments of the merge are not the last fragments of " + describe(target));
            }
            if (!deleted.isEmpty()) {
                next.setFragments(first + i, fragment.toBuilder()
                        .setDeletionFile(DeletionFiles.write(targetTable.fileSystem(), target.datasetLocation(), fragment.getId(), target.version(), deleted)));
            }
        }
        return ManifestBuilder.withFlags(next).build();
    }

    private static MergeOutcome outcome(MergePlan plan, MergeBase base, OptionalLong version)
    {
        return new MergeOutcome(plan.newFragments().size(), plan.rowsAdded(), plan.rowsDeleted(), plan.conflicts(), plan.fastForward(), base.description(), version);
    }

    private static String describe(TableSnapshot snapshot)
    {
        return snapshot.branch().map(name -> "branch '" + name + "'").orElse("'main'");
    }
}
