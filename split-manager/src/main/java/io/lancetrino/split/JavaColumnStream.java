package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.MiniBlockChunks;
import io.lancetrino.file.NestedColumnReader;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.split.arrow.StoredConversions;
import io.trino.spi.block.Block;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * One output column of one data file decoded by the pure-Java reader over the split's row ranges, in the same order
 * and batches as the SDK path would return them. Where the reader meets a page it does not decode, the rest of the
 * ranges are read through the SDK instead, so a column falls back per file even in the middle of a file.
 */
final class JavaColumnStream
        implements ColumnStream
{
    /** Opens the SDK read of this column over the given (remaining) ranges. */
    interface Fallback
    {
        ColumnStream open(List<RowRange> ranges, UnsupportedLanceEncodingException cause);
    }

    private final LanceSplit split;
    private final LanceDataFile file;
    private final int outputColumn;
    private final String columnName;
    private final Type type;
    // how a single physical column's stored values become the Trino type; empty for arrays and rows read from leaves
    private final Optional<StoredConversions.Conversion> conversion;
    private final List<LanceColumn> columns;
    private final CachingInput input;
    private final List<RowRange> ranges;
    private final int batchRows;
    private final Fallback fallback;
    // where the next batch starts
    private int rangeIndex;
    private int nextRow;
    // the rows of the current batch, and their values once decoded
    private List<RowRange> currentSegments = List.of();
    private Block current;
    private int currentRows;
    private int offset;
    // set when a page of this column turned out to need the SDK: later batches are read through the delegate
    private UnsupportedLanceEncodingException unsupported;
    private ColumnStream delegate;
    // set for the few rows an index selected: a MiniBlock page is read by the chunks holding them
    private boolean chunksOnly;

    JavaColumnStream(LanceSplit split, LanceDataFile file, int outputColumn, String columnName, Type type, StoredConversions.Conversion conversion, LanceColumn column, CachingInput input, List<RowRange> ranges, int batchRows, Fallback fallback)
    {
        this(split, file, outputColumn, columnName, type, Optional.of(conversion), List.of(column), input, ranges, batchRows, fallback);
    }

    /**
     * @param conversion how the single physical column's stored values become the Trino type; empty for an array or row
     * column read from its leaves
     * @param columns the physical columns: the one column, or the leaves of an array or row column in pre-order
     */
    JavaColumnStream(LanceSplit split, LanceDataFile file, int outputColumn, String columnName, Type type, Optional<StoredConversions.Conversion> conversion, List<LanceColumn> columns, CachingInput input, List<RowRange> ranges, int batchRows, Fallback fallback)
    {
        this.split = requireNonNull(split, "split is null");
        this.file = requireNonNull(file, "file is null");
        this.outputColumn = outputColumn;
        this.columnName = requireNonNull(columnName, "columnName is null");
        this.type = requireNonNull(type, "type is null");
        this.conversion = requireNonNull(conversion, "conversion is null");
        this.columns = ImmutableList.copyOf(columns);
        this.input = requireNonNull(input, "input is null");
        this.ranges = ImmutableList.copyOf(ranges);
        this.batchRows = batchRows;
        this.fallback = requireNonNull(fallback, "fallback is null");
        this.nextRow = ranges.isEmpty() ? 0 : ranges.getFirst().start();
    }

    /**
     * The physical column of a 2.1+ file that stores the handle's values as one column the Java reader reads (a flat
     * leaf or a packed struct, whose stored values {@link StoredConversions} converts to the Trino type, or a vector: a
     * fixed-size list of signed integers or floats of the array's element type), or empty when the SDK must read it.
     */
    static OptionalInt physicalColumn(LanceDataFile file, LanceColumnHandle handle, Field fileField)
    {
        boolean packed = file.packedFieldIds().contains(handle.fieldId()) && StoredConversions.isPackedStruct(fileField);
        if (file.parentsHaveColumns() || (handle.subtreeFieldIds().size() != 1 && !packed) || file.blobFieldIds().contains(handle.fieldId())) {
            return OptionalInt.empty();
        }
        if (conversion(handle, fileField).isEmpty()) {
            return OptionalInt.empty();
        }
        int index = file.fieldIds().indexOf(handle.fieldId());
        if (index < 0) {
            return OptionalInt.empty();
        }
        int physical = file.columnIndices().isEmpty() ? index : file.columnIndices().get(index);
        return physical < 0 ? OptionalInt.empty() : OptionalInt.of(physical);
    }

    /** How the Java reader reads the column's stored values into its Trino type. */
    static Optional<StoredConversions.Conversion> conversion(LanceColumnHandle handle, Field fileField)
    {
        if (fileField.getType() instanceof ArrowType.FixedSizeList) {
            // vectors: one leaf column of signed integers or floats, decoded into array blocks as they are
            return isVector(fileField, handle.type()) ? Optional.of(new StoredConversions.Conversion(handle.type(), UnaryOperator.identity(), false)) : Optional.empty();
        }
        return StoredConversions.forField(fileField, handle.type());
    }

    private static boolean isVector(Field field, Type type)
    {
        if (!(type instanceof ArrayType arrayType) || field.getChildren().size() != 1 || field.getDictionary() != null) {
            return false;
        }
        Field element = field.getChildren().getFirst();
        boolean numeric = element.getType() instanceof ArrowType.Int integer && integer.getIsSigned() || element.getType() instanceof ArrowType.FloatingPoint;
        return numeric && element.getChildren().isEmpty() && element.getDictionary() == null && !element.getMetadata().containsKey("ARROW:extension:name")
                && StoredConversions.storedAsIs(element.getType(), arrayType.getElementType());
    }

    @Override
    public List<Integer> columns()
    {
        return List.of(outputColumn);
    }

    @Override
    public int available()
    {
        while (delegate == null && offset == currentRows && rangeIndex < ranges.size()) {
            if (unsupported != null) {
                current = null;
                currentRows = 0;
                offset = 0;
                closeInput();
                delegate = fallback.open(remainingRanges(rangeIndex, nextRow), unsupported);
                break;
            }
            planNextBatch();
        }
        if (delegate != null) {
            return delegate.available();
        }
        return currentRows - offset;
    }

    @Override
    public Block block(int channel, int rows)
    {
        if (delegate != null) {
            return delegate.block(0, rows);
        }
        if (current == null) {
            current = decode(currentSegments, currentRows);
        }
        return region(current, offset, rows);
    }

    @Override
    public Supplier<Block> deferredBlock(int channel, int rows)
    {
        if (delegate != null || current != null) {
            return ColumnStream.super.deferredBlock(channel, rows);
        }
        List<RowRange> segments = currentSegments;
        int batchRows = currentRows;
        int start = offset;
        return () -> {
            // pages usually take whole batches; a page taking part of one keeps the decoded batch for the next
            Block batch = segments == currentSegments && current != null ? current : decode(segments, batchRows);
            if (segments == currentSegments) {
                current = batch;
            }
            return region(batch, start, rows);
        };
    }

    @Override
    public void advance(int rows)
    {
        if (delegate != null) {
            delegate.advance(rows);
            return;
        }
        offset += rows;
    }

    @Override
    public long retainedBytes()
    {
        long bytes = input.retainedBytes() + (current == null ? 0 : current.getRetainedSizeInBytes());
        return delegate == null ? bytes : bytes + delegate.retainedBytes();
    }

    /** Whether the SDK took over this column after the Java reader met something it does not decode. */
    boolean fellBack()
    {
        return delegate != null || unsupported != null;
    }

    /** The rows of the next batch: whole batches across range boundaries, as the SDK's reader returns them. */
    private void planNextBatch()
    {
        ImmutableList.Builder<RowRange> segments = ImmutableList.builder();
        int rows = 0;
        while (rows < batchRows && rangeIndex < ranges.size()) {
            RowRange range = ranges.get(rangeIndex);
            int count = Math.min(batchRows - rows, range.end() - nextRow);
            if (count > 0) {
                segments.add(RowRange.of(nextRow, nextRow + count));
                rows += count;
                nextRow += count;
            }
            if (nextRow >= range.end()) {
                rangeIndex++;
                nextRow = rangeIndex < ranges.size() ? ranges.get(rangeIndex).start() : nextRow;
            }
        }
        currentSegments = segments.build();
        current = null;
        currentRows = rows;
        offset = 0;
    }

    private Block decode(List<RowRange> segments, int rows)
    {
        List<Block> parts = new ArrayList<>(segments.size());
        try {
            for (RowRange segment : segments) {
                parts.add(readRows(segment.start(), segment.end() - segment.start()));
            }
        }
        catch (UnsupportedLanceEncodingException e) {
            unsupported = e;
            return readThroughFallback(segments, rows, e);
        }
        catch (IOException | RuntimeException e) {
            // a damaged page: name the column, the reader's message names its physical column and page
            throw SplitReadErrors.unreadable(split, file, columnName, e);
        }
        return LanceColumnReader.concat(type, parts, rows);
    }

    /** One batch through the SDK, for a page the Java reader met in it and does not decode. */
    private Block readThroughFallback(List<RowRange> segments, int rows, UnsupportedLanceEncodingException cause)
    {
        ColumnStream stream = fallback.open(segments, cause);
        try {
            List<Block> parts = new ArrayList<>();
            for (int available = stream.available(); available > 0; available = stream.available()) {
                parts.add(stream.block(0, available));
                stream.advance(available);
            }
            return LanceColumnReader.concat(type, parts, rows);
        }
        finally {
            stream.close();
        }
    }

    private static Block region(Block batch, int offset, int rows)
    {
        return offset == 0 && rows == batch.getPositionCount() ? batch : batch.getRegion(offset, rows);
    }

    /** Reads of the file this column made outside the split's planned reads and the shared page buffers. */
    long directReads()
    {
        return input.directReads();
    }

    long directReadBytes()
    {
        return input.directReadBytes();
    }

    /** Reads MiniBlock pages by the chunks that hold the rows wanted, for splits of a few scattered rows. */
    JavaColumnStream readingChunksOnly()
    {
        chunksOnly = true;
        return this;
    }

    private Block readRows(int rowStart, int count)
            throws IOException
    {
        if (chunksOnly && conversion.isPresent()) {
            LanceColumn column = columns.getFirst();
            List<LanceColumn.PageRows> pages = column.pagesOf(rowStart, rowStart + count);
            if (pages.size() == 1) {
                LanceColumn.PageRows page = pages.getFirst();
                // every split reading a few rows of the page reads its chunk table and dictionary whole
                if (page.page().layout().hasMiniBlockLayout()) {
                    input.shareable(page.page().bufferPositions().getFirst(), page.page().bufferSizes().getFirst());
                    if (page.page().layout().getMiniBlockLayout().hasDictionary() && page.page().bufferPositions().size() > 2) {
                        input.shareable(page.page().bufferPositions().get(2), page.page().bufferSizes().get(2));
                    }
                }
                Optional<MiniBlockChunks.NarrowedPage> narrowed = MiniBlockChunks.narrow(input, page.page(), page.from(), page.to());
                if (narrowed.isPresent()) {
                    LanceColumn chunks = new LanceColumn(column.index(), List.of(narrowed.get().page()));
                    return conversion.get().read(input, chunks, toIntExact(page.from() - narrowed.get().firstRow()), count);
                }
            }
        }
        if (conversion.isPresent()) {
            return conversion.get().read(input, columns.getFirst(), rowStart, count);
        }
        return NestedColumnReader.read(input, columns, type, rowStart, count);
    }

    private List<RowRange> remainingRanges(int fromRange, int fromRow)
    {
        ImmutableList.Builder<RowRange> remaining = ImmutableList.builder();
        for (int index = fromRange; index < ranges.size(); index++) {
            RowRange range = ranges.get(index);
            int start = index == fromRange ? fromRow : range.start();
            if (start < range.end()) {
                remaining.add(RowRange.of(start, range.end()));
            }
        }
        return remaining.build();
    }


    private void closeInput()
    {
        try {
            input.close();
        }
        catch (IOException _) {
            // nothing more is read through it
        }
    }

    @Override
    public void close()
    {
        closeInput();
        if (delegate != null) {
            delegate.close();
        }
    }
}
