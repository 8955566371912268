package io.lancetrino.split;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceFileMetadata;
import io.trino.filesystem.TrinoInputFile;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * The Java reader's metadata of data files (footer, column and page metadata), read once per file: every split of a
 * fragment and every query reading it shares one copy. Keyed by location, length and modification time, so a file
 * replaced in place is read again; bounded by the pages the cached metadata describes.
 */
public final class FileMetadataCache
{
    private final Cache<Key, LanceFileMetadata> cache;

    /**
     * @param maxPages how many pages the cached metadata may describe in all; 0 disables the cache
     */
    public FileMetadataCache(long maxPages)
    {
        this.cache = CacheBuilder.newBuilder()
                .maximumWeight(maxPages)
                .weigher((Key _, LanceFileMetadata metadata) -> weight(metadata))
                .recordStats()
                .build();
    }

    LanceFileMetadata get(TrinoInputFile file)
            throws IOException
    {
        Key key = new Key(file.location().toString(), file.length(), file.lastModified().toEpochMilli());
        LanceFileMetadata metadata = cache.getIfPresent(key);
        if (metadata == null) {
            metadata = LanceFileMetadata.read(file);
            cache.put(key, metadata);
        }
        return metadata;
    }

    /** Files whose metadata was read rather than found cached, for tests and diagnostics. */
    public long reads()
    {
        return cache.stats().missCount();
    }

    private static int weight(LanceFileMetadata metadata)
    {
        int pages = 1;
        for (LanceColumn column : metadata.columns()) {
            pages += column.pages().size();
        }
        return pages;
    }

    private record Key(String location, long length, long lastModifiedMillis)
    {
        Key
        {
            requireNonNull(location, "location is null");
        }
    }
}
