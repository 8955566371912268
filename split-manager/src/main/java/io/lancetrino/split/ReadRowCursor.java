package io.lancetrino.split;

import org.lance.util.Range;

import java.util.List;

/**
 * The row offsets, in order, of the rows read over a list of ranges.
 */
final class ReadRowCursor
{
    private final List<Range> ranges;
    private int range;
    private int row;

    ReadRowCursor(List<Range> ranges)
    {
        this.ranges = ranges;
        this.row = ranges.isEmpty() ? 0 : ranges.getFirst().getStart();
    }

    int next()
    {
        int current = row++;
        if (row == ranges.get(range).getEnd() && range + 1 < ranges.size()) {
            range++;
            row = ranges.get(range).getStart();
        }
        return current;
    }
}
