package io.lancetrino.file;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.airlift.slice.Slice;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryId;

import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import static io.trino.spi.block.DictionaryId.randomDictionaryId;

/**
 * Decoded page dictionaries, keyed by the identity of the page's dictionary buffer: a page is decoded in many batches,
 * and each batch's dictionary block then shares one decoded dictionary and one {@link DictionaryId}, so the engine
 * processes the dictionary once per page instead of once per batch.
 */
final class PageDictionaries
{
    // weak keys compare by identity: an entry lives as long as the reader keeps the page's buffer
    private static final Cache<Slice, Entry> DICTIONARIES = CacheBuilder.newBuilder().weakKeys().maximumSize(4096).build();

    private PageDictionaries() {}

    record Entry(Block dictionary, DictionaryId id, Block dictionaryWithNull, DictionaryId idWithNull) {}

    static Entry get(Slice buffer, Supplier<Block> decode)
    {
        try {
            return DICTIONARIES.get(buffer, () -> {
                Block dictionary = decode.get();
                return new Entry(dictionary, randomDictionaryId(), dictionary.copyWithAppendedNull(), randomDictionaryId());
            });
        }
        catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        catch (com.google.common.util.concurrent.UncheckedExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }
}
