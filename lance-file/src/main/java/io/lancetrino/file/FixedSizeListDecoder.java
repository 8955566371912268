package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.lancetrino.file.codec.ValueDecoders;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.FixedSizeList;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import static java.lang.Math.max;
import static java.lang.Math.min;
import static java.lang.Math.toIntExact;

/**
 * Decodes pages of a fixed-size list of fixed-width values (vectors, Arrow {@code FixedSizeList<float32>} and the
 * like) into Trino {@code array(element)} blocks. Lance stores such a list as one leaf column whose value encoding is
 * {@code FixedSizeList(items_per_value, Flat(bits))}: the dimension's values of a row back to back, preceded (when the
 * items are nullable) by an LSB-first validity bitmap of the row's items. A null row is a def level and keeps its
 * (zeroed) values in the page. Narrow vectors (under 256 bytes) sit in MiniBlock chunks, with the item bitmap of the
 * whole chunk as a buffer of its own in front of the values; wider ones in FullZip pages of fixed-size records
 * (def level byte, item bitmap, values) without a record index, so only the wanted records are read. The element block wraps one bulk copy of the values;
 * null rows are left out of it, as Trino wants null arrays empty.
 */
final class FixedSizeListDecoder
{

    private FixedSizeListDecoder() {}

    /** Whether the page's values are fixed-size lists, which this class (and only it) decodes. */
    static boolean isFixedSizeList(PageLayout layout)
    {
        return switch (layout.getLayoutCase()) {
            case MINI_BLOCK_LAYOUT -> layout.getMiniBlockLayout().getValueCompression().hasFixedSizeList();
            case FULL_ZIP_LAYOUT -> layout.getFullZipLayout().getValueCompression().hasFixedSizeList();
            default -> false;
        };
    }

    /**
     * Decodes rows {@code [from, to)} of a page. A FullZip page of vectors has fixed-size records, so only the
     * wanted records are read, not the whole page (up to 32 MiB).
     */
    static Block decode(String where, TrinoInput input, LancePage page, Type type, int from, int to)
            throws IOException
    {
        PageLayout layout = page.layout();
        return switch (layout.getLayoutCase()) {
            case MINI_BLOCK_LAYOUT -> decodeMiniBlock(where, layout.getMiniBlockLayout(), LanceColumnReader.readBuffers(input, page), type, from, to);
            case FULL_ZIP_LAYOUT -> decodeFullZip(where, layout.getFullZipLayout(), input, page, type, from, to);
            default -> throw new UnsupportedLanceEncodingException(where + ": fixed-size lists in " + layout.getLayoutCase());
        };
    }

    /** The shape of the vectors of a page, checked against the Trino type they are read as. */
    private record Shape(int dimension, int elementBytes, boolean itemValidity, Type elementType)
    {
        int valueBytes()
        {
            return dimension * elementBytes;
        }

        int validityBytes()
        {
            return itemValidity ? (dimension + 7) / 8 : 0;
        }
    }

