package io.lancetrino.split;

import io.trino.spi.block.Block;

/**
 * The blocks of the batch a column stream read last, and how many of its rows were handed out already.
 */
public final class LoadedBatch
{
    private Block[] blocks;
    private int rows;
    private int offset;

    public void set(Block[] blocks, int rows)
    {
        this.blocks = blocks;
        this.rows = rows;
        this.offset = 0;
    }

    public void clear()
    {
        set(null, 0);
    }

    /** Rows of the batch not yet handed out. */
    public int remaining()
    {
        return rows - offset;
    }

    public Block block(int index, int count)
    {
        Block block = blocks[index];
        return offset == 0 && count == rows ? block : block.getRegion(offset, count);
    }

    public void advance(int count)
    {
        offset += count;
    }

    public long retainedBytes()
    {
        long bytes = 0;
        if (blocks != null) {
            for (Block block : blocks) {
                bytes += block.getRetainedSizeInBytes();
            }
        }
        return bytes;
    }
}
