package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.lancetrino.file.codec.FsstDecoder;
import io.lancetrino.file.codec.ValueDecoders;
import io.lancetrino.file.codec.VariableOutput;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.codec.ZstdStringChunks;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;
import java.util.function.IntToLongFunction;

import static java.lang.Math.max;
import static java.lang.Math.min;
import static java.lang.Math.toIntExact;

/**
 * Decodes a MiniBlock page of a flat (non-repeated) leaf column. Buffer 0 holds one metadata word per chunk, buffer 1
 * the chunks, buffer 2 the dictionary if there is one. Each chunk starts with a header (level count, def size, one size
 * per value buffer), then the 8-aligned def levels and value buffers. Only chunks overlapping the wanted rows are decoded.
 */
final class MiniBlockPageDecoder
{
    // bounds what a dictionary's count can make the reader allocate when it exceeds the page's items
    private static final long MAX_NARROWED_DICTIONARY_ITEMS = 1 << 22;

    private MiniBlockPageDecoder() {}

    static Block decode(String where, MiniBlockLayout layout, List<Slice> buffers, Type type, int from, int to)
    {
        if (layout.hasRepCompression() || layout.getRepetitionIndexDepth() > 0) {
            throw new UnsupportedLanceEncodingException(where + ": repetition levels (lists) are not decoded");
        }
        if (!PageBlocks.itemLayersOnly(layout.getLayersList())) {
            throw new UnsupportedLanceEncodingException(where + ": rep/def layers " + layout.getLayersList() + " are not decoded");
        }
        int valueBuffers = toIntExact(layout.getNumBuffers());
        // RLE keeps run values and run lengths in two buffers per chunk; everything else decoded here uses one
        if (valueBuffers != (ValueDecoders.isRle(layout.getValueCompression()) ? 2 : 1)) {
            throw new UnsupportedLanceEncodingException(where + ": " + layout.getNumBuffers() + " value buffers per chunk are not decoded");
        }
        boolean hasDef = layout.hasDefCompression();
        boolean dictionary = layout.hasDictionary();
        boolean large = layout.getHasLargeChunk();
        PageBlocks.Kind kind = dictionary ? PageBlocks.Kind.FIXED : PageBlocks.kind(type);
        CompressiveEncoding valueEncoding = layout.getValueCompression();
        if (kind != PageBlocks.Kind.VARIABLE && !dictionary && ValueDecoders.bitsPerValue(valueEncoding) != PageBlocks.storedBits(type)) {
            // reading a column as a type of another width would silently truncate or misread values
            throw new IllegalArgumentException(where + ": %s-bit values cannot be read as %s".formatted(ValueDecoders.bitsPerValue(valueEncoding), type));
        }

        int count = to - from;
        boolean[] nulls = hasDef ? new boolean[count] : null;
        // values of up to 32 bits (32-bit types, dictionary ids) go to Trino as ints, so they are decoded as ints
        int[] ints = kind == PageBlocks.Kind.FIXED && ValueDecoders.bitsPerValue(valueEncoding) <= 32 ? new int[count] : null;
        long[] fixed = kind == PageBlocks.Kind.FIXED && ints == null ? new long[count] : kind == PageBlocks.Kind.FIXED_128 ? new long[count * 2] : null;
        VariableOutput variableOutput = kind == PageBlocks.Kind.VARIABLE ? new VariableOutput(count) : null;
        int[] offsets = kind == PageBlocks.Kind.VARIABLE ? new int[count + 1] : null;

        Slice metadata = buffers.get(0);
        Slice chunks = buffers.get(1);
        int wordBytes = large ? 4 : 2;
        int chunkCount = metadata.length() / wordBytes;
        long items = layout.getNumItems();
        // a page narrowed to some of its chunks keeps the whole page's dictionary, so the dictionary may outnumber the items
        if (items < 0 || items > (long) chunkCount * MiniBlockChunkTable.MAX_CHUNK_VALUES || layout.getNumDictionaryItems() < 0 || layout.getNumDictionaryItems() > Math.max(items, MAX_NARROWED_DICTIONARY_ITEMS)) {
            // a lying count must not size an allocation
            throw new IllegalStateException(where + ": %s items (%s in the dictionary) in %s chunks".formatted(items, layout.getNumDictionaryItems(), chunkCount));
        }
        MiniBlockChunkTable table = MiniBlockChunkTable.of(where, metadata, large, items);
        // from the chunk holding the first wanted item, so every chunk visited holds some of them
        for (int chunk = table.chunkHolding(from); chunk < table.chunks() && table.itemStart(chunk) < to; chunk++) {
            long itemStart = table.itemStart(chunk);
            int values = table.values(chunk);
            Slice data = chunks.slice(table.byteStart(chunk), table.bytes(chunk));
            int first = toIntExact(max(from, itemStart) - itemStart);
            int last = toIntExact(min(to, itemStart + values) - itemStart);
            int out = toIntExact(itemStart + first - from);

            MiniBlockChunk parts = MiniBlockChunk.parse(data, false, hasDef, valueBuffers, large);
            if (hasDef) {
                long[] levels = ValueDecoders.decodeFixed(layout.getDefCompression(), parts.def(), values);
                for (int i = first; i < last; i++) {
                    // def level 0 is valid; anything higher is a null at some layer
                    nulls[out + i - first] = levels[i] != 0;
                }
            }
            Slice valueData = parts.values()[0];
            switch (kind) {
                case FIXED -> {
                    if (ValueDecoders.isRle(valueEncoding) && ints != null) {
                        ValueDecoders.decodeRleInto(valueEncoding, valueData, parts.values()[1], values, first, last, ints, out);
                    }
                    else if (ValueDecoders.isRle(valueEncoding)) {
                        ValueDecoders.decodeRleInto(valueEncoding, valueData, parts.values()[1], values, first, last, fixed, out);
                    }
                    else if (ints != null) {
                        ValueDecoders.decodeFixedInto(valueEncoding, valueData, values, first, last, ints, out);
                    }
                    else {
                        ValueDecoders.decodeFixedInto(valueEncoding, valueData, values, first, last, fixed, out);
                    }
                }
                case FIXED_128 -> System.arraycopy(ValueDecoders.decodeFixed128(valueEncoding, valueData, values), first * 2, fixed, out * 2, (last - first) * 2);
                case VARIABLE -> {
                    if (valueEncoding.hasFsst()) {
                        VariableValues compressed = ValueDecoders.decodeVariable(valueEncoding.getFsst().getValues(), valueData, values);
                        FsstDecoder.of(valueEncoding.getFsst().getSymbolTable()).decompressInto(compressed, first, last, variableOutput, offsets, out, nulls);
                    }
                    else if (nulls != null || first != 0 || last != values || !ZstdStringChunks.appendWhole(valueEncoding, valueData, values, variableOutput, offsets, out)) {
                        variableOutput.append(ValueDecoders.decodeVariable(valueEncoding, valueData, values), first, last, offsets, out, nulls);
                    }
                }
            }
        }
        if (table.items() < to) {
            throw new IllegalStateException(where + ": chunks hold %s items, %s wanted".formatted(table.items(), to));
        }

        Optional<boolean[]> isNull = Optional.ofNullable(nulls);
        if (dictionary) {
            return ints != null ? dictionaryBlock(where, layout, buffers, type, ints, isNull, count) : dictionaryBlock(where, layout, buffers, type, fixed, isNull, count);
        }
        return switch (kind) {
            case FIXED -> ints != null ? PageBlocks.fixed(type, ints, count, isNull) : PageBlocks.fixed(type, fixed, 0, count, isNull);
            case FIXED_128 -> PageBlocks.fixed128((DecimalType) type, fixed, 0, count, isNull);
            case VARIABLE -> PageBlocks.variable(new VariableValues(variableOutput.slice(), offsets), 0, count, isNull);
        };
    }

