package io.lancetrino.split;

import io.trino.spi.block.Block;

/**
 * The blocks of the batch a column stream read last, and how many of its rows were handed out already.
 */
final class LoadedBatch
{
    private Block[] blocks;
    private int rows;
    private int offset;

    void set(Block[] blocks, int rows)
    {
        this.blocks = blocks;
        this.rows = rows;
        this.offset = 0;
    }

    void clear()
    {
        set(null, 0);
    }

    /** Rows of the batch not yet handed out. */
    int remaining()
    {
        return rows - offset;
    }

    Block block(int index, int count)
    {
        Block block = blocks[index];
        return offset == 0 && count == rows ? block : block.getRegion(offset, count);
    }

    void advance(int count)
    {
        offset += count;
    }

    long retainedBytes()
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
