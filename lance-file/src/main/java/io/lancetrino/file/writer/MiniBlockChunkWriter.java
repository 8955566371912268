package io.lancetrino.file.writer;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;

import java.util.ArrayList;
import java.util.Arrays;
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
    // value buffers per chunk, the same in every chunk of a page (0 before the first)
    private int buffersPerChunk;

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
        if (buffersPerChunk != 0 && buffersPerChunk != valueBuffers.size()) {
            throw new IllegalArgumentException("Chunks of %s and %s value buffers in one page".formatted(buffersPerChunk, valueBuffers.size()));
        }
        buffersPerChunk = valueBuffers.size();
        boolean last = itemsAdded + values >= items;
        if (!last && Integer.bitCount(values) != 1) {
            throw new IllegalArgumentException("A chunk before the last holds a power of two of values, not " + values);
        }
        Slice defLevels = hasDef ? DefLevels.of(nulls, itemsAdded, values) : null;
        itemsAdded += values;
        writeChunk(metadata, chunks, largeChunks, values, last, hasDef ? values : 0, null, defLevels, valueBuffers);
    }

    /**
     * Writes one chunk and its metadata word: the level count, the sizes of the rep and def levels present (null when
     * absent) and of each value buffer, then each part 8-byte aligned.
     */
    static void writeChunk(DynamicSliceOutput metadata, DynamicSliceOutput chunks, boolean largeChunks, int values, boolean last, int levels, Slice repLevels, Slice defLevels, List<Slice> valueBuffers)
    {
        int start = chunks.size();
        chunks.writeShort(levels);
        if (repLevels != null) {
            checkShort(repLevels.length(), "rep level bytes");
            chunks.writeShort(repLevels.length());
        }
        if (defLevels != null) {
            checkShort(defLevels.length(), "def level bytes");
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
        pad(chunks, start);
        for (Slice levelBytes : Arrays.asList(repLevels, defLevels)) {
            if (levelBytes != null) {
                chunks.writeBytes(levelBytes);
                pad(chunks, start);
            }
        }
        for (Slice valueBuffer : valueBuffers) {
            chunks.writeBytes(valueBuffer);
            pad(chunks, start);
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

    /** A chunk of an encoded page without rep levels: where it starts, its values, where its def levels start, its value buffers. */
    record FlatChunk(int position, int values, int defStart, List<Slice> valueBuffers) {}

    /** The chunks of a mini-block page this class wrote without rep levels, as {@link #writeChunk} laid them out. */
    static List<FlatChunk> flatChunks(EncodedPage page)
    {
        MiniBlockLayout layout = page.layout().getMiniBlockLayout();
        boolean large = layout.getHasLargeChunk();
        int wordBytes = large ? 4 : 2;
        int valueBuffers = (int) layout.getNumBuffers();
        boolean hasDef = layout.hasDefCompression();
        Slice metadata = page.buffers().get(0);
        Slice chunks = page.buffers().get(1);
        int chunkCount = metadata.length() / wordBytes;
        int headerBytes = (int) align(2 + (hasDef ? 2 : 0) + (long) valueBuffers * wordBytes);
        ImmutableList.Builder<FlatChunk> parsed = ImmutableList.builder();
        int position = 0;
        long itemsBefore = 0;
        for (int chunk = 0; chunk < chunkCount; chunk++) {
            long word = large ? metadata.getUnsignedInt(chunk * 4) : metadata.getUnsignedShort(chunk * 2);
            int values = chunk == chunkCount - 1 ? (int) (layout.getNumItems() - itemsBefore) : 1 << (int) (word & 0xF);
            int offset = headerBytes + (hasDef ? (int) align(chunks.getUnsignedShort(position + 2)) : 0);
            List<Slice> buffers = new ArrayList<>(valueBuffers);
            for (int buffer = 0; buffer < valueBuffers; buffer++) {
                int sizeAt = position + 2 + (hasDef ? 2 : 0) + buffer * wordBytes;
                int size = large ? chunks.getInt(sizeAt) : chunks.getUnsignedShort(sizeAt);
                buffers.add(chunks.slice(position + offset, size));
                offset += (int) align(size);
            }
            parsed.add(new FlatChunk(position, values, position + headerBytes, buffers));
            itemsBefore += values;
            position += (int) ((word >>> 4) + 1) * ALIGNMENT;
        }
        return parsed.build();
    }

    /**
     * The page of the chunks added: buffers chunk metadata, chunks and, for a dictionary page, the dictionary.
     *
     * @param dictionary the dictionary's bytes, or null
     */
    EncodedPage page(CompressiveEncoding values, Slice dictionary, CompressiveEncoding dictionaryEncoding, long dictionaryItems)
    {
        List<Slice> buffers = dictionary == null ? List.of(metadata.slice(), chunks.slice()) : List.of(metadata.slice(), chunks.slice(), dictionary);
        PageLayout layout = PageLayouts.miniBlock(items, hasDef, values, largeChunks, dictionaryEncoding, dictionaryItems);
        if (buffersPerChunk > 1) {
            layout = layout.toBuilder().setMiniBlockLayout(layout.getMiniBlockLayout().toBuilder().setNumBuffers(buffersPerChunk)).build();
        }
        return new EncodedPage(items, buffers, layout);
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

    private static void pad(DynamicSliceOutput chunks, int chunkStart)
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
