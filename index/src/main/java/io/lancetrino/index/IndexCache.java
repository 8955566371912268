package io.lancetrino.index;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.Math.clamp;
import static java.util.Objects.requireNonNull;

/**
 * What index readers reuse across queries, bounded by an estimate of the bytes it holds: btree page lookups, bitmap
 * key tables and decoded bitmaps, zone maps. Keyed by file location (and a part within the file): an index segment's
 * files never change, a new segment has a new directory. Shared by all queries of a catalog; thread safe.
 */
public final class IndexCache
{
    /** A cached value knows the bytes it holds. */
    interface Weighed
    {
        long retainedBytes();
    }

    interface Loader<T extends Weighed>
    {
        T load()
                throws IOException;
    }

    private final long maxBytes;
    private final Cache<String, Weighed> cache;

    /** @param maxBytes the most bytes held; 0 disables caching (every search reads what it needs) */
    public IndexCache(long maxBytes)
    {
        checkArgument(maxBytes >= 0, "maxBytes is negative");
        this.maxBytes = maxBytes;
        this.cache = maxBytes == 0 ? null : CacheBuilder.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, Weighed value) -> clamp(value.retainedBytes() + 2L * key.length(), 0, Integer.MAX_VALUE))
                .recordStats()
                .build();
    }

    public static IndexCache disabled()
    {
        return new IndexCache(0);
    }

    public long maxBytes()
    {
        return maxBytes;
    }

    /** Entries held now. */
    public long size()
    {
        return cache == null ? 0 : cache.size();
    }

    public long hitCount()
    {
        return cache == null ? 0 : cache.stats().hitCount();
    }

    public void invalidateAll()
    {
        if (cache != null) {
            cache.invalidateAll();
        }
    }

    <T extends Weighed> Optional<T> getIfPresent(String key, Class<T> type)
    {
        if (cache == null) {
            return Optional.empty();
        }
        Weighed value = cache.getIfPresent(key);
        return type.isInstance(value) ? Optional.of(type.cast(value)) : Optional.empty();
    }

    void put(String key, Weighed value)
    {
        if (cache != null) {
            cache.put(key, value);
        }
    }

    <T extends Weighed> T get(String key, Class<T> type, Loader<T> loader)
            throws IOException
    {
        requireNonNull(key, "key is null");
        if (cache == null) {
            return loader.load();
        }
        try {
            return type.cast(cache.get(key, () -> {
                try {
                    return loader.load();
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        }
    }
}
