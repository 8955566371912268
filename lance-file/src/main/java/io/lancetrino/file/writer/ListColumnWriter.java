package io.lancetrino.file.writer;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.ConstantLayout;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.airlift.slice.SizeOf.sizeOf;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * A leaf column under one or more arrays (Lance lists), with rows (structs) anywhere above or between them, as Lance
 * stores it: the leaf's items with a repetition and a definition level each, plus a level without an item for every
 * NULL or empty array and every NULL row above the innermost array. Layers count from the leaf item (innermost) out:
 * a struct adds a nullable-item layer, an array a null-and-empty-list layer; def 0 is a value, then each layer takes
 * the next levels (NULL before empty). Rep levels number the arrays from the innermost (1) to the outermost, which
 * starts a row; a level's rep is the outermost array that starts there, 0 if none.
 * <p>
 * The items are encoded by a writer of the leaf's type as a flat page (a NULL row under the innermost array is a NULL
 * item); this writer then lays its chunks out again with the levels of the rows they hold (rows may span chunks) and a
 * repetition index per chunk of the top-level rows: the rows it completes and the levels of the row it leaves
 * unfinished, as Lance's writer records them (depth 1, also under nested arrays). In format 2.1 items of 256 bytes and
 * more come in a full-zip page, which this writer zips again with the levels: a record per level, and the byte
 * position of every row's first record.
 */
