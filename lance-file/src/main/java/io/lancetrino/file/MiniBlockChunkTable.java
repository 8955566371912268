package io.lancetrino.file;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.airlift.slice.Slice;

import java.util.Arrays;

import static java.lang.Math.toIntExact;

/**
 * Where each chunk of a MiniBlock page starts, in items and in bytes, from the page's chunk table (buffer 0: one word
 * per chunk, its size and log2 of its value count). A page is read in many batches, and each batch walked the table
 * from the first chunk to find its own: in a scan of one dictionary column that walk took a sixth of the scan's CPU.
 * Tables are decoded once per page, keyed by the identity of the page's table buffer as {@link PageDictionaries} keys
 * dictionaries.
 *
 * @param itemStarts the first item of each chunk, and the page's item count after the last
 * @param byteStarts the first byte of each chunk in the chunk buffer, and the end of the last
 */
record MiniBlockChunkTable(long[] itemStarts, long[] byteStarts)
{
    // a chunk's value count is a power of two of at most 2^15 (a 4-bit exponent) and the last chunk holds no more;
    // the bound keeps twice that as a margin, it only has to stop a lying item count from sizing an allocation
    static final int MAX_CHUNK_VALUES = 1 << 16;

    // weak keys compare by identity: an entry lives as long as the reader keeps the page's buffer
    private static final Cache<Slice, MiniBlockChunkTable> TABLES = CacheBuilder.newBuilder().weakKeys().maximumSize(4096).build();

    static MiniBlockChunkTable of(String where, Slice words, boolean largeChunks, long items)
    {
        MiniBlockChunkTable table = TABLES.getIfPresent(words);
        if (table == null || table.items() != items) {
            table = decode(where, words, largeChunks, items);
            TABLES.put(words, table);
        }
        return table;
    }

    private static MiniBlockChunkTable decode(String where, Slice words, boolean largeChunks, long items)
    {
        int wordBytes = largeChunks ? 4 : 2;
        int chunks = words.length() / wordBytes;
        long[] itemStarts = new long[chunks + 1];
        long[] byteStarts = new long[chunks + 1];
        for (int chunk = 0; chunk < chunks; chunk++) {
            long word = largeChunks ? words.getUnsignedInt(chunk * 4) : words.getUnsignedShort(chunk * 2);
            // the last chunk records no count: it holds whatever items remain
            long values = chunk == chunks - 1 ? items - itemStarts[chunk] : 1L << (word & 0xF);
            if (values < 0 || values > MAX_CHUNK_VALUES) {
                throw new IllegalStateException(where + ": chunk %s of %s values".formatted(chunk, values));
            }
            itemStarts[chunk + 1] = itemStarts[chunk] + values;
            byteStarts[chunk + 1] = byteStarts[chunk] + MiniBlockChunk.chunkBytes(word);
        }
        return new MiniBlockChunkTable(itemStarts, byteStarts);
    }

    int chunks()
    {
        return itemStarts.length - 1;
    }

    long items()
    {
        return itemStarts[chunks()];
    }

    long itemStart(int chunk)
    {
        return itemStarts[chunk];
    }

    int values(int chunk)
    {
        return toIntExact(itemStarts[chunk + 1] - itemStarts[chunk]);
    }

    int byteStart(int chunk)
    {
        return toIntExact(byteStarts[chunk]);
    }

    int bytes(int chunk)
    {
        return toIntExact(byteStarts[chunk + 1] - byteStarts[chunk]);
    }

    /** The chunk holding item {@code item}, or {@link #chunks()} when the page has no such item. */
    int chunkHolding(long item)
    {
        if (item >= items()) {
            return chunks();
        }
        // the last chunk starting at or before the item: every chunk but the last holds values, so starts increase
        int found = Arrays.binarySearch(itemStarts, 0, chunks(), item + 1);
        return (found >= 0 ? found : -found - 1) - 1;
    }
}
