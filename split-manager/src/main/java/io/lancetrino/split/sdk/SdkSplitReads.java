package io.lancetrino.split.sdk;

import io.lancetrino.split.ColumnStream;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceDataFile;
import io.lancetrino.split.RowRange;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * The SDK's readers of one split's data files, each file opened once.
 */
public interface SdkSplitReads
        extends AutoCloseable
{
    /** The schema the file was written with, as the SDK's file reader sees it. */
    Schema schema(LanceDataFile file);

    /**
     * The columns of one file through the SDK's file reader.
     *
     * @param columns the output channel of each column
     * @param names each column's top-level name in the file
     */
    ColumnStream readFile(LanceDataFile file, List<Integer> columns, List<String> names, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows);

    /**
     * The columns of one file taken by row address through the SDK's dataset, for columns its file reader cannot
     * project; every row of the ranges must be live.
     */
    ColumnStream takeThroughDataset(LanceDataFile file, List<Integer> columns, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows);

    /** Native-side Arrow memory the reads hold. */
    long allocatedBytes();

    @Override
    void close();
}
