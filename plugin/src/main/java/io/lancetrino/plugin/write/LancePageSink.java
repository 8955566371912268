package io.lancetrino.plugin.write;

import io.airlift.slice.Slice;
import io.lancetrino.metadata.proto.DataFragment;
import io.trino.spi.Page;
import io.trino.spi.connector.ConnectorPageSink;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Writes INSERT and CTAS pages into new data files; the finished files travel to the coordinator as fragments, with
 * the primary key values of the rows when the table has a key.
 */
final class LancePageSink
        implements ConnectorPageSink
{
    private final LanceFileSink files;
    private final Optional<InsertedKeysCollector> insertedKeys;

    LancePageSink(LanceFileSink files, Optional<InsertedKeysCollector> insertedKeys)
    {
        this.files = requireNonNull(files, "files is null");
        this.insertedKeys = requireNonNull(insertedKeys, "insertedKeys is null");
    }

    @Override
    public CompletableFuture<?> appendPage(Page page)
    {
        insertedKeys.ifPresent(keys -> {
            for (int position = 0; position < page.getPositionCount(); position++) {
                keys.add(page, position);
            }
        });
        files.append(page);
        return NOT_BLOCKED;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        List<byte[]> fragments = files.finish().stream().map(DataFragment::toByteArray).toList();
        return CompletableFuture.completedFuture(List.of(WriterResult.inserted(fragments, insertedKeys.map(InsertedKeysCollector::result).orElse(null)).toSlice()));
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
