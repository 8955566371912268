package io.lancetrino.sdk;

import io.lancetrino.split.BatchedColumnStream;
import io.lancetrino.split.JvmRequirements;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceDataFile;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.RowRange;
import io.lancetrino.split.SplitReadErrors;
import com.google.common.collect.ImmutableList;
import io.lancetrino.split.arrow.ArrowBlocks;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ReadOptions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_FEATURE;
import static java.util.Objects.requireNonNull;

/**
 * Reads columns of one data file through the SDK's dataset (take by row address) instead of its file reader: the
 * file reader counts a packed struct's children as columns of their own, so it cannot project a column stored after
 * a packed struct, while the dataset maps columns through the manifest. Slower (the dataset version is opened per
 * split and rows are taken by address), so used only for those files. Every row of the ranges must be live: the
 * dataset does not return deleted rows.
 */
final class DatasetTakeStream
        extends BatchedColumnStream
{
    private final LanceSplit split;
    private final LanceDataFile file;
    private final Dataset dataset;
    private final List<LanceColumnHandle> handles;
    private final List<RowRange> ranges;
    private final int batchRows;
    private int rangeIndex;
    private int nextRow;

    private DatasetTakeStream(LanceSplit split, LanceDataFile file, Dataset dataset, List<Integer> columns, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows)
    {
        super(columns);
        this.split = requireNonNull(split, "split is null");
        this.file = requireNonNull(file, "file is null");
        this.dataset = requireNonNull(dataset, "dataset is null");
        this.handles = ImmutableList.copyOf(handles);
        this.ranges = ImmutableList.copyOf(ranges);
        this.batchRows = batchRows;
        this.nextRow = ranges.isEmpty() ? 0 : ranges.getFirst().start();
    }

    static DatasetTakeStream open(LanceSplit split, LanceDataFile file, List<Integer> columns, List<LanceColumnHandle> handles, List<RowRange> ranges, BufferAllocator allocator, Map<String, String> storageOptions, int batchRows)
    {
        LanceSplit.DatasetVersion version = split.dataset();
        if (version.stableRowIds()) {
            // with stable row ids the SDK takes rows by id, which the fragment's row id sequence would have to supply
            throw new TrinoException(LANCE_UNSUPPORTED_FEATURE, "Table %s, fragment %s: columns %s are stored after a packed struct (lance-encoding:packed) in data file %s, which cannot be read in a table with stable row ids"
                    .formatted(split.table(), split.fragmentId(), handles.stream().map(LanceColumnHandle::name).toList(), file.location()));
        }
        JvmRequirements.checkSdk("read data file %s of table %s".formatted(file.location(), split.table()));
        Dataset dataset;
        try {
            dataset = Dataset.open()
                    .allocator(allocator)
                    .uri(LanceFileSystems.nativeLocation(version.location()))
                    .readOptions(new ReadOptions.Builder().setVersion(version.version()).setStorageOptions(storageOptions).build())
                    .build();
        }
        catch (RuntimeException e) {
            throw SplitReadErrors.unreadable(split, file, e);
        }
        return new DatasetTakeStream(split, file, dataset, columns, handles, ranges, batchRows);
    }

    /**
     * Takes the next rows of the ranges (up to one batch) by address; the SDK may answer in several Arrow batches,
     * which are joined so the rows stay in the order asked for.
     */
    @Override
    protected boolean loadNextBatch()
    {
        if (rangeIndex >= ranges.size()) {
            return false;
        }
        List<Long> addresses = new ArrayList<>(batchRows);
        long fragmentBits = split.fragmentId() << 32;
        while (addresses.size() < batchRows && rangeIndex < ranges.size()) {
            RowRange range = ranges.get(rangeIndex);
            addresses.add(fragmentBits | nextRow);
            nextRow++;
            if (nextRow >= range.end()) {
                rangeIndex++;
                nextRow = rangeIndex < ranges.size() ? ranges.get(rangeIndex).start() : 0;
            }
        }
        List<String> names = handles.stream().map(LanceColumnHandle::name).toList();
        List<List<Block>> parts = new ArrayList<>();
        int rows = 0;
        try (ArrowReader batches = dataset.takeRows(addresses, names)) {
            while (batches.loadNextBatch()) {
                VectorSchemaRoot root = batches.getVectorSchemaRoot();
                List<Block> blocks = new ArrayList<>(handles.size());
                for (int channel = 0; channel < handles.size(); channel++) {
                    blocks.add(ArrowBlocks.toBlock(handles.get(channel).type(), root.getVector(names.get(channel)), batches));
                }
                parts.add(blocks);
                rows += root.getRowCount();
            }
        }
        catch (TrinoException e) {
            throw e;
        }
        catch (IOException | RuntimeException e) {
            throw SplitReadErrors.unreadable(split, file, e);
        }
        if (rows != addresses.size()) {
            throw SplitReadErrors.unreadable(split, file, new IllegalStateException("the SDK returned %s rows for %s row addresses".formatted(rows, addresses.size())));
        }
        Block[] blocks = new Block[handles.size()];
        for (int channel = 0; channel < handles.size(); channel++) {
            int index = channel;
            List<Block> pieces = parts.stream().map(part -> part.get(index)).toList();
            blocks[channel] = pieces.size() == 1 ? pieces.getFirst() : concat(handles.get(channel), pieces, rows);
        }
        batch.set(blocks, rows);
        return true;
    }

    private static Block concat(LanceColumnHandle handle, List<Block> pieces, int rows)
    {
        var builder = handle.type().createBlockBuilder(null, rows);
        for (Block piece : pieces) {
            for (int position = 0; position < piece.getPositionCount(); position++) {
                builder.append(piece.getUnderlyingValueBlock(), piece.getUnderlyingValuePosition(position));
            }
        }
        return builder.build();
    }

    @Override
    public void close()
    {
        try {
            dataset.close();
        }
        catch (RuntimeException _) {
            // closing after a failure must not hide it
        }
    }
}
