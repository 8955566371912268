package io.lancetrino.split;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.airlift.slice.Slice;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceFileMetadata;
import io.trino.filesystem.TrinoInputFile;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * The Java reader's metadata of data files (footer, column and page metadata), read once per file: every split of a
 * fragment and every query reading it shares one copy. Keyed by location, length and modification time, so a file
 * replaced in place is read again; bounded by the pages the cached metadata describes.
 * <p>
 * Beside it, the small page buffers that splits of a few index-selected rows read every time before the rows' chunks:
 * MiniBlock chunk tables and page dictionaries, bounded by bytes.
 */
public final class FileMetadataCache
{
    private final Cache<Key, DataFileMetadata> cache;
    private final Cache<BufferKey, Slice> pageBuffers;

    /**
     * @param maxPages how many pages the cached metadata may describe in all; 0 disables the cache
     */
    public FileMetadataCache(long maxPages)
    {
        this(maxPages, 0);
    }

    /**
     * @param maxPages how many pages the cached metadata may describe in all; 0 disables the cache
     * @param maxPageBufferBytes bytes of page buffers kept; 0 keeps none
     */
    public FileMetadataCache(long maxPages, long maxPageBufferBytes)
    {
        this.cache = CacheBuilder.newBuilder()
                .maximumWeight(maxPages)
                .weigher((Key _, DataFileMetadata metadata) -> weight(metadata.container()))
                .recordStats()
                .build();
        this.pageBuffers = CacheBuilder.newBuilder()
                .maximumWeight(maxPageBufferBytes)
                .weigher((BufferKey _, Slice buffer) -> buffer.length())
                .recordStats()
                .build();
    }

    /** The file's metadata, and where its page buffers are shared. */
    CachedFile get(TrinoInputFile file)
            throws IOException
    {
        Key key = new Key(file.location().toString(), file.length(), file.lastModified().toEpochMilli());
        DataFileMetadata metadata = cache.getIfPresent(key);
        if (metadata == null) {
            metadata = DataFileMetadata.read(file);
            cache.put(key, metadata);
        }
        return new CachedFile(metadata, (position, length, read) -> {
            BufferKey bufferKey = new BufferKey(key, position, length);
            Slice buffer = pageBuffers.getIfPresent(bufferKey);
            if (buffer == null) {
                buffer = read.read(position, length);
                pageBuffers.put(bufferKey, buffer);
            }
            return buffer;
        });
    }

    record CachedFile(DataFileMetadata metadata, SharedBuffers buffers) {}

    /** Page buffers of one file shared by every split and query. */
    interface SharedBuffers
    {
        Slice get(long position, int length, BufferRead read)
                throws IOException;
    }

    interface BufferRead
    {
        Slice read(long position, int length)
                throws IOException;
    }

    /** Page buffers read rather than found cached, for tests and diagnostics. */
    public long pageBufferReads()
    {
        return pageBuffers.stats().missCount();
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

    private record BufferKey(Key file, long position, int length) {}

    private record Key(String location, long length, long lastModifiedMillis)
    {
        Key
        {
            requireNonNull(location, "location is null");
        }
    }
}
