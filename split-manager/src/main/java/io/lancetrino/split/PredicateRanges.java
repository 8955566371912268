package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.trino.spi.TrinoException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Narrows a split's row ranges to the rows whose predicate columns can match, reading only those columns, so the
 * other projected columns are decoded only where a row may survive Trino's filter. Gives up (keeping the ranges) as
 * soon as the rows to read again cover most of what was read: matches spread over the whole split make the second
 * read as large as the first, and the first is then wasted.
 */
final class PredicateRanges
{
    // above this share of the rows read, narrowing is not worth a second read
    private static final double MAX_COVERAGE = 0.5;
    // rows this close are read together: Lance decodes whole chunks of values anyway, and fewer ranges cost less
    private static final int MERGE_GAP_ROWS = 1024;

    private PredicateRanges() {}

    /** Opens a stream of one column of a data file over the given ranges, or empty when that file's column cannot be read on its own. */
    interface ColumnStreams
    {
        Optional<ColumnStream> open(LanceDataFile file, LanceColumnHandle column, List<RowRange> ranges);
    }

    static List<RowRange> narrow(LanceSplit split, List<ColumnPredicate> predicates, List<RowRange> ranges, ColumnStreams streams)
    {
        List<RowRange> narrowed = ranges;
        for (LanceDataFile file : split.dataFiles()) {
            if (narrowed.isEmpty()) {
                break;
            }
            Optional<List<RowRange>> fileNarrowed = narrowByFile(split, file, predicates, narrowed, streams);
            if (fileNarrowed.isPresent()) {
                narrowed = fileNarrowed.get();
            }
        }
        return narrowed;
    }

    private static Optional<List<RowRange>> narrowByFile(LanceSplit split, LanceDataFile file, List<ColumnPredicate> predicates, List<RowRange> ranges, ColumnStreams opener)
    {
        List<ColumnPredicate> stored = predicates.stream()
                .filter(predicate -> file.fieldIds().stream().anyMatch(predicate.column().subtreeFieldIds()::contains))
                // blob values are large and the SDK misreads 2.0 blobs over ranges not starting at row 0: the column
                // read handles them
                .filter(predicate -> predicate.column().subtreeFieldIds().stream().noneMatch(file.blobFieldIds()::contains))
                .toList();
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        List<ColumnPredicate> evaluated = new ArrayList<>();
        List<ColumnStream> streams = new ArrayList<>();
        try {
            for (ColumnPredicate predicate : stored) {
                if (evaluated.stream().anyMatch(other -> other.column().fieldId() == predicate.column().fieldId())) {
                    continue;
                }
                // a column that cannot be read on its own is left to the column read
                Optional<ColumnStream> stream = opener.open(file, predicate.column(), ranges);
                if (stream.isPresent()) {
                    evaluated.add(predicate);
                    streams.add(stream.get());
                }
            }
            if (evaluated.isEmpty()) {
                return Optional.empty();
            }
            RangesBuilder kept = new RangesBuilder(ranges);
            long totalRows = RowRanges.count(ranges);
            long readRows = 0;
            int[] positions = new int[0];
            while (true) {
                int rows = Integer.MAX_VALUE;
                for (ColumnStream stream : streams) {
                    rows = Math.min(rows, stream.available());
                }
                if (rows == 0) {
                    break;
                }
                if (positions.length < rows) {
                    positions = new int[rows];
                }
                for (int i = 0; i < rows; i++) {
                    positions[i] = i;
                }
                int count = rows;
                for (int i = 0; i < evaluated.size() && count > 0; i++) {
                    count = evaluated.get(i).filter(streams.get(i).block(0, rows), positions, count);
                }
                for (ColumnStream stream : streams) {
                    stream.advance(rows);
                }
                readRows += rows;
                kept.add(positions, count, rows);
                if (readRows < totalRows && kept.coveredRows() > MAX_COVERAGE * readRows) {
                    return Optional.empty();
                }
            }
            return Optional.of(kept.build());
        }
        catch (TrinoException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw SplitReadErrors.unreadable(split, file, e);
        }
        finally {
            streams.forEach(ColumnStream::close);
        }
    }

    /**
     * Turns kept batch positions back into row ranges of the file, merging rows of one source range that lie close
     * together; never spans rows outside the source ranges (those are deleted).
     */
    static final class RangesBuilder
    {
        private final List<RowRange> source;
        private final ImmutableList.Builder<RowRange> result = ImmutableList.builder();
        // position of the next batch row in the source ranges
        private int rangeIndex;
        private int rowInRange;
        // the open output range, within source range openSource
        private int openStart = -1;
        private int openEnd;
        private int openSource;
        private long closedRows;

        RangesBuilder(List<RowRange> source)
        {
            this.source = source;
            this.rowInRange = source.isEmpty() ? 0 : source.getFirst().start();
        }

        /** Adds the kept positions (ascending) of the next {@code rows} rows of the source ranges. */
        void add(int[] positions, int count, int rows)
        {
            int consumed = 0;
            for (int i = 0; i < count; i++) {
                int skip = positions[i] - consumed;
                advance(skip);
                keep(rangeIndex, rowInRange);
                advance(1);
                consumed = positions[i] + 1;
            }
            advance(rows - consumed);
        }

        private void advance(int rows)
        {
            while (rows > 0) {
                RowRange range = source.get(rangeIndex);
                int available = range.end() - rowInRange;
                if (rows < available) {
                    rowInRange += rows;
                    return;
                }
                rows -= available;
                rangeIndex++;
                rowInRange = rangeIndex < source.size() ? source.get(rangeIndex).start() : 0;
            }
        }

        private void keep(int sourceRange, int row)
        {
            if (openStart >= 0 && sourceRange == openSource && row - openEnd <= MERGE_GAP_ROWS) {
                openEnd = row + 1;
                return;
            }
            close();
            openStart = row;
            openEnd = row + 1;
            openSource = sourceRange;
        }

        /** Rows the ranges so far cover, the merged gaps included. */
        long coveredRows()
        {
            return closedRows + (openStart >= 0 ? openEnd - openStart : 0);
        }

        private void close()
        {
            if (openStart >= 0) {
                result.add(RowRange.of(openStart, openEnd));
                closedRows += openEnd - openStart;
                openStart = -1;
            }
        }

        List<RowRange> build()
        {
            close();
            return result.build();
        }
    }
}
