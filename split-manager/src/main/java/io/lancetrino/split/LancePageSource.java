package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.deletion.DeletionVectors;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.split.fs.LanceFileSystems;
import io.lancetrino.split.sdk.SdkReads;
import io.lancetrino.split.sdk.SdkSplitReads;
import io.trino.filesystem.TrinoInputFile;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.Page;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static io.lancetrino.split.LanceErrorCode.LANCE_MISSING_FILE;
import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_FEATURE;
import static java.util.Objects.requireNonNull;

/**
 * Reads the surviving rows of one split: each data file of the fragment that holds a projected column is read over the
 * same row ranges and the column groups are stitched by position.
 */
public final class LancePageSource
        implements ConnectorPageSource
{
    // below this average length of the surviving row ranges, reading everything and dropping deleted rows is faster
    private static final int MIN_AVERAGE_RANGE_ROWS = 1024;
    // selected rows this close are read as one range: values are decoded a chunk at a time anyway, and Trino's filter
    // drops the rows between
    private static final int INDEXED_ROWS_MERGE_GAP = 256;
    // how often, in the engine's calls, the metrics are counted again while the source reads
    private static final int METRICS_RENEWAL_CALLS = 64;

    private final LanceSplit split;
    private final List<LanceColumnHandle> columns;
    private final SdkReads sdkReads;
    private final TableFileSystem fileSystem;
    private final int batchRows;
    private final List<ColumnPredicate> predicates;
    private final List<ColumnPredicate> filters;
    // the channel of each filter's column among the columns read
    private final int[] filterChannels;
    // the projected columns, the first of those read
    private final int outputColumns;
    private final Map<String, String> storageOptions;
    private final LanceFileReaderType fileReader;
    private final FileMetadataCache fileMetadata;
    // the Java reader's view of each data file of the split, read once; empty when the SDK reads the whole file
    private final Map<String, Optional<JavaFile>> javaFiles = new HashMap<>();
    // per data file, the page buffers its Java-read columns will need, fetched in few ranged reads
    private final Map<String, CoalescedReads> coalescedReads = new HashMap<>();
    private final List<JavaColumnStream> javaStreams = new ArrayList<>();
    private long sdkFallbackColumns;
    // the predicate pass reads its columns once more, before the column read
    private final List<JavaColumnStream> javaPredicateStreams = new ArrayList<>();
    private long sdkPredicateColumns;

    private final List<ColumnStream> streams = new ArrayList<>();
    // the SDK's readers of the split's files, opened when the Java reader declines one
    private SdkSplitReads sdkSplitReads;
    // for each output column: the stream and the channel in it, or -1 when no file stores the column
    private int[] streamOfColumn;
    private int[] channelOfColumn;
    private long rowsWithoutStreams;
    private RowAddressCursor rowAddresses;
    // set when the files are read over deleted rows too, which each page then drops
    private RoaringBitmap deletedRows;
    private ReadRowCursor readRows;
    private PeekableIntIterator deletedRowIterator;
    private int[] keptPositions = new int[0];
    private int[] filterPositions = new int[0];
    private boolean initialized;
    private boolean finished;
    private Metrics metrics;
    private int metricsCalls;
    private long completedBytes;
    private long completedPositions;
    private long readTimeNanos;

    public LancePageSource(LanceSplit split, List<LanceColumnHandle> columns, SdkReads sdkReads, TableFileSystem fileSystem, Map<String, String> storageOptions, int batchRows)
    {
        this(split, columns, List.of(), sdkReads, fileSystem, storageOptions, batchRows, LanceFileReaderType.JAVA, new FileMetadataCache(0));
    }

    /**
     * @param predicates conditions implied by Trino's filter: rows failing them may be left out, so their other columns
     * are not decoded
     */
    public LancePageSource(LanceSplit split, List<LanceColumnHandle> columns, List<ColumnPredicate> predicates, SdkReads sdkReads, TableFileSystem fileSystem, Map<String, String> storageOptions, int batchRows, LanceFileReaderType fileReader, FileMetadataCache fileMetadata)
    {
        this(split, columns, predicates, List.of(), sdkReads, fileSystem, storageOptions, batchRows, fileReader, fileMetadata);
    }

    /**
     * @param filters conditions every returned row satisfies: the connector told the engine it enforces them, so rows
     * failing them are dropped here; a filter's column is read even when it is not projected
     */
    public LancePageSource(LanceSplit split, List<LanceColumnHandle> columns, List<ColumnPredicate> predicates, List<ColumnPredicate> filters, SdkReads sdkReads, TableFileSystem fileSystem, Map<String, String> storageOptions, int batchRows, LanceFileReaderType fileReader, FileMetadataCache fileMetadata)
    {
        this.fileMetadata = requireNonNull(fileMetadata, "fileMetadata is null");
        this.fileReader = requireNonNull(fileReader, "fileReader is null");
        this.predicates = ImmutableList.copyOf(predicates);
        this.filters = ImmutableList.copyOf(filters);
        this.split = requireNonNull(split, "split is null");
        this.outputColumns = columns.size();
        // filter columns not projected are read after the projected ones and left out of the pages
        List<LanceColumnHandle> readColumns = new ArrayList<>(columns);
        this.filterChannels = new int[filters.size()];
        for (int filter = 0; filter < filters.size(); filter++) {
            LanceColumnHandle column = filters.get(filter).column();
            int channel = readColumns.indexOf(column);
            if (channel < 0) {
                channel = readColumns.size();
                readColumns.add(column);
            }
            filterChannels[filter] = channel;
        }
        this.columns = ImmutableList.copyOf(readColumns);
        this.sdkReads = requireNonNull(sdkReads, "sdkReads is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.batchRows = batchRows;
        this.storageOptions = ImmutableMap.copyOf(storageOptions);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        try {
            if (!initialized) {
                initialize();
                initialized = true;
            }
            SourcePage page = streams.isEmpty() ? nextPageWithoutFiles() : nextPageFromFiles();
            if (page == null) {
                finished = true;
                return null;
            }
            return page;
        }
        finally {
            readTimeNanos += System.nanoTime() - start;
        }
    }

    private void initialize()
    {
        boolean anyStoredColumn = false;
        streamOfColumn = new int[columns.size()];
        channelOfColumn = new int[columns.size()];
        java.util.Arrays.fill(streamOfColumn, -1);
        List<LanceDataFile> files = new ArrayList<>();
        List<List<Integer>> wantedByFile = new ArrayList<>();
        boolean[] claimed = new boolean[columns.size()];
        for (LanceDataFile file : split.dataFiles()) {
            List<Integer> wanted = new ArrayList<>();
            for (int column = 0; column < columns.size(); column++) {
                if (!claimed[column] && file.fieldIds().stream().anyMatch(columns.get(column).subtreeFieldIds()::contains)) {
                    wanted.add(column);
                    claimed[column] = true;
                }
            }
            if (!wanted.isEmpty()) {
                files.add(file);
                wantedByFile.add(wanted);
            }
        }
        List<FileColumns> plans = new ArrayList<>();
        for (int fileIndex = 0; fileIndex < files.size(); fileIndex++) {
            plans.add(FileColumns.resolve(split, files.get(fileIndex), fileSchema(files.get(fileIndex)), wantedByFile.get(fileIndex), columns));
        }
        // rows taken through the dataset come without deleted rows, so no read may include them
        boolean throughDataset = plans.stream().anyMatch(FileColumns::throughDataset);
        List<RowRange> ranges = files.isEmpty() ? null : planReads(!throughDataset);
        for (FileColumns plan : plans) {
            List<Integer> sdkChannels = new ArrayList<>();
            for (int channel = 0; channel < plan.columns().size(); channel++) {
                Optional<JavaColumnStream> javaStream = fileReader == LanceFileReaderType.JAVA ? openJavaStream(plan, channel, ranges) : Optional.empty();
                if (javaStream.isPresent()) {
                    javaStreams.add(javaStream.get());
                    anyStoredColumn |= addStream(javaStream.get());
                }
                else {
                    sdkChannels.add(channel);
                }
            }
            if (fileReader == LanceFileReaderType.JAVA) {
                sdkFallbackColumns += sdkChannels.size();
            }
            // a file none of whose wanted columns resolved is still read for its row count, as before
            if (!sdkChannels.isEmpty() || plan.columns().isEmpty()) {
                anyStoredColumn |= addStream(openSdkStream(plan.subset(sdkChannels), ranges));
            }
        }
        if (columns.stream().anyMatch(LanceColumnHandle::isRowAddress)) {
            if (ranges == null) {
                ranges = survivingRanges(deletedRowsOfFragment());
            }
            rowAddresses = new RowAddressCursor(split.fragmentId(), ranges);
        }
        if (deletedRows != null) {
            readRows = new ReadRowCursor(ranges);
            deletedRowIterator = deletedRows.getIntIterator();
        }
        if (!anyStoredColumn) {
            rowsWithoutStreams = ranges == null ? liveRowCount() : RowRanges.count(ranges);
        }
    }

    private boolean addStream(ColumnStream stream)
    {
        for (int channel = 0; channel < stream.columns().size(); channel++) {
            int column = stream.columns().get(channel);
            streamOfColumn[column] = streams.size();
            channelOfColumn[column] = channel;
        }
        streams.add(stream);
        return !stream.columns().isEmpty();
    }

    private ColumnStream openSdkStream(FileColumns plan, List<RowRange> ranges)
    {
        return plan.throughDataset()
                ? sdk().takeThroughDataset(plan.file(), plan.columns(), plan.handles(), ranges, batchRows)
                : sdk().readFile(plan.file(), plan.columns(), plan.names(), plan.handles(), ranges, batchRows);
    }

    private SdkSplitReads sdk()
    {
        if (sdkSplitReads == null) {
            sdkSplitReads = sdkReads.openSplit(split, storageOptions, fileSystem);
        }
        return sdkSplitReads;
    }

    /**
     * The Java reader's stream of one column of a file, or empty when the column is not a flat leaf the reader
     * decodes as is (or the file's version or location rules it out); the SDK reads it then.
     */
    private Optional<JavaColumnStream> openJavaStream(FileColumns plan, int channel, List<RowRange> ranges)
    {
        LanceColumnHandle handle = plan.handles().get(channel);
        OptionalInt physicalColumn = JavaColumnStream.physicalColumn(plan.file(), handle, plan.fields().get(channel));
        // arrays and rows: one physical column per leaf
        Optional<List<Integer>> physicalColumns = physicalColumn.isPresent()
                ? Optional.of(List.of(physicalColumn.getAsInt()))
                : NestedPhysicalColumns.physicalColumns(plan.file(), handle, plan.fields().get(channel));
        if (physicalColumns.isEmpty()) {
            return Optional.empty();
        }
        Optional<JavaFile> javaFile = javaFile(plan.file());
        if (javaFile.isEmpty() || physicalColumns.get().stream().anyMatch(column -> column >= javaFile.get().metadata().columns().size())) {
            return Optional.empty();
        }
        FileColumns single = plan.subset(List.of(channel));
        List<LanceColumn> leaves = physicalColumns.get().stream().map(javaFile.get().metadata().columns()::get).toList();
        CoalescedReads reads = coalescedReads.computeIfAbsent(plan.file().location(), _ -> new CoalescedReads(javaFile.get().file()));
        boolean chunksOnly = split.indexedRows().isPresent() && physicalColumn.isPresent();
        leaves.forEach(leaf -> planBufferReads(reads, leaf, ranges, chunksOnly));
        JavaColumnStream stream = new JavaColumnStream(
                split,
                plan.file(),
                plan.columns().get(channel),
                handle.name(),
                handle.type(),
                physicalColumn.isPresent() ? JavaColumnStream.conversion(handle, plan.fields().get(channel)) : Optional.empty(),
                leaves,
                new CachingInput(javaFile.get().file(), Optional.of(reads), Optional.of(javaFile.get().buffers())),
                ranges,
                batchRows,
                (remaining, _) -> openSdkStream(single, remaining));
        return Optional.of(chunksOnly ? stream.readingChunksOnly() : stream);
    }

    /** The buffers of the pages of a column that hold rows of the ranges and are read whole. */
    private static void planBufferReads(CoalescedReads reads, LanceColumn column, List<RowRange> ranges, boolean chunksOnly)
    {
        if (ranges.isEmpty()) {
            return;
        }
        // per range: rows an index selected lie far apart, and the pages between them are not read
        for (RowRange range : ranges) {
            for (LanceColumn.PageRows rows : column.pagesOf(range.start(), range.end())) {
                LancePage page = rows.page();
                // FullZip pages are read in parts, by the rows wanted; MiniBlock pages by chunks when chunksOnly
                if (!page.layout().hasFullZipLayout() && !(chunksOnly && page.layout().hasMiniBlockLayout())) {
                    for (int buffer = 0; buffer < page.bufferPositions().size(); buffer++) {
                        reads.plan(page.bufferPositions().get(buffer), page.bufferSizes().get(buffer));
                    }
                }
            }
        }
    }

    /**
     * The schema the file was written with: from its descriptor when the Java reader reads it, so resolving columns
     * opens no SDK reader; from the SDK's reader otherwise.
     */
    private Schema fileSchema(LanceDataFile file)
    {
        if (fileReader == LanceFileReaderType.JAVA) {
            Optional<Schema> schema = javaFile(file).flatMap(JavaFile::schema);
            if (schema.isPresent()) {
                return schema.get();
            }
        }
        return sdk().schema(file);
    }

    private Optional<JavaFile> javaFile(LanceDataFile file)
    {
        return javaFiles.computeIfAbsent(file.location(), _ -> openJavaFile(file));
    }

    private Optional<JavaFile> openJavaFile(LanceDataFile file)
    {
        Optional<TrinoInputFile> input = LanceFileSystems.inputFile(fileSystem, file.location());
        if (input.isEmpty()) {
            return Optional.empty();
        }
        try {
            FileMetadataCache.CachedFile cached = fileMetadata.get(input.get());
            return Optional.of(new JavaFile(input.get(), cached.metadata().container(), cached.metadata().schema(), cached.buffers()));
        }
        catch (UnsupportedLanceEncodingException e) {
            // e.g. a 2.0 file that the manifest did not say was one: the SDK reads it all
            return Optional.empty();
        }
        catch (FileNotFoundException e) {
            throw new TrinoException(LANCE_MISSING_FILE, "Table %s, fragment %s: cannot open data file %s: not found".formatted(split.table(), split.fragmentId(), file.location()), e);
        }
        catch (IOException | RuntimeException e) {
            throw SplitReadErrors.unreadable(split, file, e);
        }
    }

    private record JavaFile(TrinoInputFile file, LanceFileMetadata metadata, Optional<Schema> schema, FileMetadataCache.SharedBuffers buffers) {}

    /**
     * The rows the data files are read over. Usually the rows that survive deletion; when deletions are scattered
     * into many short ranges the whole split is read and deleted rows are dropped from each page instead, because the
     * SDK reads a few long ranges much faster than many short ones. Then narrowed by the predicates.
     */
    private List<RowRange> planReads(boolean mayReadDeletedRows)
    {
        RoaringBitmap deleted = deletedRowsOfFragment();
        List<RowRange> ranges = survivingRanges(deleted);
        int start = Math.toIntExact(split.startRow());
        int end = Math.toIntExact(split.endRow());
        if (split.indexedRows().isPresent()) {
            // the rows an index selected, near ones read together; deleted rows stay out
            ranges = RowRanges.intersect(ranges, RowRanges.covering(split.indexedRows().get().bitmap(), INDEXED_ROWS_MERGE_GAP));
        }
        else if (mayReadDeletedRows && ranges.size() > 1 && ranges.size() > (end - start) / MIN_AVERAGE_RANGE_ROWS) {
            ranges = List.of(RowRange.of(start, end));
            deletedRows = deleted;
        }
        if (predicates.isEmpty() || nearlyOnlySelectedRows(ranges)) {
            return ranges;
        }
        return PredicateRanges.narrow(split, predicates, ranges, this::openPredicateStream);
    }

    /**
     * Whether the ranges hold little more than the rows an index selected: a predicate pass could then drop at most
     * half of them, for a read of its columns per range, while the filters drop the rest anyway.
     */
    private boolean nearlyOnlySelectedRows(List<RowRange> ranges)
    {
        return split.indexedRows().isPresent() && RowRanges.count(ranges) <= 2 * split.indexedRows().get().bitmap().getLongCardinality();
    }

    /**
     * A predicate column of one file read on its own for the predicate pass, by the same reader the column read would
     * use; empty when the SDK's file reader cannot project it (a packed struct is stored before it).
     */
    private Optional<ColumnStream> openPredicateStream(LanceDataFile file, LanceColumnHandle column, List<RowRange> ranges)
    {
        FileColumns plan = FileColumns.resolve(split, file, fileSchema(file), List.of(0), List.of(column));
        if (plan.columns().isEmpty() || plan.throughDataset()) {
            return Optional.empty();
        }
        if (fileReader == LanceFileReaderType.JAVA) {
            Optional<JavaColumnStream> javaStream = openJavaStream(plan, 0, ranges);
            if (javaStream.isPresent()) {
                javaPredicateStreams.add(javaStream.get());
                return Optional.of(javaStream.get());
            }
        }
        sdkPredicateColumns++;
        return Optional.of(sdk().readFile(file, plan.columns(), plan.names(), plan.handles(), ranges, batchRows));
    }

    /**
     * No projected column is stored (count(*), or only columns added after these files): rows come from the manifest,
     * and the deletion file is read only when the split covers part of a fragment.
     */
    private SourcePage nextPageWithoutFiles()
    {
        if (rowsWithoutStreams == 0) {
            return null;
        }
        int rows = (int) Math.min(rowsWithoutStreams, batchRows);
        rowsWithoutStreams -= rows;
        if (columns.isEmpty()) {
            completedPositions += rows;
            return SourcePage.create(rows);
        }
        @SuppressWarnings("unchecked")
        Supplier<Block>[] loaders = new Supplier[columns.size()];
        for (int column = 0; column < columns.size(); column++) {
            Block block = columnWithoutFile(column, rows);
            loaders[column] = () -> block;
        }
        return page(loaders, rows, null, rows);
    }

    private SourcePage nextPageFromFiles()
    {
        int rows = Integer.MAX_VALUE;
        for (ColumnStream stream : streams) {
            int available = stream.available();
            if (available == 0) {
                return null;
            }
            rows = Math.min(rows, available);
        }
        @SuppressWarnings("unchecked")
        Supplier<Block>[] loaders = new Supplier[columns.size()];
        for (int column = 0; column < columns.size(); column++) {
            if (streamOfColumn[column] < 0) {
                Block block = columnWithoutFile(column, rows);
                loaders[column] = () -> block;
            }
            else {
                loaders[column] = streams.get(streamOfColumn[column]).deferredBlock(channelOfColumn[column], rows);
            }
        }
        for (ColumnStream stream : streams) {
            stream.advance(rows);
        }
        if (deletedRows == null) {
            return page(loaders, rows, null, rows);
        }
        int kept = keepUndeletedPositions(rows);
        return page(loaders, rows, kept == rows ? null : Arrays.copyOf(keptPositions, kept), kept);
    }

    /**
     * The batch's page of the projected columns over the given positions (null for all), narrowed to the rows the
     * filters keep; a filter's column is decoded here, once.
     */
    private SourcePage page(Supplier<Block>[] loaders, int rows, int[] positions, int positionCount)
    {
        // rows read, before the filters: what the scan's input counts
        completedPositions += positionCount;
        if (!filters.isEmpty()) {
            int[] kept = positions != null ? positions : identityPositions(rows);
            int count = positionCount;
            for (int filter = 0; filter < filters.size() && count > 0; filter++) {
                int channel = filterChannels[filter];
                Block block = loaders[channel].get();
                loaders[channel] = () -> block;
                if (channel >= outputColumns) {
                    addCompletedBytes(block.getSizeInBytes());
                }
                count = filters.get(filter).filter(block, kept, count);
            }
            positions = count == rows ? null : Arrays.copyOf(kept, count);
            positionCount = count;
        }
        Supplier<Block>[] output = loaders.length == outputColumns ? loaders : Arrays.copyOf(loaders, outputColumns);
        return new LanceSourcePage(output, rows, positions, positionCount, this::addCompletedBytes);
    }

    /** Positions 0 to rows - 1 in a buffer the page source reuses: every filtered batch starts from them. */
    private int[] identityPositions(int rows)
    {
        if (filterPositions.length < rows) {
            filterPositions = new int[rows];
        }
        for (int position = 0; position < rows; position++) {
            filterPositions[position] = position;
        }
        return filterPositions;
    }

    private void addCompletedBytes(long bytes)
    {
        completedBytes += bytes;
    }

    /** Fills {@code keptPositions} with the batch's positions no deletion file drops, returning their count. */
    private int keepUndeletedPositions(int rows)
    {
        if (keptPositions.length < rows) {
            keptPositions = new int[rows];
        }
        int kept = 0;
        for (int position = 0; position < rows; position++) {
            int row = readRows.next();
            deletedRowIterator.advanceIfNeeded(row);
            if (!deletedRowIterator.hasNext() || deletedRowIterator.peekNext() != row) {
                keptPositions[kept++] = position;
            }
        }
        return kept;
    }

    /**
     * The row address, or NULL for a column no data file of the fragment stores (added after they were written).
     */
    private Block columnWithoutFile(int column, int rows)
    {
        LanceColumnHandle handle = columns.get(column);
        return handle.isRowAddress() ? rowAddresses.next(rows) : RunLengthEncodedBlock.create(handle.type(), null, rows);
    }

    private long liveRowCount()
    {
        if (split.onlyRowsDeletedBy().isPresent()) {
            return RowRanges.count(survivingRanges(deletedRowsOfFragment()));
        }
        if (split.deletionFile().isEmpty()) {
            return split.endRow() - split.startRow();
        }
        if (split.coversWholeFragment()) {
            return split.physicalRows() - split.deletedRows();
        }
        return RowRanges.count(survivingRanges(deletedRowsOfFragment()));
    }

    private List<RowRange> survivingRanges(RoaringBitmap deleted)
    {
        return RowRanges.surviving(Math.toIntExact(split.startRow()), Math.toIntExact(split.endRow()), deleted);
    }

    /**
     * The rows the split skips: the fragment's deleted rows, or for a split of newly deleted rows every row but those.
     */
    private RoaringBitmap deletedRowsOfFragment()
    {
        RoaringBitmap deleted = split.deletionFile().map(this::readDeletionVector).orElseGet(RoaringBitmap::new);
        if (split.onlyRowsDeletedBy().isEmpty()) {
            return deleted;
        }
        RoaringBitmap newlyDeleted = RoaringBitmap.andNot(readDeletionVector(split.onlyRowsDeletedBy().get()), deleted);
        return RoaringBitmap.flip(newlyDeleted, 0L, split.physicalRows());
    }

    private RoaringBitmap readDeletionVector(String location)
    {
        try {
            return DeletionVectors.read(location, fileSystem.readFile(location), DeletionVectors.isBitmapLocation(location));
        }
        catch (FileNotFoundException e) {
            throw new TrinoException(LANCE_MISSING_FILE, "Table %s, fragment %s: deletion file %s does not exist".formatted(split.table(), split.fragmentId(), location), e);
        }
        catch (IOException e) {
            throw new TrinoException(LANCE_MISSING_FILE, "Table %s, fragment %s: cannot read deletion file %s: %s".formatted(split.table(), split.fragmentId(), location, e.getMessage()), e);
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    @Override
    public long getCompletedBytes()
    {
        return completedBytes;
    }

    @Override
    public java.util.OptionalLong getCompletedPositions()
    {
        return java.util.OptionalLong.of(completedPositions);
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos;
    }

    /**
     * File columns the Java reader decoded and those the SDK read as its fallback, and the predicate pass's columns by
     * the reader that decoded them, so {@code EXPLAIN ANALYZE VERBOSE} shows which reader did the work. The engine asks
     * after every batch and once more after closing the source, which is the figure it reports: counting every time
     * took 15% of a scan of one dictionary column, so while reading the counts are renewed every 64th call only.
     */
    @Override
    public Metrics getMetrics()
    {
        if (metrics == null || finished || ++metricsCalls % METRICS_RENEWAL_CALLS == 0) {
            metrics = countMetrics();
        }
        return metrics;
    }

    private Metrics countMetrics()
    {
        long fellBack = javaStreams.stream().filter(JavaColumnStream::fellBack).count();
        long predicatesFellBack = javaPredicateStreams.stream().filter(JavaColumnStream::fellBack).count();
        return new Metrics(ImmutableMap.of(
                "javaReaderColumns", new LongCount(javaStreams.size() - fellBack),
                "sdkFallbackColumns", new LongCount(sdkFallbackColumns + fellBack),
                "javaReaderPredicateColumns", new LongCount(javaPredicateStreams.size() - predicatesFellBack),
                "sdkPredicateColumns", new LongCount(sdkPredicateColumns + predicatesFellBack),
                "coalescedReads", new LongCount(coalescedReads.values().stream().mapToLong(CoalescedReads::readCount).sum()),
                "coalescedReadBytes", new LongCount(coalescedReads.values().stream().mapToLong(CoalescedReads::readBytes).sum()),
                "directReads", new LongCount(allJavaStreams().mapToLong(JavaColumnStream::directReads).sum()),
                "directReadBytes", new LongCount(allJavaStreams().mapToLong(JavaColumnStream::directReadBytes).sum()),
                "scalarIndexSplits", new LongCount(split.indexedRows().isPresent() ? 1 : 0),
                "scalarIndexSplitRowsSkipped", new LongCount(split.indexedRows().map(IndexedRows::rowsSkipped).orElse(0L))));
    }

    private Stream<JavaColumnStream> allJavaStreams()
    {
        return Stream.concat(javaStreams.stream(), javaPredicateStreams.stream());
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        long bytes = sdkSplitReads == null ? 0 : sdkSplitReads.allocatedBytes();
        for (ColumnStream stream : streams) {
            bytes += stream.retainedBytes();
        }
        for (CoalescedReads reads : coalescedReads.values()) {
            bytes += reads.retainedBytes();
        }
        return bytes;
    }

    @Override
    public void close()
    {
        finished = true;
        for (ColumnStream stream : streams) {
            stream.close();
        }
        streams.clear();
        javaFiles.clear();
        // closed, but kept for getMetrics, which the engine calls after close
        for (CoalescedReads reads : coalescedReads.values()) {
            try {
                reads.close();
            }
            catch (IOException _) {
                // nothing more is read through it
            }
        }
        if (sdkSplitReads != null) {
            sdkSplitReads.close();
        }
    }

    /**
     * The output columns one data file serves, with their top-level names in the file.
     *
     * @param fields the columns' fields in the file's schema, which tell the Java reader how values are stored
     * @param sdkProjectable for each column, whether the SDK's file reader can project it (no packed struct is stored
     * before it); the dataset reads the file's columns otherwise
     */
    private record FileColumns(LanceDataFile file, List<Integer> columns, List<String> names, List<LanceColumnHandle> handles, List<Field> fields, List<Boolean> sdkProjectable)
    {
        boolean throughDataset()
        {
            return sdkProjectable.contains(false);
        }

        FileColumns subset(List<Integer> channels)
        {
            return new FileColumns(
                    file,
                    channels.stream().map(columns::get).toList(),
                    channels.stream().map(names::get).toList(),
                    channels.stream().map(handles::get).toList(),
                    channels.stream().map(fields::get).toList(),
                    channels.stream().map(sdkProjectable::get).toList());
        }

        static FileColumns resolve(LanceSplit split, LanceDataFile file, Schema fileSchema, List<Integer> wanted, List<LanceColumnHandle> allColumns)
        {
            try {
                ImmutableList.Builder<Integer> columns = ImmutableList.builder();
                ImmutableList.Builder<String> names = ImmutableList.builder();
                ImmutableList.Builder<LanceColumnHandle> handles = ImmutableList.builder();
                ImmutableList.Builder<Field> fields = ImmutableList.builder();
                ImmutableList.Builder<Boolean> sdkProjectable = ImmutableList.builder();
                for (int column : wanted) {
                    LanceColumnHandle handle = allColumns.get(column);
                    Optional<FileColumnMapping.FileColumn> fileColumn = FileColumnMapping.fileColumn(fileSchema, file, handle.subtreeFieldIds());
                    if (fileColumn.isPresent()) {
                        if (file.parentsHaveColumns() && handle.subtreeFieldIds().stream().anyMatch(file.blobFieldIds()::contains)) {
                            // seen with the SDK 7.0: after a NULL it returns empty values (with other columns projected,
                            // or over rows not starting at the first), so no value of it can be trusted
                            throw new TrinoException(LANCE_UNSUPPORTED_FEATURE, ("Table %s, fragment %s: column %s is a blob column (lance-encoding:blob) in data file %s of format 2.0, " +
                                    "whose values the Lance SDK's file reader returns wrongly; select the other columns").formatted(split.table(), split.fragmentId(), handle.name(), file.location()));
                        }
                        columns.add(column);
                        names.add(fileColumn.get().name());
                        handles.add(handle);
                        fields.add(fileSchema.findField(fileColumn.get().name()));
                        sdkProjectable.add(fileColumn.get().sdkProjectable());
                    }
                }
                return new FileColumns(file, columns.build(), names.build(), handles.build(), fields.build(), sdkProjectable.build());
            }
            catch (TrinoException e) {
                throw e;
            }
            catch (RuntimeException e) {
                throw SplitReadErrors.unreadable(split, file, e);
            }
        }
    }
}
