package io.lancetrino.file.writer;

import io.trino.spi.block.Block;

import java.util.List;

/**
 * Buffers the values of one leaf column and encodes them into pages.
 */
interface ColumnWriter
        extends FieldWriter
{
    default void append(Block block)
    {
        append(block, null);
    }

    long bufferedRows();

    /** An estimate of the encoded size of what is buffered, to decide when a page is full. */
    long bufferedBytes();

    /** The heap bytes its buffers hold, for the engine's memory accounting. */
    long retainedBytes();

    /** Encodes every buffered row into one page and starts over. */
    EncodedPage flush();

    /** Pages the writer had to end while it took values, before those it buffers now; they are then its caller's. */
    default List<EncodedPage> takeCompletedPages()
    {
        return List.of();
    }
}