final class ListColumnWriter
        implements ColumnWriter
{
    /** A step of {@link #ListColumnWriter}'s path into an array's elements; any other step is a struct's field index. */
    static final int LIST = -1;
    private static final short VALUE = 0;
    private static final short NULL_ITEM = 1;
    // a chunk records its level bytes as u16, so it holds at most 32,767 levels: its items (4,096 at most) and the
    // levels without an item between them. A page ends before the first row after it holds this many of those, so no
    // chunk passes the limit unless one row alone has thousands of empty or NULL arrays between two items
    private static final int MAX_EMPTY_LEVELS_PER_PAGE = 20_000;
    private static final int MAX_CHUNK_LEVELS = 0x7FFF;
    // format 2.1: a chunk holds 32 KiB in all; its items (1,024 at most, 16 KiB of values or less) and their levels
    // take about 21 KiB, and 2,048 levels without an item 8 KiB more
    private static final int MAX_EMPTY_LEVELS_PER_PAGE_V21 = 2048;

    private final ColumnWriter items;
    private final Type leafType;
    private final int structsAbove;
    private final int[] steps;
    // per node (the structs above the outermost array, then each step): the def level of its NULL (an array's empty is one more)
    private final short[] nullLevel;
    // per step: for an array, its rep level
    private final short[] listLevel;
    private final int maxRep;
    private final int maxDef;
    private final int innermostList;
    private final int maxEmptyLevels;
    private final List<RepDefLayer> layers;

    private short[] rep = new short[1024];
    private short[] def = new short[1024];
    // the level of each item buffered in the item writer
    private int[] itemLevel = new int[1024];
    private int levels;
    private int emptyLevels;
    private int itemCount;
    private int rows;
    // per append: the blocks of each step, and the positions of the leaf block that become items (-1: a NULL row's item)
    private Block[] blocks;
    private int[] itemPositions = new int[16];
    private int appendedItems;
    private boolean nullRowItems;
    // pages that ended inside an append, for the file writer to take
    private final List<EncodedPage> completedPages = new ArrayList<>();

    /**
     * @param items the writer of the leaf's values, as a flat column
     * @param structsAbove the structs around the outermost array (their nulls come with each append)
     * @param steps the path from the outermost array to the leaf: {@link #LIST} into an array's elements, else a
     * struct's field index; it starts with {@link #LIST}
     * @param largeChunks whether the file is of format 2.2 (else 2.1)
     */
    ListColumnWriter(ColumnWriter items, Type leafType, int structsAbove, List<Integer> steps, boolean largeChunks)
    {
        this.maxEmptyLevels = maxEmptyLevelsPerPage(largeChunks);
        this.items = requireNonNull(items, "items is null");
        this.leafType = requireNonNull(leafType, "leafType is null");
        this.structsAbove = structsAbove;
        this.steps = steps.stream().mapToInt(Integer::intValue).toArray();
        if (this.steps.length == 0 || this.steps[0] != LIST) {
            throw new IllegalArgumentException("A path into an array starts with the array: " + steps);
        }
        int nodes = structsAbove + this.steps.length;
        nullLevel = new short[nodes];
        listLevel = new short[this.steps.length];
        ImmutableList.Builder<RepDefLayer> layers = ImmutableList.builder();
        layers.add(RepDefLayer.REPDEF_NULLABLE_ITEM);
        int level = NULL_ITEM + 1;
        int lists = 0;
        int innermost = -1;
        for (int node = nodes - 1; node >= 0; node--) {
            boolean list = node >= structsAbove && this.steps[node - structsAbove] == LIST;
            nullLevel[node] = (short) level;
            level += list ? 2 : 1;
            layers.add(list ? RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST : RepDefLayer.REPDEF_NULLABLE_ITEM);
            if (list) {
                lists++;
                listLevel[node - structsAbove] = (short) lists;
                if (innermost < 0) {
                    innermost = node - structsAbove;
                }
            }
        }
        this.maxRep = lists;
        this.maxDef = level - 1;
        this.innermostList = innermost;
        this.layers = layers.build();
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        blocks = new Block[steps.length + 1];
        blocks[0] = block;
        for (int step = 0; step < steps.length; step++) {
            blocks[step + 1] = steps[step] == LIST
                    ? ((ArrayBlock) blocks[step].getUnderlyingValueBlock()).getRawElementBlock()
                    : RowBlock.getRowFieldsFromBlock(blocks[step]).get(steps[step]);
        }
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (emptyLevels >= maxEmptyLevels) {
                completePage();
            }
            rows++;
            int outer = nullStructDepth == null ? 0 : nullStructDepth[position];
            if (outer != 0) {
                addLevel(maxRep, nullLevel[outer - 1]);
                emptyLevels++;
            }
            else {
                visit(0, position, maxRep);
            }
        }
        appendItems();
        blocks = null;
    }

    private void appendItems()
    {
        if (appendedItems > 0) {
            items.append(itemBlock());
        }
        appendedItems = 0;
        nullRowItems = false;
    }

    /** Ends the page in the middle of an append: see MAX_EMPTY_LEVELS_PER_PAGE. */
    private void completePage()
    {
        appendItems();
        completedPages.add(flush());
    }

    /** The levels without an item (NULL and empty arrays, NULL rows above them) after which a page ends. */
    static int maxEmptyLevelsPerPage(boolean largeChunks)
    {
        return largeChunks ? MAX_EMPTY_LEVELS_PER_PAGE : MAX_EMPTY_LEVELS_PER_PAGE_V21;
    }

    @Override
    public List<EncodedPage> takeCompletedPages()
    {
        List<EncodedPage> pages = List.copyOf(completedPages);
        completedPages.clear();
        return pages;
    }

    /** Adds the levels of the value at {@code position} of step {@code step}'s block, the first of them at rep level {@code repetition}. */
    private void visit(int step, int position, int repetition)
    {
        Block block = blocks[step];
        if (step == steps.length) {
            addItem(repetition, block.isNull(position) ? NULL_ITEM : VALUE, position);
            return;
        }
        int node = structsAbove + step;
        if (block.isNull(position)) {
            if (step > innermostList) {
                // a NULL row inside the innermost array still holds the leaf's item, as NULL
                addItem(repetition, nullLevel[node], -1);
            }
            else {
                addLevel(repetition, nullLevel[node]);
                emptyLevels++;
            }
            return;
        }
        if (steps[step] != LIST) {
            visit(step + 1, position, repetition);
            return;
        }
        ArrayBlock arrays = (ArrayBlock) block.getUnderlyingValueBlock();
        int array = arrays.getOffsetBase() + block.getUnderlyingValuePosition(position);
        int start = arrays.getRawOffsets()[array];
        int end = arrays.getRawOffsets()[array + 1];
        if (start == end) {
            addLevel(repetition, (short) (nullLevel[node] + 1));
            emptyLevels++;
            return;
        }
        for (int element = start; element < end; element++) {
            // a later element starts only the arrays inside this one: the next one in has the rep level one below
            visit(step + 1, element, element == start ? repetition : listLevel[step] - 1);
        }
    }

    private void addItem(int repetition, short definition, int position)
    {
        if (itemCount == itemLevel.length) {
            itemLevel = Arrays.copyOf(itemLevel, itemCount * 2);
        }
        itemLevel[itemCount++] = levels;
        addLevel(repetition, definition);
        if (appendedItems == itemPositions.length) {
            itemPositions = Arrays.copyOf(itemPositions, appendedItems * 2);
        }
        itemPositions[appendedItems++] = position;
        nullRowItems |= position < 0;
    }

    /** The leaf values of this append's items, NULL where a row above them is NULL. */
    private Block itemBlock()
    {
        Block leaf = blocks[steps.length];
        if (!nullRowItems) {
            return leaf.getPositions(itemPositions, 0, appendedItems);
        }
        BlockBuilder builder = leafType.createBlockBuilder(null, appendedItems);
        for (int item = 0; item < appendedItems; item++) {
            int position = itemPositions[item];
            if (position < 0 || leaf.isNull(position)) {
                builder.appendNull();
            }
            else {
                builder.append(leaf.getUnderlyingValueBlock(), leaf.getUnderlyingValuePosition(position));
            }
        }
        return builder.build();
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
        return items.bufferedBytes() + 4L * levels;
    }

    @Override
    public long retainedBytes()
    {
        return items.retainedBytes() + sizeOf(rep) + sizeOf(def) + sizeOf(itemLevel) + sizeOf(itemPositions);
    }

    @Override
    public EncodedPage flush()
    {
        EncodedPage page = withLevels(items.flush());
        levels = 0;
        emptyLevels = 0;
        itemCount = 0;
        rows = 0;
        return page;
    }

    /** The item page's chunks again, each with the levels of its items and of the levels without an item after them. */
    private EncodedPage withLevels(EncodedPage flat)
    {
        if (itemCount == 0) {
            return onlyLevels();
        }
        if (flat.layout().hasFullZipLayout()) {
            return fullZipWithLevels(flat);
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
        int item = 0;
        for (int chunk = 0; chunk < chunks.size(); chunk++) {
            MiniBlockChunkWriter.FlatChunk flatChunk = chunks.get(chunk);
            boolean last = chunk == chunks.size() - 1;
            int values = flatChunk.values();
            // a chunk's levels run to the next chunk's first item: the levels without an item stay with the item before them
            int levelStart = chunk == 0 ? 0 : itemLevel[item];
            int levelEnd = last ? levels : itemLevel[item + values];
            writeChunk(newMetadata, newChunks, levelStart, levelEnd, values, flatChunk.valueBuffers(), last, large);
            writeIndexEntry(index, chunk, levelStart, levelEnd, last);
            item += values;
        }
        MiniBlockLayout listLayout = layout.toBuilder()
                .setRepCompression(PageLayouts.flat(16))
                .setDefCompression(PageLayouts.flat(16))
                .clearLayers()
                .addAllLayers(layers)
                .setRepetitionIndexDepth(1)
                .setNumItems(itemCount)
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
     * The item page's full-zip records zipped again, one per level: its control word (rep bits above def bits,
     * byte-packed), then for a value its length and bytes as the item page holds them; and the byte position of every
     * row's first record and of the end.
     */
    private EncodedPage fullZipWithLevels(EncodedPage flat)
    {
        FullZipLayout itemLayout = flat.layout().getFullZipLayout();
        // the item writer's records: a def byte where the page has NULLs, then for a value its length and bytes
        int itemControlBytes = itemLayout.getBitsDef() > 0 ? 1 : 0;
        int lengthBytes = toIntExact(itemLayout.getBitsPerOffset()) / 8;
        Slice itemRecords = flat.buffers().getFirst();
        int repBits = 32 - Integer.numberOfLeadingZeros(maxRep);
        int defBits = 32 - Integer.numberOfLeadingZeros(maxDef);
        int controlBytes = (repBits + defBits + 7) / 8;
        DynamicSliceOutput records = new DynamicSliceOutput(itemRecords.length() + controlBytes * levels);
        long[] rowStarts = new long[rows + 1];
        int row = 0;
        int item = 0;
        int position = 0;
        for (int level = 0; level < levels; level++) {
            if (rep[level] == maxRep) {
                rowStarts[row++] = records.size();
            }
            long control = ((long) rep[level] << defBits) | def[level];
            for (int i = 0; i < controlBytes; i++) {
                records.writeByte((int) (control >>> (8 * i)));
            }
            if (item < itemCount && itemLevel[item] == level) {
                boolean isNull = itemControlBytes > 0 && itemRecords.getByte(position) != 0;
                position += itemControlBytes;
                if (isNull != (def[level] != VALUE)) {
                    throw new IllegalStateException("Item %s of the page is %s, its level says otherwise".formatted(item, isNull ? "NULL" : "a value"));
                }
                if (!isNull) {
                    long length = lengthBytes == Long.BYTES ? itemRecords.getLong(position) : itemRecords.getUnsignedInt(position);
                    int recordBytes = toIntExact(lengthBytes + length);
                    records.writeBytes(itemRecords, position, recordBytes);
                    position += recordBytes;
                }
                item++;
            }
        }
        rowStarts[rows] = records.size();
        if (row != rows || item != itemCount) {
            throw new IllegalStateException("%s rows and %s items zipped, %s and %s buffered".formatted(row, item, rows, itemCount));
        }
        PageLayout layout = PageLayouts.fullZipVariable(levels, itemCount, repBits, defBits, 8 * lengthBytes, itemLayout.getValueCompression(), layers);
        return new EncodedPage(rows, List.of(records.slice(), VariableWidthColumnWriter.recordPositions(rowStarts)), layout);
    }

    /**
     * A page of levels without an item only (NULL and empty arrays, NULL rows), as Lance writes one: a constant page
     * without a value, its buffers the rep and the def levels.
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
                .addAllLayers(layers)
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
        long valueBytes = buffers.stream().mapToLong(buffer -> buffer.length() + MiniBlockChunkWriter.ALIGNMENT).sum();
        if (count > MAX_CHUNK_LEVELS || (!large && 64 + 4L * count + valueBytes > MiniBlockChunkWriter.maxChunkBytes(false))) {
            throw new IllegalArgumentException("A chunk of %s array elements holds %s levels, more than a chunk of format %s can hold; a row has too many empty or NULL arrays between two elements%s"
                    .formatted(values, count, large ? "2.2" : "2.1", large ? "" : ", or an element is too long"));
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
            if (rep[level] == maxRep) {
                starts++;
                lastStart = level;
            }
        }
        boolean finishesPrevious = levelStart < levelEnd && rep[levelStart] != maxRep;
        boolean leavesUnfinished = !last && levelEnd < levels && rep[levelEnd] != maxRep;
        long completed = starts + (finishesPrevious ? 1 : 0) - (leavesUnfinished ? 1 : 0);
        long leftover = leavesUnfinished ? levelEnd - (lastStart >= 0 ? lastStart : levelStart) : 0;
        index.setLong(chunk * 16, completed);
        index.setLong(chunk * 16 + 8, leftover);
    }
}
