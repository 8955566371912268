package io.lancetrino.split;

import io.trino.spi.block.Block;
import io.trino.spi.block.LongArrayBlock;
import org.lance.util.Range;

import java.util.List;
import java.util.Optional;

/**
 * Row addresses ({@code fragment_id << 32 | row offset}) of the rows a split returns, in order: DELETE, UPDATE and
 * MERGE name the rows they change by address.
 */
final class RowAddressCursor
{
    private final long fragmentBits;
    private final List<Range> ranges;
    private int range;
    private int offsetInRange;

    RowAddressCursor(long fragmentId, List<Range> ranges)
    {
        this.fragmentBits = fragmentId << 32;
        this.ranges = ranges;
    }

    Block next(int rows)
    {
        long[] addresses = new long[rows];
        for (int i = 0; i < rows; i++) {
            Range current = ranges.get(range);
            addresses[i] = fragmentBits | (current.getStart() + offsetInRange);
            offsetInRange++;
            if (current.getStart() + offsetInRange == current.getEnd()) {
                range++;
                offsetInRange = 0;
            }
        }
        return new LongArrayBlock(rows, Optional.empty(), addresses);
    }
}
