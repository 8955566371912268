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

    public static long count(List<Range> ranges)
    {
        long rows = 0;
        for (Range range : ranges) {
            rows += range.getEnd() - range.getStart();
        }
        return rows;
    }
}
