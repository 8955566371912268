package io.lancetrino.file;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.codec.ValueDecoders;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.trino.spi.block.Block;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;

import static java.lang.Math.toIntExact;

/**
 * Decodes a whole MiniBlock page of a nested leaf (under lists and/or structs) into its rep/def levels and the values
 * of its value slots. Each chunk header holds the level count, the rep and def byte sizes (when the page has them) and
 * one size per value buffer; then come the 8-aligned rep levels, def levels and value buffers. A chunk holds a number
 * of values (its metadata word) and of levels (its header), which differ where lists are null or empty.
 */
final class RepDefMiniBlockDecoder
{

    private RepDefMiniBlockDecoder() {}

    /** Levels of chunks holding at least the rows [from, to); the first row of the result is {@code rowOffset}. */
    record Rows(LeafLevels levels, int rowOffset) {}

    /**
     * Decodes only the chunks that hold the rows [from, to) of the page. Where rows continue across chunks, the
     * repetition index tells how many rows start in each chunk (rows of a page without lists are its items).
     */
    static Rows decodeRows(String where, MiniBlockLayout layout, List<Slice> buffers, Type type, int from, int to)
    {
        Slice metadata = buffers.get(0);
        boolean large = layout.getHasLargeChunk();
        int chunkCount = metadata.length() / (large ? 4 : 2);
        if (chunkCount == 0) {
            return new Rows(decode(where, layout, buffers, type, 0, 0), 0);
        }
        // rows starting in each chunk
        long[] starts = new long[chunkCount];
        boolean lists = layout.hasRepCompression();
        if (lists) {
            int depth = layout.getRepetitionIndexDepth();
            int indexBuffer = layout.hasDictionary() ? 3 : 2;
            // only the depth-1 index (rows of the outermost list) is known from files; anything else decodes all
            if (depth != 1 || buffers.size() <= indexBuffer || buffers.get(indexBuffer).length() != chunkCount * (depth + 1) * Long.BYTES) {
                return new Rows(decode(where, layout, buffers, type, 0, chunkCount), 0);
            }
            // per chunk: the rows it completes, then the levels of the row it leaves unfinished (0 if none), so a
            // chunk starts one row more than it completes when it leaves one unfinished, one fewer when it finishes
            // the previous chunk's
            Slice index = buffers.get(indexBuffer);
            boolean previousUnfinished = false;
            for (int chunk = 0; chunk < chunkCount; chunk++) {
                long completed = index.getLong(chunk * (depth + 1) * Long.BYTES);
                boolean unfinished = index.getLong((chunk * (depth + 1) + depth) * Long.BYTES) > 0;
                starts[chunk] = completed + (unfinished ? 1 : 0) - (previousUnfinished ? 1 : 0);
                previousUnfinished = unfinished;
            }
        }
        else {
            long items = layout.getNumItems();
            long itemStart = 0;
            for (int chunk = 0; chunk < chunkCount; chunk++) {
                long word = large ? metadata.getUnsignedInt(chunk * 4) : metadata.getUnsignedShort(chunk * 2);
                starts[chunk] = chunk == chunkCount - 1 ? items - itemStart : 1L << (word & 0xF);
                itemStart += starts[chunk];
            }
        }
        int first = 0;
        long rowsBefore = 0;
        while (first < chunkCount - 1 && rowsBefore + starts[first] <= from) {
            rowsBefore += starts[first];
            first++;
        }
        int last = first;
        long rowsThrough = rowsBefore + starts[first];
        // the chunk where row {@code to} starts still holds the end of the row before it
        while (last < chunkCount - 1 && rowsThrough <= to) {
            last++;
            rowsThrough += starts[last];
        }
        return new Rows(decode(where, layout, buffers, type, first, last + 1), toIntExact(rowsBefore));
    }

