package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Rows {@code [startRow, endRow)} of one fragment, with everything a worker needs to read them without planning:
 * resolved data files and a reference to the fragment's deletion vector.
 *
 * @param deletedRows deleted rows of the whole fragment, as the manifest counts them
 * @param dataset the dataset version the fragment belongs to, for columns only the SDK's dataset reads can reach
 * @param onlyRowsDeletedBy when set, another deletion file of the same fragment (usually the one of a later version):
 * only the rows it deletes and {@code deletionFile} does not are read. With the split from the earlier version and the
 * later version's file, these are the rows the later version deleted, as they were ({@code table_changes}' deletes)
 * @param indexedRows when set, the only rows of the range scalar indexes let through
 */
public record LanceSplit(
        String table,
        long fragmentId,
        List<LanceDataFile> dataFiles,
        long startRow,
        long endRow,
        Optional<String> deletionFile,
        long physicalRows,
        long deletedRows,
        DatasetVersion dataset,
        Optional<String> onlyRowsDeletedBy,
        Optional<IndexedRows> indexedRows)
        implements ConnectorSplit
{
    public LanceSplit
    {
        requireNonNull(indexedRows, "indexedRows is null");
        requireNonNull(onlyRowsDeletedBy, "onlyRowsDeletedBy is null");
        requireNonNull(table, "table is null");
        dataFiles = ImmutableList.copyOf(dataFiles);
        requireNonNull(deletionFile, "deletionFile is null");
        requireNonNull(dataset, "dataset is null");
        checkArgument(0 <= startRow && startRow <= endRow && endRow <= physicalRows, "invalid row range");
    }

    public LanceSplit(String table, long fragmentId, List<LanceDataFile> dataFiles, long startRow, long endRow, Optional<String> deletionFile, long physicalRows, long deletedRows, DatasetVersion dataset)
    {
        this(table, fragmentId, dataFiles, startRow, endRow, deletionFile, physicalRows, deletedRows, dataset, Optional.empty(), Optional.empty());
    }

    /**
     * The same rows, narrowed to those the other deletion file deletes.
     */
    public LanceSplit selectingRowsDeletedBy(String otherDeletionFile)
    {
        return new LanceSplit(table, fragmentId, dataFiles, startRow, endRow, deletionFile, physicalRows, deletedRows, dataset, Optional.of(otherDeletionFile), indexedRows);
    }

    /**
     * Rows {@code [startRow, endRow)} of which only those the indexes selected are read.
     */
    public LanceSplit withIndexedRows(long startRow, long endRow, IndexedRows rows)
    {
        return new LanceSplit(table, fragmentId, dataFiles, startRow, endRow, deletionFile, physicalRows, deletedRows, dataset, onlyRowsDeletedBy, Optional.of(rows));
    }

    /**
     * One version of a dataset as the SDK opens it.
     *
     * @param location the dataset directory (the table root for main, {@code tree/{branch}} below it for a branch)
     * @param stableRowIds whether the SDK addresses rows by stable row id rather than by row address
     */
    public record DatasetVersion(String location, long version, boolean stableRowIds)
    {
        public DatasetVersion
        {
            requireNonNull(location, "location is null");
        }
    }

    public boolean coversWholeFragment()
    {
        return startRow == 0 && endRow == physicalRows;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return 256L + dataFiles.size() * 256L + indexedRows.map(rows -> rows.rows().length).orElse(0);
    }
}
