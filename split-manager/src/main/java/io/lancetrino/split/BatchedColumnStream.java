package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.trino.spi.block.Block;

import java.util.List;

/**
 * A column stream that reads whole batches (the SDK's readers) and hands out their rows as asked.
 */
public abstract class BatchedColumnStream
        implements ColumnStream
{
    private final List<Integer> columns;
    protected final LoadedBatch batch = new LoadedBatch();
    private boolean exhausted;

    protected BatchedColumnStream(List<Integer> columns)
    {
        this.columns = ImmutableList.copyOf(columns);
    }

    /** Loads the next batch into {@link #batch}; returns false when there is none (and is not called again). */
    protected abstract boolean loadNextBatch();

    @Override
    public List<Integer> columns()
    {
        return columns;
    }

    @Override
    public int available()
    {
        while (!exhausted && batch.remaining() == 0) {
            if (!loadNextBatch()) {
                exhausted = true;
                batch.clear();
            }
        }
        return batch.remaining();
    }

    @Override
    public Block block(int channel, int rows)
    {
        return batch.block(channel, rows);
    }

    @Override
    public void advance(int rows)
    {
        batch.advance(rows);
    }

    @Override
    public long retainedBytes()
    {
        return batch.retainedBytes();
    }
}
