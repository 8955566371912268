package io.lancetrino.split.changes;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.VersionChanges;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.changes.LanceChangeSplit.ChangeType;
import io.lancetrino.split.changes.LanceTableChangesHandle.VersionRef;
import io.trino.spi.connector.ConnectorSplit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The row changes of {@code table_changes}, derived per version from the manifest diff of the version and the one
 * before it on its lineage ({@link VersionChanges}), so they need no change data feed and work for versions any engine
 * wrote:
 * <ul>
 * <li>the live rows of an added fragment are inserts;</li>
 * <li>the rows of a removed fragment that were live in the version before are deletes;</li>
 * <li>rows a fragment's new deletion vector deletes and the old one did not are deletes (rows it no longer deletes,
 * which only a restore does, are inserts); an UPDATE deletes the old rows and adds a fragment of new ones, so it shows
 * as deletes and inserts;</li>
 * <li>a fragment that keeps some data files and gets others (a column added with values, a column rewritten) changes
 * no row, unless the version's transaction is an {@code Update}, which rewrites the columns of updated rows in place:
 * then the fragment's live rows are deleted and inserted;</li>
 * <li>a version whose transaction moves rows without changing them or changes only the schema or metadata
 * ({@code Rewrite}: compaction; {@code Project}, {@code Merge}: column changes; {@code CreateIndex},
 * {@code UpdateConfig}, {@code ReserveFragments}, {@code Clone}, {@code UpdateBases}, {@code DataReplacement},
 * {@code UpdateMemWalState}) changes no row. A version without a transaction (written by a tool that records none) is
 * judged by its manifest diff alone, so a compaction without one shows as deletes and inserts.</li>
 * </ul>
 */
public final class TableChanges
{
    public static final String CHANGE_TYPE = "_change_type";
    public static final String CHANGE_VERSION = "_change_version";
    public static final String CHANGE_TIMESTAMP = "_change_timestamp";

    private static final int CHANGE_TYPE_FIELD_ID = -2;
    private static final int CHANGE_VERSION_FIELD_ID = -3;
    private static final int CHANGE_TIMESTAMP_FIELD_ID = -4;

    private static final Set<String> NO_ROW_CHANGES = ImmutableSet.of(
            "rewrite", "project", "merge", "create_index", "update_config", "reserve_fragments", "clone", "update_bases", "data_replacement", "update_mem_wal_state");

    private TableChanges() {}

    public static List<LanceColumnHandle> changeColumns()
    {
        return ImmutableList.of(
                new LanceColumnHandle(CHANGE_TYPE, CHANGE_TYPE_FIELD_ID, List.of(), VARCHAR, false),
                new LanceColumnHandle(CHANGE_VERSION, CHANGE_VERSION_FIELD_ID, List.of(), BIGINT, false),
                new LanceColumnHandle(CHANGE_TIMESTAMP, CHANGE_TIMESTAMP_FIELD_ID, List.of(), TIMESTAMP_TZ_MILLIS, false));
    }

    public static boolean isChangeColumn(LanceColumnHandle column)
    {
        return column.fieldId() == CHANGE_TYPE_FIELD_ID || column.fieldId() == CHANGE_VERSION_FIELD_ID || column.fieldId() == CHANGE_TIMESTAMP_FIELD_ID;
    }

    /**
     * The versions from the newest one the predicate accepts up to the end, oldest first, walking back from the end
     * through the previous version of the same branch and, from a branch's first version, the parent version it was
     * created from. Empty when the walk reaches the table's first version, or a version whose predecessor no longer
     * exists, without accepting one.
     */
    public static Optional<List<TableSnapshot>> lineage(LanceTable table, TableSnapshot end, Predicate<TableSnapshot> isStart)
    {
        List<TableSnapshot> walked = new ArrayList<>();
        Optional<TableSnapshot> current = Optional.of(end);
        while (current.isPresent()) {
            walked.add(current.get());
            if (isStart.test(current.get())) {
                return Optional.of(ImmutableList.copyOf(walked).reverse());
            }
            current = VersionChanges.previousSnapshot(table, current.get());
        }
        return Optional.empty();
    }

    /**
     * The start version 0 of main: the empty table before version 1, so that version 1's rows are inserts.
     */
    public static final long BEFORE_FIRST_VERSION = 0;

    /**
     * One split per fragment change of each version after the start.
     *
     * @param tableName how splits name the table in errors
     */
    public static List<ConnectorSplit> planSplits(String tableName, LanceTable table, LanceTableChangesHandle handle)
    {
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        List<VersionRef> versions = handle.versions();
        TableSnapshot end = table.snapshot(handle.end().branch(), handle.end().version());
        VersionRef start = versions.getFirst();
        Optional<TableSnapshot> before = start.version() == BEFORE_FIRST_VERSION ? Optional.empty() : Optional.of(table.snapshot(start.branch(), start.version()));
        for (VersionRef ref : versions.subList(1, versions.size())) {
            TableSnapshot after = table.snapshot(ref.branch(), ref.version());
            planVersion(tableName, table, end, handle.columns(), before, after, splits);
            before = Optional.of(after);
        }
        return splits.build();
    }