    private static Shape shape(String where, CompressiveEncoding encoding, Type type)
    {
        FixedSizeList list = encoding.getFixedSizeList();
        CompressiveEncoding items = list.getValues();
        if (!items.hasFlat() || items.getFlat().hasData()) {
            // nested fixed-size lists, or items with a compression of their own
            throw new UnsupportedLanceEncodingException(where + ": fixed-size list items encoded as " + items.getCompressionCase() + (items.hasFlat() ? " with buffer compression" : ""));
        }
        int bits = toIntExact(items.getFlat().getBitsPerValue());
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
            throw new UnsupportedLanceEncodingException(where + ": fixed-size list items of " + bits + " bits");
        }
        if (!(type instanceof ArrayType arrayType)) {
            throw new UnsupportedLanceEncodingException(where + ": fixed-size list read as " + type);
        }
        Type element = arrayType.getElementType();
        // only the fixed-width types whose Trino values are the stored bits as they are
        if (element == BooleanType.BOOLEAN || PageBlocks.kind(element) != PageBlocks.Kind.FIXED) {
            throw new UnsupportedLanceEncodingException(where + ": fixed-size list of " + element + " is not decoded");
        }
        if (PageBlocks.storedBits(element) != bits) {
            throw new IllegalArgumentException(where + ": fixed-size list of %s-bit values cannot be read as %s".formatted(bits, type));
        }
        long dimension = list.getItemsPerValue();
        if (dimension <= 0 || dimension > Integer.MAX_VALUE / 8) {
            throw new UnsupportedLanceEncodingException(where + ": fixed-size list of " + dimension + " items");
        }
        return new Shape(toIntExact(dimension), bits / 8, list.getHasValidity(), element);
    }

    private static Block decodeMiniBlock(String where, MiniBlockLayout layout, List<Slice> buffers, Type type, int from, int to)
    {
        if (layout.hasRepCompression() || layout.getRepetitionIndexDepth() > 0) {
            throw new UnsupportedLanceEncodingException(where + ": repetition levels (lists) are not decoded");
        }
        if (!PageBlocks.itemLayersOnly(layout.getLayersList())) {
            throw new UnsupportedLanceEncodingException(where + ": rep/def layers " + layout.getLayersList() + " are not decoded");
        }
        if (layout.hasDictionary()) {
            throw new UnsupportedLanceEncodingException(where + ": dictionary of fixed-size lists is not decoded");
        }
        Shape shape = shape(where, layout.getValueCompression(), type);
        // the item bitmap is a value buffer of its own, in front of the values
        int valueBuffers = toIntExact(layout.getNumBuffers());
        if (valueBuffers != (shape.itemValidity() ? 2 : 1)) {
            throw new UnsupportedLanceEncodingException(where + ": " + valueBuffers + " value buffers per chunk of fixed-size lists");
        }
        boolean hasDef = layout.hasDefCompression();
        boolean large = layout.getHasLargeChunk();
        int wordBytes = large ? 4 : 2;

        VectorBuilder builder = new VectorBuilder(shape, to - from, hasDef);
        Slice metadata = buffers.get(0);
        Slice chunks = buffers.get(1);
        int chunkCount = metadata.length() / wordBytes;
        long items = layout.getNumItems();
        long itemStart = 0;
        int chunkPosition = 0;
        for (int chunk = 0; chunk < chunkCount && itemStart < to; chunk++) {
            long word = large ? metadata.getUnsignedInt(chunk * 4) : metadata.getUnsignedShort(chunk * 2);
            int chunkBytes = MiniBlockChunk.chunkBytes(word);
            // the last chunk records no count: it holds whatever rows remain
            int rows = chunk == chunkCount - 1 ? toIntExact(items - itemStart) : 1 << (int) (word & 0xF);
            long chunkEnd = itemStart + rows;
            if (chunkEnd > from) {
                Slice data = chunks.slice(chunkPosition, chunkBytes);
                int first = toIntExact(max(from, itemStart) - itemStart);
                int last = toIntExact(min(to, chunkEnd) - itemStart);
                MiniBlockChunk parts = MiniBlockChunk.parse(data, false, hasDef, valueBuffers, large);
                long[] levels = hasDef ? ValueDecoders.decodeFixed(layout.getDefCompression(), parts.def(), rows) : null;
                Slice validity = shape.itemValidity() ? parts.values()[0] : null;
                Slice values = parts.values()[valueBuffers - 1];
                int row = first;
                while (row < last) {
                    if (levels != null && levels[row] != 0) {
                        // def level above 0: the row (or an enclosing struct) is null
                        builder.appendNull();
                        row++;
                        continue;
                    }
                    int run = row + 1;
                    while (run < last && (levels == null || levels[run] == 0)) {
                        run++;
                    }
                    builder.appendVectors(values, row * shape.valueBytes(), validity, (long) row * shape.dimension(), run - row);
                    row = run;
                }
            }
            chunkPosition += chunkBytes;
            itemStart = chunkEnd;
        }
        if (itemStart < to) {
            throw new IllegalStateException(where + ": chunks hold %s items, %s wanted".formatted(itemStart, to));
        }
        return builder.build();
    }

    private static Block decodeFullZip(String where, FullZipLayout layout, TrinoInput input, LancePage page, Type type, int from, int to)
            throws IOException
    {
        if (layout.getBitsRep() != 0) {
            throw new UnsupportedLanceEncodingException(where + ": repetition levels (lists) are not decoded");
        }
        if (!PageBlocks.itemLayersOnly(layout.getLayersList())) {
            throw new UnsupportedLanceEncodingException(where + ": rep/def layers " + layout.getLayersList() + " are not decoded");
        }
        Shape shape = shape(where, layout.getValueCompression(), type);
        int recordBits = 8 * (shape.validityBytes() + shape.valueBytes());
        if (layout.getDetailsCase() != FullZipLayout.DetailsCase.BITS_PER_VALUE || layout.getBitsPerValue() != recordBits) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip fixed-size list records of %s (%s bits expected)".formatted(
                    layout.getDetailsCase() == FullZipLayout.DetailsCase.BITS_PER_VALUE ? layout.getBitsPerValue() + " bits" : layout.getDetailsCase(), recordBits));
        }
        int controlBytes = (toIntExact(layout.getBitsDef()) + 7) / 8;
        int validityBytes = shape.validityBytes();
        int stride = controlBytes + recordBits / 8;
        if (page.bufferSizes().isEmpty() || page.bufferSizes().getFirst() < (long) to * stride) {
            throw new IllegalStateException(where + ": FullZip buffer of %s bytes holds no %s records of %s bytes".formatted(page.bufferSizes(), to, stride));
        }
        int count = to - from;
        // no record index for fixed-size records: record i starts at i * stride
        Slice data = input.readFully(page.bufferPositions().getFirst() + (long) from * stride, toIntExact((long) count * stride));
        VectorBuilder builder = new VectorBuilder(shape, count, controlBytes > 0);
        if (controlBytes == 0 && validityBytes == 0) {
            // nothing but the values, back to back: one copy
            builder.appendVectors(data, 0, null, 0, count);
            return builder.build();
        }
        int position = 0;
        for (int i = 0; i < count; i++) {
            if (controlBytes > 0 && readUnsigned(data, position, controlBytes) != 0) {
                builder.appendNull();
            }
            else {
                int bitmap = position + controlBytes;
                builder.appendVectors(data, bitmap + validityBytes, validityBytes > 0 ? data : null, bitmap * 8L, 1);
            }
            position += stride;
        }
        return builder.build();
    }

    private static long readUnsigned(Slice slice, int position, int bytes)
    {
        return switch (bytes) {
            case 1 -> slice.getUnsignedByte(position);
            case 2 -> slice.getUnsignedShort(position);
            case 4 -> slice.getUnsignedInt(position);
            default -> throw new UnsupportedLanceEncodingException("FullZip control words of " + bytes + " bytes");
        };
    }

    /** Collects rows of vectors into one element array (of the element type's Java width) plus offsets and nulls. */
    private static final class VectorBuilder
    {
        private final Shape shape;
        private final int rows;
        private final int[] offsets;
        private final long[] rowValid;
        private final long[] itemValid;
        private byte[] bytes;
        private short[] shorts;
        private int[] ints;
        private long[] longs;
        private int row;
        private int elements;
        private boolean anyRowNull;
        private boolean anyItemNull;

        VectorBuilder(Shape shape, int rows, boolean nullableRows)
        {
            this.shape = shape;
            this.rows = rows;
            long capacity = (long) rows * shape.dimension();
            if (capacity > Integer.MAX_VALUE - 16) {
                throw new UnsupportedLanceEncodingException("%s vectors of %s items are more than a block holds".formatted(rows, shape.dimension()));
            }
            int size = toIntExact(capacity);
            switch (shape.elementBytes()) {
                case 1 -> bytes = new byte[size];
                case 2 -> shorts = new short[size];
                case 4 -> ints = new int[size];
                default -> longs = new long[size];
            }
            offsets = new int[rows + 1];
            rowValid = nullableRows ? new long[(rows + 63) >>> 6] : null;
            itemValid = shape.itemValidity() ? new long[(size + 63) >>> 6] : null;
        }

        void appendNull()
        {
            anyRowNull = true;
            row++;
            offsets[row] = elements;
        }

        /**
         * Appends {@code count} vectors whose values start at {@code position} of {@code values}, their item bits (if
         * items are nullable) at bit {@code validityBit} of {@code validity}.
         */
        void appendVectors(Slice values, int position, Slice validity, long validityBit, int count)
        {
            int items = count * shape.dimension();
            if (itemValid != null) {
                copyBits(validity, validityBit, items);
            }
            switch (shape.elementBytes()) {
                case 1 -> values.getBytes(position, bytes, elements, items);
                case 2 -> values.getShorts(position, shorts, elements, items);
                case 4 -> values.getInts(position, ints, elements, items);
                default -> values.getLongs(position, longs, elements, items);
            }
            for (int i = 0; i < count; i++) {
                if (rowValid != null) {
                    rowValid[row >>> 6] |= 1L << (row & 63);
                }
                elements += shape.dimension();
                row++;
                offsets[row] = elements;
            }
        }

        private void copyBits(Slice validity, long bit, int items)
        {
            // eight bits at a time: vectors hold hundreds of items, nearly always all valid
            int i = 0;
            for (; i + 8 <= items; i += 8, bit += 8) {
                int index = toIntExact(bit >>> 3);
                int shift = (int) (bit & 7);
                int eight = (validity.getByte(index) & 0xFF) >>> shift;
                if (shift != 0) {
                    eight |= (validity.getByte(index + 1) & 0xFF) << (8 - shift);
                }
                long value = eight & 0xFF;
                if (value != 0xFF) {
                    anyItemNull = true;
                }
                int target = elements + i;
                int offset = target & 63;
                itemValid[target >>> 6] |= value << offset;
                if (offset > 56) {
                    itemValid[(target >>> 6) + 1] |= value >>> (64 - offset);
                }
            }
            for (; i < items; i++, bit++) {
                int target = elements + i;
                if ((validity.getByte(toIntExact(bit >>> 3)) & (1 << (bit & 7))) != 0) {
                    itemValid[target >>> 6] |= 1L << (target & 63);
                }
                else {
                    anyItemNull = true;
                }
            }
        }

        Block build()
        {
            if (row != rows) {
                throw new IllegalStateException("%s of %s vectors decoded".formatted(row, rows));
            }
            Optional<long[]> itemNulls = anyItemNull ? Optional.of(itemValid) : Optional.empty();
            Block elementBlock = switch (shape.elementBytes()) {
                case 1 -> new ByteArrayBlock(elements, itemNulls, bytes);
                case 2 -> new ShortArrayBlock(elements, itemNulls, shorts);
                case 4 -> new IntArrayBlock(elements, itemNulls, ints);
                default -> new LongArrayBlock(elements, itemNulls, longs);
            };
            return ArrayBlock.fromElementBlock(rows, anyRowNull ? Optional.of(rowValid) : Optional.empty(), offsets, elementBlock);
        }
    }
}
