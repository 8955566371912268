package io.lancetrino.sdk;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.split.BatchedColumnStream;
import io.lancetrino.split.ColumnStream;
import io.lancetrino.split.FileColumnMapping;
import io.lancetrino.split.JvmRequirements;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceDataFile;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.RowRange;
import io.lancetrino.split.SplitReadErrors;
import io.lancetrino.split.arrow.ArrowBlocks;
import io.lancetrino.split.fs.LanceFileSystems;
import io.lancetrino.split.sdk.SdkSplitReads;
import io.lancetrino.sharing.recipient.SharingFileSystem;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.lancetrino.split.LanceErrorCode.LANCE_MISSING_FILE;
import static java.util.Objects.requireNonNull;

/**
 * The SDK's file readers of one split, each opened once: the predicate pass and the column streams share them, and
 * they close with the page source, as does the split's allocator.
 */
final class SdkSplitFileReads
        implements SdkSplitReads
{
    private final LanceSplit split;
    private final BufferAllocator allocator;
    private final Map<String, String> storageOptions;
    private final TableFileSystem fileSystem;
    private final Map<String, LanceFileReader> readers = new LinkedHashMap<>();

    SdkSplitFileReads(LanceSplit split, BufferAllocator parent, Map<String, String> storageOptions, TableFileSystem fileSystem)
    {
        this.split = requireNonNull(split, "split is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.storageOptions = ImmutableMap.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
        this.allocator = parent.newChildAllocator("split-" + split.fragmentId(), 0, parent.getLimit());
    }

    @Override
    public Schema schema(LanceDataFile file)
    {
        return open(file).schema();
    }

    @Override
    public ColumnStream readFile(LanceDataFile file, List<Integer> columns, List<String> names, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows)
    {
        LanceFileReader reader = open(file);
        try {
            ArrowReader batches = ranges.isEmpty() ? null : reader.readAll(
                    names.stream().map(FileColumnMapping::projectionPath).toList(),
                    ranges.stream().map(range -> Range.of(range.start(), range.end())).toList(),
                    batchRows);
            return new FileStream(split, file, batches, columns, names, handles);
        }
        catch (IOException | RuntimeException e) {
            throw SplitReadErrors.unreadable(split, file, e);
        }
    }

    @Override
    public ColumnStream takeThroughDataset(LanceDataFile file, List<Integer> columns, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows)
    {
        return DatasetTakeStream.open(split, file, columns, handles, ranges, allocator, storageOptions, batchRows);
    }

    @Override
    public long allocatedBytes()
    {
        return allocator.getAllocatedMemory();
    }

    private LanceFileReader open(LanceDataFile file)
    {
        LanceFileReader reader = readers.get(file.location());
        if (reader != null) {
            return reader;
        }
        JvmRequirements.checkSdk("read data file %s of table %s".formatted(file.location(), split.table()));
        try {
            // the SDK cannot read a shared file through its signed URL: it reads a local copy
            String location = fileSystem instanceof SharingFileSystem shares ? shares.localCopy(file.location()).toString() : LanceFileSystems.nativeLocation(file.location());
            reader = LanceFileReader.open(location, storageOptions, allocator);
        }
        catch (IOException | RuntimeException e) {
            throw new TrinoException(LANCE_MISSING_FILE, "Table %s, fragment %s: cannot open data file %s: %s".formatted(split.table(), split.fragmentId(), file.location(), e.getMessage()), e);
        }
        readers.put(file.location(), reader);
        return reader;
    }

    @Override
    public void close()
    {
        for (LanceFileReader reader : readers.values()) {
            try {
                reader.close();
            }
            catch (Exception _) {
                // closing after a failure must not hide it
            }
        }
        readers.clear();
        allocator.close();
    }

    /**
     * One data file read over the split's row ranges; batches are converted to blocks at once because the reader
     * reuses its Arrow buffers.
     */
    private static final class FileStream
            extends BatchedColumnStream
    {
        private final LanceSplit split;
        private final LanceDataFile file;
        // null when the ranges hold no row
        private final ArrowReader batches;
        private final List<String> names;
        private final List<LanceColumnHandle> handles;

        private FileStream(LanceSplit split, LanceDataFile file, ArrowReader batches, List<Integer> columns, List<String> names, List<LanceColumnHandle> handles)
        {
            super(columns);
            this.split = split;
            this.file = file;
            this.batches = batches;
            this.names = names;
            this.handles = handles;
        }

        @Override
        protected boolean loadNextBatch()
        {
            try {
                if (batches == null || !batches.loadNextBatch()) {
                    return false;
                }
                VectorSchemaRoot root = batches.getVectorSchemaRoot();
                Block[] blocks = new Block[names.size()];
                for (int channel = 0; channel < names.size(); channel++) {
                    blocks[channel] = ArrowBlocks.toBlock(handles.get(channel).type(), root.getVector(names.get(channel)), batches);
                }
                batch.set(blocks, root.getRowCount());
                return true;
            }
            catch (IOException | RuntimeException e) {
                throw SplitReadErrors.unreadable(split, file, e);
            }
        }

        @Override
        public void close()
        {
            if (batches != null) {
                try {
                    batches.close();
                }
                catch (IOException | RuntimeException _) {
                    // closing after a failure must not hide it
                }
            }
        }
    }
}
