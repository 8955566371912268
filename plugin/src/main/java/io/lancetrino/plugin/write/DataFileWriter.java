package io.lancetrino.plugin.write;

import io.trino.spi.Page;

import java.io.IOException;

/**
 * Writes one new Lance data file from pages whose blocks are the file's columns.
 */
interface DataFileWriter
{
    void write(Page page)
            throws IOException;

    /** Completes the file; returns its length in bytes. */
    long finish()
            throws IOException;

    /** Heap bytes it holds that the allocator of the sink does not count (the Java writer's buffered pages). */
    long retainedBytes();

    /** Stops writing after a failure; the caller deletes the file. */
    void abort();
}