    /**
     * @param previous the version before, empty for the empty table before version 1
     */
    private static void planVersion(String tableName, LanceTable table, TableSnapshot end, List<LanceColumnHandle> columns, Optional<TableSnapshot> previous, TableSnapshot after, ImmutableList.Builder<ConnectorSplit> splits)
    {
        Manifest beforeManifest = previous.map(TableSnapshot::manifest).orElse(Manifest.getDefaultInstance());
        Optional<String> operation = Transactions.read(table.fileSystem(), after).map(Transactions::operationName);
        if (operation.isPresent() && NO_ROW_CHANGES.contains(operation.get())) {
            return;
        }
        boolean inPlaceUpdate = operation.equals(Optional.of("update"));
        Map<Long, DataFragment> fragmentsBefore = byId(beforeManifest.getFragmentsList());
        Map<Long, DataFragment> fragmentsAfter = byId(after.manifest().getFragmentsList());
        long version = after.version();
        long commitMillis = RefResolver.commitTime(after).toEpochMilli();
        List<Integer> nullBefore = previous.map(before -> differentColumns(columns, before, end)).orElse(List.of());
        List<Integer> nullAfter = differentColumns(columns, after, end);
        VersionChanges changes = VersionChanges.between(beforeManifest, after.manifest());
        // only an empty table has no version before, and nothing is removed from it
        TableSnapshot before = previous.orElse(after);
        Set<Long> rewritten = new HashSet<>();
        if (inPlaceUpdate) {
            for (VersionChanges.Change change : changes.changes()) {
                if (change instanceof VersionChanges.DataFilesChanged files) {
                    rewritten.add(files.fragmentId());
                }
            }
        }
        for (VersionChanges.Change change : changes.changes()) {
            switch (change) {
                case VersionChanges.FragmentRemoved removed -> {
                    if (removed.liveRows() > 0) {
                        LanceSplit rows = LanceSplitManager.fragmentSplit(tableName, before, fragmentsBefore.get(removed.fragmentId()));
                        splits.add(new LanceChangeSplit(rows, ChangeType.DELETE, version, commitMillis, nullBefore));
                    }
                }
                case VersionChanges.FragmentAdded added -> {
                    if (added.physicalRows() > added.deletedRows()) {
                        LanceSplit rows = LanceSplitManager.fragmentSplit(tableName, after, fragmentsAfter.get(added.fragmentId()));
                        splits.add(new LanceChangeSplit(rows, ChangeType.INSERT, version, commitMillis, nullAfter));
                    }
                }
                case VersionChanges.DeletionsChanged deletions -> {
                    if (rewritten.contains(deletions.fragmentId())) {
                        break;
                    }
                    DataFragment old = fragmentsBefore.get(deletions.fragmentId());
                    DataFragment now = fragmentsAfter.get(deletions.fragmentId());
                    // rows deleted now and not before, read as they were before
                    FilePaths.deletionFile(after, now).filter(_ -> deletions.deletedAfter() > 0).ifPresent(deletionFile -> splits.add(new LanceChangeSplit(
                            LanceSplitManager.fragmentSplit(tableName, before, old).selectingRowsDeletedBy(deletionFile), ChangeType.DELETE, version, commitMillis, nullBefore)));
                    // rows deleted before and not now (a restore)
                    FilePaths.deletionFile(before, old).filter(_ -> deletions.deletedAfter() < deletions.deletedBefore()).ifPresent(deletionFile -> splits.add(new LanceChangeSplit(
                            LanceSplitManager.fragmentSplit(tableName, after, now).selectingRowsDeletedBy(deletionFile), ChangeType.INSERT, version, commitMillis, nullAfter)));
                }
                case VersionChanges.DataFilesChanged files -> {
                    if (inPlaceUpdate) {
                        splits.add(new LanceChangeSplit(LanceSplitManager.fragmentSplit(tableName, before, fragmentsBefore.get(files.fragmentId())), ChangeType.DELETE, version, commitMillis, nullBefore));
                        splits.add(new LanceChangeSplit(LanceSplitManager.fragmentSplit(tableName, after, fragmentsAfter.get(files.fragmentId())), ChangeType.INSERT, version, commitMillis, nullAfter));
                    }
                }
                default -> {
                    // schema, config and metadata changes change no row
                }
            }
        }
    }

    /**
     * The columns of the end version that the snapshot stores under the same field id with another type or shape.
     */
    private static List<Integer> differentColumns(List<LanceColumnHandle> columns, TableSnapshot snapshot, TableSnapshot end)
    {
        ImmutableList.Builder<Integer> different = ImmutableList.builder();
        for (LanceColumnHandle column : columns) {
            Optional<LanceField> stored = snapshot.schema().field(column.fieldId());
            Optional<LanceField> wanted = end.schema().field(column.fieldId());
            if (stored.isPresent() && wanted.isPresent() && !sameShape(stored.get(), wanted.get())) {
                different.add(column.fieldId());
            }
        }
        return different.build();
    }

    private static boolean sameShape(LanceField stored, LanceField wanted)
    {
        if (stored.id() != wanted.id() || !stored.logicalType().equals(wanted.logicalType()) || stored.children().size() != wanted.children().size()) {
            return false;
        }
        for (int child = 0; child < stored.children().size(); child++) {
            if (!sameShape(stored.children().get(child), wanted.children().get(child))) {
                return false;
            }
        }
        return true;
    }

    private static Map<Long, DataFragment> byId(List<DataFragment> fragments)
    {
        Map<Long, DataFragment> byId = new TreeMap<>();
        for (DataFragment fragment : fragments) {
            byId.put(fragment.getId(), fragment);
        }
        return byId;
    }
}
