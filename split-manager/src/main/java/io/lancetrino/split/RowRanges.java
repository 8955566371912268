package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;

/**
 * The row ranges of a split that survive its fragment's deletions, so deleted rows are never decoded.
 */
public final class RowRanges
{
    private RowRanges() {}

    public static List<RowRange> surviving(int start, int end, RoaringBitmap deleted)
    {
        ImmutableList.Builder<RowRange> ranges = ImmutableList.builder();
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
                ranges.add(RowRange.of(rangeStart, row));
            }
            rangeStart = row + 1;
        }
        if (rangeStart < end) {
            ranges.add(RowRange.of(rangeStart, end));
        }
        return ranges.build();
    }

    /**
     * The runs of the bitmap's rows, runs at most {@code mergeGap} rows apart joined into one range.
     */
    public static List<RowRange> covering(RoaringBitmap rows, int mergeGap)
    {
        ImmutableList.Builder<RowRange> ranges = ImmutableList.builder();
        var iterator = rows.getIntIterator();
        if (!iterator.hasNext()) {
            return ranges.build();
        }
        int start = iterator.next();
        int end = start + 1;
        while (iterator.hasNext()) {
            int row = iterator.next();
            if (row - end > mergeGap) {
                ranges.add(RowRange.of(start, end));
                start = row;
            }
            end = row + 1;
        }
        ranges.add(RowRange.of(start, end));
        return ranges.build();
    }

    /** The rows in both sorted, non-overlapping lists of ranges. */
    public static List<RowRange> intersect(List<RowRange> left, List<RowRange> right)
    {
        ImmutableList.Builder<RowRange> ranges = ImmutableList.builder();
        int i = 0;
        int j = 0;
        while (i < left.size() && j < right.size()) {
            int start = Math.max(left.get(i).start(), right.get(j).start());
            int end = Math.min(left.get(i).end(), right.get(j).end());
            if (start < end) {
                ranges.add(RowRange.of(start, end));
            }
            if (left.get(i).end() < right.get(j).end()) {
                i++;
            }
            else {
                j++;
            }
        }
        return ranges.build();
    }

    public static long count(List<RowRange> ranges)
    {
        long rows = 0;
        for (RowRange range : ranges) {
            rows += range.end() - range.start();
        }
        return rows;
    }
}
