package io.lancetrino.file.writer;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.ConstantLayout;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.airlift.slice.SizeOf.sizeOf;
import static java.util.Objects.requireNonNull;

/**
 * A top-level array of flat values (Trino {@code array(T)} without a {@code dimension}), as Lance stores a list: one
 * leaf column of the elements with a repetition level per element (1 where a row starts) and a def level (0 a value,
 * 1 a NULL element, 2 a NULL array, 3 an empty array; the last two are levels without an element). The elements are
 * encoded by a writer of their type as a flat page; this writer then lays its chunks out again with the levels of the
 * rows they hold (rows may span chunks) and a repetition index per chunk: the rows it completes and the levels of the
 * row it leaves unfinished, as Lance's writer records them. Format 2.2 only.
 */
final class ListColumnWriter
        implements ColumnWriter
{
    private static final short VALUE = 0;
    private static final short NULL_ELEMENT = 1;
    private static final short NULL_LIST = 2;
    private static final short EMPTY_LIST = 3;
    private static final List<RepDefLayer> LAYERS = List.of(RepDefLayer.REPDEF_NULLABLE_ITEM, RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST);
    // a chunk records its level bytes as u16, so it holds at most 32,767 levels: its elements (4,096 at most) and the
    // NULL and empty arrays between them. A page ends once it holds this many of those, so no chunk can pass the limit
    // (the file writer hands a table with arrays over in blocks of at most LanceFileWriter.LIST_BLOCK_ROWS rows)
    static final int MAX_EMPTY_LEVELS_PER_PAGE = 20_000;
    private static final int MAX_CHUNK_LEVELS = 0x7FFF;

    private final ColumnWriter elements;
    private short[] rep = new short[1024];
    private short[] def = new short[1024];
    // the level of each element buffered in the element writer
    private int[] elementLevel = new int[1024];
    private int levels;
    private int emptyLevels;
    private int elementCount;
    private int rows;

    ListColumnWriter(ColumnWriter elements)
    {
        this.elements = requireNonNull(elements, "elements is null");
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        if (nullStructDepth != null) {
            throw new IllegalArgumentException("Arrays inside rows are not written");
        }
        ArrayBlock arrays = (ArrayBlock) block.getUnderlyingValueBlock();
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        Block values = arrays.getRawElementBlock();
        int[] positions = new int[16];
        int visible = 0;
        for (int position = 0; position < block.getPositionCount(); position++) {
            rows++;
            if (block.isNull(position)) {
                addLevel(1, NULL_LIST);
                emptyLevels++;
                continue;
            }
            int array = base + block.getUnderlyingValuePosition(position);
            int start = offsets[array];
            int end = offsets[array + 1];
            if (start == end) {
                addLevel(1, EMPTY_LIST);
                emptyLevels++;
                continue;
            }
            for (int element = start; element < end; element++) {
                if (elementCount == elementLevel.length) {
                    elementLevel = Arrays.copyOf(elementLevel, elementCount * 2);
                }
                elementLevel[elementCount++] = levels;
                addLevel(element == start ? 1 : 0, values.isNull(element) ? NULL_ELEMENT : VALUE);
                if (visible == positions.length) {
                    positions = Arrays.copyOf(positions, visible * 2);
                }
                positions[visible++] = element;
            }
        }
        if (visible > 0) {
            elements.append(values.getPositions(positions, 0, visible));
        }
    }

    private void addLevel(int repetition, short definition)
    {
        if (levels == rep.length) {
            rep = Arrays.copyOf(rep, levels * 2);
            def = Arrays.copyOf(def, levels * 2);
        }
        rep[levels] = (short) repetition;
        def[levels] = definition;
        levels++;
    }

    @Override
    public long bufferedRows()
    {
        return rows;
    }

    @Override
    public long bufferedBytes()
    {
        if (emptyLevels >= MAX_EMPTY_LEVELS_PER_PAGE) {
            // full, whatever its bytes: see MAX_EMPTY_LEVELS_PER_PAGE
            return Long.MAX_VALUE;
        }
        return elements.bufferedBytes() + 4L * levels;
    }

    @Override
    public long retainedBytes()
    {
        return elements.retainedBytes() + sizeOf(rep) + sizeOf(def) + sizeOf(elementLevel);
    }

    @Override
    public EncodedPage flush()
    {
        EncodedPage page = withLevels(elements.flush());
        levels = 0;
        emptyLevels = 0;
        elementCount = 0;
        rows = 0;
        return page;
    }

    /** The element page's chunks again, each with the levels of its elements and of the empty and NULL rows after them. */
    private EncodedPage withLevels(EncodedPage flat)
    {
        if (elementCount == 0) {
            return onlyLevels();
        }
        if (!flat.layout().hasMiniBlockLayout()) {
            throw new IllegalStateException("Array elements in a page of layout " + flat.layout().getLayoutCase());
        }
        MiniBlockLayout layout = flat.layout().getMiniBlockLayout();
        boolean large = layout.getHasLargeChunk();
        List<MiniBlockChunkWriter.FlatChunk> chunks = MiniBlockChunkWriter.flatChunks(flat);
        DynamicSliceOutput newMetadata = new DynamicSliceOutput(flat.buffers().get(0).length() + 8);
        DynamicSliceOutput newChunks = new DynamicSliceOutput(flat.buffers().get(1).length() + 4 * levels + 64);
        Slice index = Slices.allocate(16 * Math.max(1, chunks.size()));
        int element = 0;
        for (int chunk = 0; chunk < chunks.size(); chunk++) {
            MiniBlockChunkWriter.FlatChunk flatChunk = chunks.get(chunk);
            boolean last = chunk == chunks.size() - 1;
            int values = flatChunk.values();
            // a chunk's levels run to the next chunk's first element: NULL and empty rows stay with the element before them
            int levelStart = chunk == 0 ? 0 : elementLevel[element];
            int levelEnd = last ? levels : elementLevel[element + values];
            writeChunk(newMetadata, newChunks, levelStart, levelEnd, values, flatChunk.valueBuffers(), last, large);
            writeIndexEntry(index, chunk, levelStart, levelEnd, last);
            element += values;
        }
        MiniBlockLayout listLayout = layout.toBuilder()
                .setRepCompression(PageLayouts.flat(16))
                .setDefCompression(PageLayouts.flat(16))
                .clearLayers()
                .addAllLayers(LAYERS)
                .setRepetitionIndexDepth(1)
                .setNumItems(elementCount)
                .build();
        List<Slice> buffers = new ArrayList<>();
        buffers.add(newMetadata.slice());
        buffers.add(newChunks.slice());
        if (layout.hasDictionary()) {
            buffers.add(flat.buffers().get(2));
        }
        buffers.add(index);
        return new EncodedPage(rows, buffers, PageLayout.newBuilder().setMiniBlockLayout(listLayout).build());
    }

    /**
     * A page of NULL and empty arrays only, as Lance writes one: a constant page without a value, its buffers the rep
     * and the def levels.
     */
    private EncodedPage onlyLevels()
    {
        Slice repLevels = Slices.allocate(2 * levels);
        Slice defLevels = Slices.allocate(2 * levels);
        for (int level = 0; level < levels; level++) {
            repLevels.setShort(2 * level, rep[level]);
            defLevels.setShort(2 * level, def[level]);
        }
        ConstantLayout layout = ConstantLayout.newBuilder()
                .addAllLayers(LAYERS)
                .setRepCompression(PageLayouts.flat(16))
                .setDefCompression(PageLayouts.flat(16))
                .setNumRepValues(levels)
                .setNumDefValues(levels)
                .build();
        return new EncodedPage(rows, List.of(repLevels, defLevels), PageLayout.newBuilder().setConstantLayout(layout).build());
    }

    private void writeChunk(DynamicSliceOutput metadata, DynamicSliceOutput chunks, int levelStart, int levelEnd, int values, List<Slice> buffers, boolean last, boolean large)
    {
        int count = levelEnd - levelStart;
        if (count > MAX_CHUNK_LEVELS) {
            throw new IllegalArgumentException("A chunk of %s array elements holds %s levels, more than a chunk can count; too many empty or NULL arrays between elements".formatted(values, count));
        }
        Slice repLevels = Slices.allocate(2 * count);
        Slice defLevels = Slices.allocate(2 * count);
        for (int level = 0; level < count; level++) {
            repLevels.setShort(2 * level, rep[levelStart + level]);
            defLevels.setShort(2 * level, def[levelStart + level]);
        }
        MiniBlockChunkWriter.writeChunk(metadata, chunks, large, values, last, count, repLevels, defLevels, buffers);
    }

    /**
     * The chunk's entry of the repetition index: the rows it completes (those it starts and ends, and the one it
     * finishes for the chunk before), and the levels of the row it leaves for the next chunk (0 when it leaves none).
     */
    private void writeIndexEntry(Slice index, int chunk, int levelStart, int levelEnd, boolean last)
    {
        int starts = 0;
        int lastStart = -1;
        for (int level = levelStart; level < levelEnd; level++) {
            if (rep[level] == 1) {
                starts++;
                lastStart = level;
            }
        }
        boolean finishesPrevious = levelStart < levelEnd && rep[levelStart] == 0;
        boolean leavesUnfinished = !last && levelEnd < levels && rep[levelEnd] == 0;
        long completed = starts + (finishesPrevious ? 1 : 0) - (leavesUnfinished ? 1 : 0);
        long leftover = leavesUnfinished ? levelEnd - (lastStart >= 0 ? lastStart : levelStart) : 0;
        index.setLong(chunk * 16, completed);
        index.setLong(chunk * 16 + 8, leftover);
    }
}
