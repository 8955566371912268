package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.TrinoInput;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * Narrows a MiniBlock page to the chunks holding some of its rows, so a reader of a few rows fetches those chunks (a
 * few KiB) and the page's chunk table rather than the whole page, which can hold a whole column of a data file. Chunks
 * are self-contained (their values and levels), so the narrowed page decodes as any page.
 */
public final class MiniBlockChunks
{
    private static final long MAX_CHUNK_TABLE_BYTES = 1 << 20;

    private MiniBlockChunks() {}

    /**
     * @param page the narrowed page, a page of its own
     * @param firstRow the row of the original page the narrowed page starts at
     */
    public record NarrowedPage(LancePage page, long firstRow)
    {
        public NarrowedPage
        {
            requireNonNull(page, "page is null");
        }
    }

    /**
     * The chunks of the page holding rows {@code [from, to)}, or empty when the page is not a MiniBlock page that can be
     * cut into chunks (repetition indexes count items of the whole page) or when the rows span it all. A dictionary
     * (buffer 2) is kept whole: chunks hold indices into it.
     */
    public static Optional<NarrowedPage> narrow(TrinoInput input, LancePage page, int from, int to)
            throws IOException
    {
        if (page.layout().getLayoutCase() != PageLayout.LayoutCase.MINI_BLOCK_LAYOUT || page.bufferPositions().size() < 2) {
            return Optional.empty();
        }
        MiniBlockLayout layout = page.layout().getMiniBlockLayout();
        if (layout.hasRepCompression() || layout.getRepetitionIndexDepth() > 0 || layout.getNumItems() != page.rows()) {
            return Optional.empty();
        }
        int wordBytes = layout.getHasLargeChunk() ? 4 : 2;
        long tableSize = page.bufferSizes().get(0);
        if (tableSize > MAX_CHUNK_TABLE_BYTES || tableSize % wordBytes != 0) {
            return Optional.empty();
        }
        Slice words = input.readFully(page.bufferPositions().get(0), toIntExact(tableSize));
        int chunkCount = toIntExact(tableSize / wordBytes);
        long itemStart = 0;
        long byteStart = 0;
        int firstChunk = -1;
        long firstItem = 0;
        long firstByte = 0;
        int lastChunk = -1;
        long lastItemEnd = 0;
        long lastByteEnd = 0;
        for (int chunk = 0; chunk < chunkCount && itemStart < to; chunk++) {
            long word = wordBytes == 4 ? words.getUnsignedInt(chunk * 4) : words.getUnsignedShort(chunk * 2);
            long chunkBytes = ((word >>> 4) + 1) * 8;
            // the last chunk records no count: it holds the remaining items
            long values = chunk == chunkCount - 1 ? layout.getNumItems() - itemStart : 1L << (word & 0xF);
            long itemEnd = itemStart + values;
            if (itemEnd > from && firstChunk < 0) {
                firstChunk = chunk;
                firstItem = itemStart;
                firstByte = byteStart;
            }
            if (firstChunk >= 0) {
                lastChunk = chunk;
                lastItemEnd = itemEnd;
                lastByteEnd = byteStart + chunkBytes;
            }
            itemStart = itemEnd;
            byteStart += chunkBytes;
        }
        if (firstChunk < 0 || lastItemEnd < to || lastByteEnd > page.bufferSizes().get(1) || (firstChunk == 0 && lastChunk == chunkCount - 1)) {
            // the whole page, or chunk sizes that do not add up: the page reader decides
            return Optional.empty();
        }
        List<Long> positions = new ArrayList<>(page.bufferPositions());
        List<Long> sizes = new ArrayList<>(page.bufferSizes());
        positions.set(0, page.bufferPositions().get(0) + (long) firstChunk * wordBytes);
        sizes.set(0, (long) (lastChunk - firstChunk + 1) * wordBytes);
        positions.set(1, page.bufferPositions().get(1) + firstByte);
        sizes.set(1, lastByteEnd - firstByte);
        long items = lastItemEnd - firstItem;
        PageLayout narrowedLayout = page.layout().toBuilder().setMiniBlockLayout(layout.toBuilder().setNumItems(items)).build();
        return Optional.of(new NarrowedPage(new LancePage(items, positions, sizes, narrowedLayout), firstItem));
    }
}
