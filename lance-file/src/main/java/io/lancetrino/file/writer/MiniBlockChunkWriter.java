package io.lancetrino.file.writer;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;

import java.util.List;

/**
 * Lays out the chunks of a mini-block page as Lance reads them: per chunk a header (level count, def-level bytes when
 * the page has def levels, then the size of each value buffer: u16, or u32 in 2.2's large chunks), then the def
 * levels and the value buffers, each starting 8-byte aligned; and one metadata word per chunk, {@code ((bytes / 8 - 1) << 4)
 * | log2(values)}, with 0 as the log of the last chunk, whose count follows from the page's item count.
 */
final class MiniBlockChunkWriter
{
    static final int ALIGNMENT = 8;
    // the 7.0 writer pads chunks with this byte
    private static final byte PADDING = (byte) 0xFE;

    private final boolean largeChunks;
    private final int items;
    private final boolean[] nulls;
    private final boolean hasDef;
    private final DynamicSliceOutput metadata = new DynamicSliceOutput(64);
    private final DynamicSliceOutput chunks = new DynamicSliceOutput(4096);
    private int itemsAdded;

    /**
     * @param items the page's items, which the chunks added cover in order
     * @param nulls which items are null, or null when the page holds none (it then has no def levels)
     */
    MiniBlockChunkWriter(boolean largeChunks, int items, boolean[] nulls)
    {
        this.largeChunks = largeChunks;
        this.items = items;
        this.nulls = nulls;
        this.hasDef = nulls != null;
    }

    /**
     * Adds the chunk of the next {@code values} items; every chunk but the last holds a power of two of them.
     */
    void addChunk(int values, Slice valueBuffer)
    {
        addChunk(values, List.of(valueBuffer));
    }

    /**
     * Adds a chunk of several value buffers (a vector's item bitmap and its values), each with its size in the header.
     */
    void addChunk(int values, List<Slice> valueBuffers)
    {
        boolean last = itemsAdded + values >= items;
        if (!last && Integer.bitCount(values) != 1) {
            throw new IllegalArgumentException("A chunk before the last holds a power of two of values, not " + values);
        }
        Slice defLevels = hasDef ? DefLevels.of(nulls, itemsAdded, values) : null;
        itemsAdded += values;
        int start = chunks.size();
        chunks.writeShort(hasDef ? values : 0);
        if (hasDef) {
            chunks.writeShort(defLevels.length());
        }
        for (Slice valueBuffer : valueBuffers) {
            if (largeChunks) {
                chunks.writeInt(valueBuffer.length());
            }
            else {
                checkShort(valueBuffer.length(), "value bytes");
                chunks.writeShort(valueBuffer.length());
            }
        }
        pad(start);
        if (hasDef) {
            chunks.writeBytes(defLevels);
            pad(start);
        }
        for (Slice valueBuffer : valueBuffers) {
            chunks.writeBytes(valueBuffer);
            pad(start);
        }
        int bytes = chunks.size() - start;
        long units = bytes / ALIGNMENT - 1;
        long word = (units << 4) | (last ? 0 : Integer.numberOfTrailingZeros(values));
        if (largeChunks) {
            if (units >= 1L << 28) {
                throw new IllegalArgumentException("A mini-block chunk of %s bytes is beyond the format's limit".formatted(bytes));
            }
            metadata.writeInt((int) word);
        }
        else {
            if (units >= 1L << 12) {
                throw new IllegalArgumentException("A mini-block chunk of %s bytes is beyond format 2.1's 32 KiB".formatted(bytes));
            }
            metadata.writeShort((int) word);
        }
    }

    /**
     * The page of the chunks added: buffers chunk metadata, chunks and, for a dictionary page, the dictionary.
     *
     * @param dictionary the dictionary's bytes, or null
     */
    EncodedPage page(CompressiveEncoding values, Slice dictionary, CompressiveEncoding dictionaryEncoding, long dictionaryItems)
    {
        List<Slice> buffers = dictionary == null ? List.of(metadata.slice(), chunks.slice()) : List.of(metadata.slice(), chunks.slice(), dictionary);
        return new EncodedPage(items, buffers, PageLayouts.miniBlock(items, hasDef, values, largeChunks, dictionaryEncoding, dictionaryItems));
    }

    /** The page of chunks of {@code valueBuffers} buffers each, without a dictionary. */
    EncodedPage page(CompressiveEncoding values, int valueBuffers)
    {
        return new EncodedPage(items, List.of(metadata.slice(), chunks.slice()), PageLayouts.miniBlock(items, hasDef, values, largeChunks, valueBuffers));
    }

    /**
     * The bytes a chunk of {@code values} items with a value buffer of {@code valueBytes} adds to the page (chunk and
     * metadata word), as {@link #addChunk} lays it out: header, def levels and values, each 8-byte aligned.
     */
    static long chunkBytes(boolean largeChunks, boolean hasDef, int values, long valueBytes)
    {
        int header = 2 + (hasDef ? 2 : 0) + (largeChunks ? 4 : 2);
        return align(header) + (hasDef ? align(2L * values) : 0) + align(valueBytes) + (largeChunks ? 4 : 2);
    }

    private static long align(long bytes)
    {
        return (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** The largest chunk the word can describe, in bytes. */
    static int maxChunkBytes(boolean largeChunks)
    {
        return largeChunks ? Integer.MAX_VALUE - ALIGNMENT : (1 << 12) * ALIGNMENT;
    }

    private void pad(int chunkStart)
    {
        while ((chunks.size() - chunkStart) % ALIGNMENT != 0) {
            chunks.writeByte(PADDING);
        }
    }

    private static void checkShort(int value, String what)
    {
        if (value > 0xFFFF) {
            throw new IllegalArgumentException("A mini-block chunk of %s %s is beyond format 2.1's u16 sizes".formatted(value, what));
        }
    }
}
