package io.lancetrino.split;

import io.trino.spi.block.Block;

import java.util.List;
import java.util.function.Supplier;

/**
 * Some of a split's output columns, read over the split's row ranges in order; the page source stitches streams by
 * position.
 */
public interface ColumnStream
{
    /** The output columns this stream serves, by channel. */
    List<Integer> columns();

    /** Rows ready to hand out without reading further; 0 when the stream is exhausted. */
    int available();

    Block block(int channel, int rows);

    /**
     * The same rows as {@link #block}, decoded when first asked for; valid until the stream closes. Streams that
     * cannot defer decode now.
     */
    default Supplier<Block> deferredBlock(int channel, int rows)
    {
        Block block = block(channel, rows);
        return () -> block;
    }

    void advance(int rows);

    long retainedBytes();

    void close();
}
