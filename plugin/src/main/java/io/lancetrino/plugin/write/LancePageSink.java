package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.metadata.proto.DataFragment;
import io.trino.spi.Page;
import io.trino.spi.connector.ConnectorPageSink;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Writes INSERT and CTAS pages into new data files; each finished file travels to the coordinator as one fragment.
 */
final class LancePageSink
        implements ConnectorPageSink
{
    private final LanceFileSink files;

    LancePageSink(LanceFileSink files)
    {
        this.files = requireNonNull(files, "files is null");
    }

    @Override
    public CompletableFuture<?> appendPage(Page page)
    {
        files.append(page);
        return NOT_BLOCKED;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        ImmutableList.Builder<Slice> fragments = ImmutableList.builder();
        for (DataFragment fragment : files.finish()) {
            fragments.add(Slices.wrappedBuffer(fragment.toByteArray()));
        }
        return CompletableFuture.completedFuture(fragments.build());
    }

    @Override
    public void abort()
    {
        files.abort();
    }

    @Override
    public long getCompletedBytes()
    {
        return files.writtenBytes();
    }

    @Override
    public long getMemoryUsage()
    {
        return files.memoryUsage();
    }
}
