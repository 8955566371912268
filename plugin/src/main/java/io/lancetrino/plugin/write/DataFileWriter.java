package io.lancetrino.plugin.write;

import io.trino.spi.Page;

import java.io.IOException;

/**
 * Writes one new Lance data file from pages whose blocks are the file's columns.
 */
public interface DataFileWriter
{
    void write(Page page)
            throws IOException;

    /** Completes the file; returns its length in bytes. */
    long finish()
            throws IOException;

    /** Memory it holds: the Java writer's buffered pages, the SDK writer's Arrow batches. */
    long retainedBytes();

    /** Stops writing after a failure; the caller deletes the file. */
    void abort();
}
