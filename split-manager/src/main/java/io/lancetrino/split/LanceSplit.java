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
 */
public record LanceSplit(
        String table,
        long fragmentId,
        List<LanceDataFile> dataFiles,
        long startRow,
        long endRow,
        Optional<String> deletionFile,
        long physicalRows,
        long deletedRows)
        implements ConnectorSplit
{
    public LanceSplit
    {
        requireNonNull(table, "table is null");
        dataFiles = ImmutableList.copyOf(dataFiles);
        requireNonNull(deletionFile, "deletionFile is null");
        checkArgument(0 <= startRow && startRow <= endRow && endRow <= physicalRows, "invalid row range");
    }

    public boolean coversWholeFragment()
    {
        return startRow == 0 && endRow == physicalRows;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return 256L + dataFiles.size() * 256L;
    }
}
