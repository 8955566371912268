package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import org.lance.util.Range;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;

/**
 * The row ranges of a split that survive its fragment's deletions, so deleted rows are never decoded.
 */
public final class RowRanges
{
    private RowRanges() {}

    public static List<Range> surviving(int start, int end, RoaringBitmap deleted)
    {
        ImmutableList.Builder<Range> ranges = ImmutableList.builder();
        int rangeStart = start;
        var iterator = deleted.getIntIterator();
        while (iterator.hasNext()) {
            int row = iterator.next();
            if (row < start) {
                continue;
            }
            if (row >= end) {
                break;
            }
            if (row > rangeStart) {
                ranges.add(Range.of(rangeStart, row));
            }
            rangeStart = row + 1;
        }
        if (rangeStart < end) {
            ranges.add(Range.of(rangeStart, end));
        }
        return ranges.build();
    }

    /**
     * The runs of the bitmap's rows, runs at most {@code mergeGap} rows apart joined into one range.
     */
    public static List<Range> covering(RoaringBitmap rows, int mergeGap)
    {
        ImmutableList.Builder<Range> ranges = ImmutableList.builder();
        var iterator = rows.getIntIterator();
        if (!iterator.hasNext()) {
            return ranges.build();
        }
        int start = iterator.next();
        int end = start + 1;
        while (iterator.hasNext()) {
            int row = iterator.next();
            if (row - end > mergeGap) {
                ranges.add(Range.of(start, end));
                start = row;
            }
            end = row + 1;
        }
        ranges.add(Range.of(start, end));
        return ranges.build();
    }

    /** The rows in both sorted, non-overlapping lists of ranges. */
    public static List<Range> intersect(List<Range> left, List<Range> right)
    {
        ImmutableList.Builder<Range> ranges = ImmutableList.builder();
        int i = 0;
        int j = 0;
        while (i < left.size() && j < right.size()) {
            int start = Math.max(left.get(i).getStart(), right.get(j).getStart());
            int end = Math.min(left.get(i).getEnd(), right.get(j).getEnd());
            if (start < end) {
                ranges.add(Range.of(start, end));
            }
            if (left.get(i).getEnd() < right.get(j).getEnd()) {
                i++;
            }
            else {
                j++;
            }
        }
        return ranges.build();
    }

    public static long count(List<Range> ranges)
    {
        long rows = 0;
        for (Range range : ranges) {
            rows += range.getEnd() - range.getStart();
        }
        return rows;
    }
}
