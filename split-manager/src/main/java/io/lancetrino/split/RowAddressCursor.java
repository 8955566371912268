package io.lancetrino.split;

import io.trino.spi.block.Block;
import io.trino.spi.block.LongArrayBlock;

import java.util.List;
import java.util.Optional;

/**
 * Row addresses ({@code fragment_id << 32 | row offset}) of the rows a split returns, in order: DELETE, UPDATE and
 * MERGE name the rows they change by address.
 */
final class RowAddressCursor
{
    private final long fragmentBits;
    private final ReadRowCursor rows;

    RowAddressCursor(long fragmentId, List<RowRange> ranges)
    {
        this.fragmentBits = fragmentId << 32;
        this.rows = new ReadRowCursor(ranges);
    }

    Block next(int count)
    {
        long[] addresses = new long[count];
        for (int i = 0; i < count; i++) {
            addresses[i] = fragmentBits | rows.next();
        }
        return new LongArrayBlock(count, Optional.empty(), addresses);
    }
}