    /** A block of dictionary ids as longs (nested pages decode them so): checked as longs, then as ints. */
    static Block dictionaryBlock(String where, MiniBlockLayout layout, List<Slice> buffers, Type type, long[] indices, Optional<boolean[]> nulls, int count)
    {
        int items = toIntExact(layout.getNumDictionaryItems());
        int[] ids = new int[count];
        long outOfRange = 0;
        for (int i = 0; i < count; i++) {
            long id = indices[i];
            // an id of 2^32 would wrap into the dictionary as an int
            outOfRange |= nulls.isPresent() && nulls.get()[i] ? 0 : id | (items - 1 - id);
            ids[i] = (int) id;
        }
        if (outOfRange < 0) {
            throw outsideTheDictionary(where, i -> indices[i], nulls, count, items);
        }
        return dictionaryBlock(where, layout, buffers, type, ids, nulls, count);
    }

    /**
     * A block of the page dictionary's values picked by {@code ids}, unsigned values decoded from the page, which
     * becomes the block's own id array (nulls pointed at the null entry appended to the dictionary).
     */
    static Block dictionaryBlock(String where, MiniBlockLayout layout, List<Slice> buffers, Type type, int[] ids, Optional<boolean[]> nulls, int count)
    {
        if (buffers.size() < 3) {
            throw new IllegalStateException(where + ": dictionary page without a dictionary buffer");
        }
        int items = toIntExact(layout.getNumDictionaryItems());
        Slice data = buffers.get(2);
        CompressiveEncoding encoding = layout.getDictionary();
        PageDictionaries.Entry dictionary = PageDictionaries.get(data, () -> switch (PageBlocks.kind(type)) {
            case FIXED -> PageBlocks.fixed(type, ValueDecoders.decodeFixed(encoding, data, items), 0, items, Optional.empty());
            case FIXED_128 -> PageBlocks.fixed128((DecimalType) type, ValueDecoders.decodeFixed128(encoding, data, items), 0, items, Optional.empty());
            case VARIABLE -> PageBlocks.variable(ValueDecoders.decodeVariableBlock(encoding, data, items), 0, items, Optional.empty());
        });
        if (dictionary.dictionary().getPositionCount() != items) {
            throw new IllegalStateException(where + ": dictionary of %s items, %s expected".formatted(dictionary.dictionary().getPositionCount(), items));
        }
        boolean anyNull = false;
        // one check after the loop: an id at least the item count, or at least 2^31 (negative as an int), sets the sign bit
        int outOfRange = 0;
        if (nulls.isEmpty()) {
            for (int i = 0; i < count; i++) {
                outOfRange |= ids[i] | (items - 1 - ids[i]);
            }
        }
        else {
            boolean[] isNull = nulls.get();
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                outOfRange |= isNull[i] ? 0 : id | (items - 1 - id);
                anyNull |= isNull[i];
                ids[i] = isNull[i] ? items : id;
            }
        }
        if (outOfRange < 0) {
            throw outsideTheDictionary(where, i -> Integer.toUnsignedLong(ids[i]), nulls, count, items);
        }
        return anyNull
                ? DictionaryBlock.createProjectedDictionaryBlock(count, dictionary.dictionaryWithNull(), ids, dictionary.idWithNull())
                : DictionaryBlock.createProjectedDictionaryBlock(count, dictionary.dictionary(), ids, dictionary.id());
    }

    private static IllegalStateException outsideTheDictionary(String where, IntToLongFunction id, Optional<boolean[]> nulls, int count, int items)
    {
        for (int i = 0; i < count; i++) {
            if ((nulls.isEmpty() || !nulls.get()[i]) && (id.applyAsLong(i) < 0 || id.applyAsLong(i) >= items)) {
                return new IllegalStateException(where + ": dictionary index %s outside a dictionary of %s items".formatted(id.applyAsLong(i), items));
            }
        }
        throw new IllegalArgumentException("every index is inside the dictionary");
    }
}
