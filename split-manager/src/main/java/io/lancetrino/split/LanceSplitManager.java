package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.split.changes.LanceTableChangesHandle;
import io.lancetrino.split.changes.TableChanges;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.split.index.IndexSelection;
import io.lancetrino.split.search.LanceSearchSplit;
import io.lancetrino.split.index.ScalarIndexLookup;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Maps fragments to splits from the manifest, and from scalar indexes when the scan has a predicate an index answers
 * (then fragments with no matching row get no split, and the others read only the rows the index selected). No data
 * file is opened and no native code runs here.
 */
public final class LanceSplitManager
        implements ConnectorSplitManager
{
    public static final String USE_SCALAR_INDEX_PROPERTY = "use_scalar_index";
    // above this share of a split's rows, an index's selection is not handed to the split
    private static final double MAX_INDEXED_SHARE = 0.5;

    private final LanceTables tables;
    private final ScalarIndexLookup indexLookup;
    private final int maxSplitRows;
    public static final String DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY = "dynamic_filtering_wait_timeout";

    private final long dynamicFilteringWaitMillis;

    public LanceSplitManager(LanceTables tables, LanceConfig config)
    {
        this(tables, new ScalarIndexLookup(config), config);
    }

    @Inject
    public LanceSplitManager(LanceTables tables, ScalarIndexLookup indexLookup, LanceConfig config)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.indexLookup = requireNonNull(indexLookup, "indexLookup is null");
        this.maxSplitRows = config.getMaxSplitRows();
        this.dynamicFilteringWaitMillis = config.getDynamicFilteringWaitTimeout().toMillis();
    }

    @Override
    public ConnectorSplitSource getSplits(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorTableHandle tableHandle,
            Set<ColumnHandle> dynamicFilterColumns,
            Constraint constraint)
    {
        if (tableHandle instanceof LanceTableChangesHandle changes) {
            try {
                LanceTable table = tables.open(session.getIdentity(), changes.tableRoot(), changes.schemaTableName().toString());
                return new LanceSplitSource(TableChanges.planSplits(changes.schemaTableName().toString(), table, changes), 0);
            }
            catch (LanceTableException e) {
                throw LanceErrorCode.toTrinoException(e);
            }
        }
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        TableSnapshot snapshot;
        IndexSelection selection;
        try {
            LanceTable table = tables.open(session.getIdentity(), handle.tableRoot(), handle.schemaTableName().toString());
            snapshot = table.snapshot(handle.branch(), handle.version());
            if (handle.isIndexSearch()) {
                return searchSplit(handle, snapshot);
            }
            selection = useScalarIndex(session) ? indexLookup.select(handle.displayName(), snapshot, table.fileSystem(), handle.constraint(), handle.labelPredicates()) : IndexSelection.none();
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
        PlannedSplits planned = planSplits(handle, snapshot, selection);
        return new LanceSplitSource(planned.splits(), dynamicFilterColumns.isEmpty() ? 0 : dynamicFilteringWaitMillis(session), planned.metrics());
    }

    /**
     * The one split of a search the SDK runs, with the rows it searches flat (those no index of the search covers)
     * for {@code EXPLAIN ANALYZE}.
     */
    private static ConnectorSplitSource searchSplit(LanceTableHandle handle, TableSnapshot snapshot)
    {
        List<String> indexNames = handle.vectorSearch().map(search -> search.indexName().stream().toList())
                .orElseGet(() -> handle.textSearch().orElseThrow().indexNames());
        List<IndexSegments> indexes = TableIndexes.describe(handle.displayName(), snapshot).stream()
                .filter(index -> indexNames.contains(index.name()))
                .toList();
        long rowsFlat = indexes.isEmpty()
                ? VersionSummary.of(snapshot.manifest()).liveRows()
                : indexes.stream().mapToLong(IndexSegments::liveRowsNotCovered).max().orElseThrow();
        Metrics metrics = new Metrics(ImmutableMap.of("searchRowsFlat", new LongCount(rowsFlat)));
        return new LanceSplitSource(List.of(new LanceSearchSplit(handle.displayName(), datasetVersion(snapshot))), 0, metrics);
    }

    List<ConnectorSplit> planSplits(LanceTableHandle handle, TableSnapshot snapshot)
    {
        return planSplits(handle, snapshot, IndexSelection.none()).splits();
    }

    record PlannedSplits(List<ConnectorSplit> splits, Metrics metrics) {}

    private PlannedSplits planSplits(LanceTableHandle handle, TableSnapshot snapshot, IndexSelection selection)
    {
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        long remaining = handle.limit().orElse(Long.MAX_VALUE);
        String table = handle.displayName();
        long fragmentsSkipped = 0;
        long rowsSkipped = 0;
        try {
            for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
                if (remaining <= 0) {
                    break;
                }
                LanceSplit whole = fragmentSplit(table, snapshot, fragment);
                long physicalRows = whole.physicalRows();
                Optional<RoaringBitmap> indexed = selection.rows(fragment.getId());
                if (indexed.isPresent() && indexed.get().isEmpty()) {
                    fragmentsSkipped++;
                    rowsSkipped += physicalRows;
                    continue;
                }
                for (long start = 0; start < physicalRows && remaining > 0; start += maxSplitRows) {
                    long end = Math.min(physicalRows, start + maxSplitRows);
                    LanceSplit split = new LanceSplit(table, fragment.getId(), whole.dataFiles(), start, end, whole.deletionFile(), physicalRows, whole.deletedRows(), whole.dataset());
                    if (indexed.isPresent()) {
                        RoaringBitmap rows = RoaringBitmap.and(indexed.get(), RoaringBitmap.bitmapOfRange(start, end));
                        long selected = rows.getLongCardinality();
                        if (selected > (end - start) * MAX_INDEXED_SHARE) {
                            // most rows match: reading the range whole costs the same and keeps the split small
                            splits.add(split);
                        }
                        else if (selected > 0) {
                            // only the range the selected rows span is read
                            rowsSkipped += end - start - selected;
                            splits.add(split.withIndexedRows(rows.first(), rows.last() + 1L, IndexedRows.of(selection.indexes(), rows, end - start - selected)));
                        }
                        else {
                            rowsSkipped += end - start;
                        }
                        continue;
                    }
                    splits.add(split);
                    // deletions are not located per range here, so count only rows that surely survive
                    remaining -= Math.max(0, end - start - whole.deletedRows());
                }
            }
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
        return new PlannedSplits(splits.build(), metrics(selection, fragmentsSkipped, rowsSkipped));
    }

    private static Metrics metrics(IndexSelection selection, long fragmentsSkipped, long rowsSkipped)
    {
        if (selection.indexes().isEmpty()) {
            return Metrics.EMPTY;
        }
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        selection.indexes().forEach(index -> metrics.put("scalarIndex:" + index, new LongCount(selection.rowsByFragment().size())));
        metrics.put("scalarIndexFragmentsSkipped", new LongCount(fragmentsSkipped));
        metrics.put("scalarIndexRowsSkipped", new LongCount(rowsSkipped));
        metrics.put("scalarIndexBytesRead", new LongCount(selection.bytesRead()));
        metrics.put("scalarIndexLookupMillis", new LongCount(selection.lookupNanos() / 1_000_000));
        return new Metrics(metrics.buildKeepingLast());
    }

    private static boolean useScalarIndex(ConnectorSession session)
    {
        try {
            return session.getProperty(USE_SCALAR_INDEX_PROPERTY, Boolean.class);
        }
        catch (TrinoException e) {
            // sessions made outside the engine do not know the connector's properties
            return true;
        }
    }

    /**
     * All rows of one fragment of the snapshot, with its data and deletion files resolved; also what a compaction
     * reads a fragment's surviving rows through.
     *
     * @param table how errors name the table
     */
    public static LanceSplit fragmentSplit(String table, TableSnapshot snapshot, DataFragment fragment)
    {
        long physicalRows = fragment.getPhysicalRows();
        long deletedRows = fragment.hasDeletionFile() ? fragment.getDeletionFile().getNumDeletedRows() : 0;
        return new LanceSplit(table, fragment.getId(), dataFiles(snapshot, fragment), 0, physicalRows, FilePaths.deletionFile(snapshot, fragment), physicalRows, deletedRows, datasetVersion(snapshot));
    }

    /** The version as the SDK opens it, where a split needs the SDK. */
    private static LanceSplit.DatasetVersion datasetVersion(TableSnapshot snapshot)
    {
        boolean stableRowIds = (snapshot.manifest().getReaderFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
        return new LanceSplit.DatasetVersion(snapshot.datasetLocation(), snapshot.version(), stableRowIds);
    }

    private static List<LanceDataFile> dataFiles(TableSnapshot snapshot, DataFragment fragment)
    {
        ImmutableList.Builder<LanceDataFile> files = ImmutableList.builder();
        for (DataFile file : fragment.getFilesList()) {
            files.add(new LanceDataFile(
                    FilePaths.dataFile(snapshot, fragment, file),
                    file.getFieldsList(),
                    file.getColumnIndicesList(),
                    file.getFileMajorVersion(),
                    file.getFileMinorVersion(),
                    packedFieldIds(snapshot.schema().fields(), file),
                    blobFieldIds(snapshot.schema().fields(), file)));
        }
        return files.build();
    }

    /**
     * The structs the file stores as one column, read from what the writer recorded rather than from field metadata
     * (which a later schema change could alter): in 2.1+ files only a packed struct lists its own id, and in 2.0 files
     * a packed struct is listed without its children.
     */
    static Set<Integer> packedFieldIds(List<LanceField> fields, DataFile file)
    {
        // ids listed without a column (-1) are not stored
        ImmutableSet.Builder<Integer> storedIds = ImmutableSet.builder();
        for (int i = 0; i < file.getFieldsCount(); i++) {
            if (file.getColumnIndicesCount() == 0 || file.getColumnIndices(i) >= 0) {
                storedIds.add(file.getFields(i));
            }
        }
        Set<Integer> stored = storedIds.build();
        boolean parentsHaveColumns = file.getFileMajorVersion() == 0 || (file.getFileMajorVersion() == 2 && file.getFileMinorVersion() == 0);
        ImmutableSet.Builder<Integer> packed = ImmutableSet.builder();
        collectPacked(fields, stored, parentsHaveColumns, packed);
        return packed.build();
    }

    private static Set<Integer> blobFieldIds(List<LanceField> fields, DataFile file)
    {
        ImmutableSet.Builder<Integer> blobs = ImmutableSet.builder();
        collectBlobs(fields, ImmutableSet.copyOf(file.getFieldsList()), blobs);
        return blobs.build();
    }

    private static void collectBlobs(List<LanceField> fields, Set<Integer> stored, ImmutableSet.Builder<Integer> blobs)
    {
        for (LanceField field : fields) {
            if (stored.contains(field.id()) && "true".equalsIgnoreCase(field.metadata().get("lance-encoding:blob"))) {
                blobs.add(field.id());
            }
            collectBlobs(field.children(), stored, blobs);
        }
    }

    private static void collectPacked(List<LanceField> fields, Set<Integer> stored, boolean parentsHaveColumns, ImmutableSet.Builder<Integer> packed)
    {
        for (LanceField field : fields) {
            if (!field.logicalType().equals("struct") || field.children().isEmpty() || !stored.contains(field.id())) {
                collectPacked(field.children(), stored, parentsHaveColumns, packed);
                continue;
            }
            boolean childrenStored = field.children().stream().anyMatch(child -> stored.contains(child.id()));
            if (!parentsHaveColumns || !childrenStored) {
                packed.add(field.id());
            }
            else {
                collectPacked(field.children(), stored, parentsHaveColumns, packed);
            }
        }
    }

    // the session's value where the catalog has the property (tests build the split manager without it)
    private long dynamicFilteringWaitMillis(ConnectorSession session)
    {
        try {
            return session.getProperty(DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY, io.airlift.units.Duration.class).toMillis();
        }
        catch (RuntimeException e) {
            return dynamicFilteringWaitMillis;
        }
    }
}
