package io.lancetrino.split;


import java.util.List;

/**
 * The row offsets, in order, of the rows read over a list of ranges.
 */
final class ReadRowCursor
{
    private final List<RowRange> ranges;
    private int range;
    private int row;

    ReadRowCursor(List<RowRange> ranges)
    {
        this.ranges = ranges;
        this.row = ranges.isEmpty() ? 0 : ranges.getFirst().start();
    }

    int next()
    {
        int current = row++;
        if (row == ranges.get(range).end() && range + 1 < ranges.size()) {
            range++;
            row = ranges.get(range).start();
        }
        return current;
    }
}