    static LeafLevels decode(String where, MiniBlockLayout layout, List<Slice> buffers, Type type)
    {
        int chunks = buffers.get(0).length() / (layout.getHasLargeChunk() ? 4 : 2);
        return decode(where, layout, buffers, type, 0, chunks);
    }

    /** Decodes the chunks [chunkFrom, chunkTo) of a page. */
    static LeafLevels decode(String where, MiniBlockLayout layout, List<Slice> buffers, Type type, int chunkFrom, int chunkTo)
    {
        RepDefLayers layers = new RepDefLayers(where, layout.getLayersList());
        int valueBuffers = toIntExact(layout.getNumBuffers());
        if (valueBuffers != (ValueDecoders.isRle(layout.getValueCompression()) ? 2 : 1)) {
            throw new UnsupportedLanceEncodingException(where + ": " + layout.getNumBuffers() + " value buffers per chunk are not decoded");
        }
        boolean hasRep = layout.hasRepCompression();
        boolean hasDef = layout.hasDefCompression();
        if (layers.lists() > 0 && !hasRep) {
            throw new UnsupportedLanceEncodingException(where + ": list layers without repetition levels");
        }
        boolean dictionary = layout.hasDictionary();
        boolean large = layout.getHasLargeChunk();
        PageBlocks.Kind kind = dictionary ? PageBlocks.Kind.FIXED : PageBlocks.kind(type);
        CompressiveEncoding valueEncoding = layout.getValueCompression();
        if (kind != PageBlocks.Kind.VARIABLE && !dictionary && ValueDecoders.bitsPerValue(valueEncoding) != PageBlocks.storedBits(type)) {
            throw new IllegalArgumentException(where + ": %s-bit values cannot be read as %s".formatted(ValueDecoders.bitsPerValue(valueEncoding), type));
        }

        int pageItems = toIntExact(layout.getNumItems());
        Slice metadata = buffers.get(0);
        int wordBytes = large ? 4 : 2;
        int chunkCount = metadata.length() / wordBytes;
        // items and bytes of the chunks before chunkFrom, and the items of the decoded chunks
        int skippedItems = 0;
        int chunkPosition = 0;
        int items = 0;
        for (int chunk = 0; chunk < chunkTo; chunk++) {
            long word = large ? metadata.getUnsignedInt(chunk * 4) : metadata.getUnsignedShort(chunk * 2);
            int values = chunk == chunkCount - 1 ? pageItems - skippedItems - items : 1 << (int) (word & 0xF);
            if (chunk < chunkFrom) {
                skippedItems += values;
                chunkPosition += MiniBlockChunk.chunkBytes(word);
            }
            else {
                items += values;
            }
        }
        long[] fixed = kind == PageBlocks.Kind.FIXED ? new long[items] : kind == PageBlocks.Kind.FIXED_128 ? new long[items * 2] : null;
        DynamicSliceOutput bytes = kind == PageBlocks.Kind.VARIABLE ? new DynamicSliceOutput(items * 8) : null;
        int[] offsets = kind == PageBlocks.Kind.VARIABLE ? new int[items + 1] : null;
        IntList rep = hasRep ? new IntList(items) : null;
        IntList def = hasDef ? new IntList(items) : null;

        Slice chunks = buffers.get(1);
        int itemStart = 0;
        int entries = 0;
        for (int chunk = chunkFrom; chunk < chunkTo; chunk++) {
            long word = large ? metadata.getUnsignedInt(chunk * 4) : metadata.getUnsignedShort(chunk * 2);
            int chunkBytes = MiniBlockChunk.chunkBytes(word);
            int logValues = (int) (word & 0xF);
            int values = chunk == chunkCount - 1 ? items - itemStart : 1 << logValues;
            if (values < 0) {
                throw new IllegalStateException(where + ": chunks hold more than the page's %s items".formatted(pageItems));
            }
            Slice data = chunks.slice(chunkPosition, chunkBytes);

            MiniBlockChunk parts = MiniBlockChunk.parse(data, hasRep, hasDef, valueBuffers, large);
            int levels = parts.levels();
            if (hasRep) {
                rep.addAll(ValueDecoders.decodeFixed(layout.getRepCompression(), parts.rep(), levels), levels);
            }
            if (hasDef) {
                def.addAll(ValueDecoders.decodeFixed(layout.getDefCompression(), parts.def(), levels), levels);
            }
            entries += levels;
            if (values > 0) {
                Slice valueData = parts.values()[0];
                switch (kind) {
                    case FIXED -> {
                        long[] decoded = ValueDecoders.isRle(valueEncoding)
                                ? ValueDecoders.decodeRle(valueEncoding, valueData, parts.values()[1], values)
                                : ValueDecoders.decodeFixed(valueEncoding, valueData, values);
                        System.arraycopy(decoded, 0, fixed, itemStart, values);
                    }
                    case FIXED_128 -> System.arraycopy(ValueDecoders.decodeFixed128(valueEncoding, valueData, values), 0, fixed, itemStart * 2, values * 2);
                    case VARIABLE -> {
                        VariableValues variable = ValueDecoders.decodeVariable(valueEncoding, valueData, values);
                        for (int i = 0; i < values; i++) {
                            int start = variable.offsets()[i];
                            bytes.writeBytes(variable.data(), start, variable.offsets()[i + 1] - start);
                            offsets[itemStart + i + 1] = bytes.size();
                        }
                    }
                }
            }
            chunkPosition += chunkBytes;
            itemStart += values;
        }
        if (itemStart != items) {
            throw new IllegalStateException(where + ": chunks hold %s items, %s expected".formatted(itemStart, items));
        }
        int[] defLevels = def == null ? null : def.toArray();
        // a slot is null when its level stops at the leaf or a struct around it
        boolean[] nulls = null;
        if (defLevels != null) {
            nulls = new boolean[items];
            int slot = 0;
            for (int entry = 0; entry < entries; entry++) {
                int level = defLevels[entry];
                if (layers.hasSlot(level)) {
                    if (slot >= items) {
                        throw new IllegalStateException(where + ": more value slots than the page's %s items".formatted(items));
                    }
                    nulls[slot++] = level != 0;
                }
            }
            if (slot != items) {
                throw new IllegalStateException(where + ": def levels have %s value slots, the page %s items".formatted(slot, items));
            }
        }
        // without rep and def levels (every layer all valid, as 2.2 writes structs with no nulls) chunks record no levels
        else if (!hasRep && entries != 0 && entries != items) {
            throw new IllegalStateException(where + ": %s levels for %s items".formatted(entries, items));
        }
        Optional<boolean[]> isNull = Optional.ofNullable(nulls);
        Block block;
        if (dictionary) {
            block = MiniBlockPageDecoder.dictionaryBlock(where, layout, buffers, type, fixed, isNull, items);
        }
        else {
            block = switch (kind) {
                case FIXED -> PageBlocks.fixed(type, fixed, 0, items, isNull);
                case FIXED_128 -> PageBlocks.fixed128((DecimalType) type, fixed, 0, items, isNull);
                case VARIABLE -> PageBlocks.variable(new VariableValues(bytes.slice(), offsets), 0, items, isNull);
            };
        }
        return new LeafLevels(layers, entries, rep == null ? null : rep.toArray(), defLevels, block);
    }

    /** A growable int array. */
    static final class IntList
    {
        private int[] values;
        private int size;

        IntList(int capacity)
        {
            values = new int[Math.max(capacity, 16)];
        }

        void add(int value)
        {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        void addAll(long[] source, int count)
        {
            for (int i = 0; i < count; i++) {
                add(toIntExact(source[i]));
            }
        }

        int size()
        {
            return size;
        }

        int get(int index)
        {
            return values[index];
        }

        int[] toArray()
        {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
