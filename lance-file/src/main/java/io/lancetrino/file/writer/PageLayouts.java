package io.lancetrino.file.writer;

import io.lancetrino.file.proto.encodings.ByteStreamSplit;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.FixedSizeList;
import io.lancetrino.file.proto.encodings.Flat;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.lancetrino.file.proto.encodings.InlineBitpacking;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.lancetrino.file.proto.encodings.Rle;

import java.util.List;

/**
 * Page layouts of flat leaf columns: def levels (0 valid, 1 null) only on pages that hold a null, as Lance writes them.
 */
final class PageLayouts
{
    private PageLayouts() {}

    static CompressiveEncoding inlineBitpacking(int bitsPerValue)
    {
        return CompressiveEncoding.newBuilder().setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bitsPerValue)).build();
    }

    static CompressiveEncoding byteStreamSplit(int bitsPerValue)
    {
        return CompressiveEncoding.newBuilder().setByteStreamSplit(ByteStreamSplit.newBuilder().setValues(flat(bitsPerValue))).build();
    }

    /** Lance's run-length chunks: the runs' values of {@code bitsPerValue} bits, then their lengths in a byte each. */
    static CompressiveEncoding runLengths(int bitsPerValue)
    {
        return CompressiveEncoding.newBuilder().setRle(Rle.newBuilder().setValues(flat(bitsPerValue)).setRunLengths(flat(8))).build();
    }

    static CompressiveEncoding flat(int bitsPerValue)
    {
        return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bitsPerValue)).build();
    }

    static PageLayout miniBlock(long items, boolean hasNulls, CompressiveEncoding values, boolean largeChunks)
    {
        return miniBlock(items, hasNulls, values, largeChunks, null, 0);
    }

    /** A page whose chunks hold {@code valueBuffers} value buffers each. */
    static PageLayout miniBlock(long items, boolean hasNulls, CompressiveEncoding values, boolean largeChunks, int valueBuffers)
    {
        PageLayout layout = miniBlock(items, hasNulls, values, largeChunks, null, 0);
        return layout.toBuilder().setMiniBlockLayout(layout.getMiniBlockLayout().toBuilder().setNumBuffers(valueBuffers)).build();
    }

    /**
     * A full-zip page of fixed-size records and no repetition: each record is its def level (one byte, when the page
     * holds a null) followed by the value's {@code valueBits}.
     */
    static PageLayout fullZip(int items, boolean hasNulls, CompressiveEncoding values, int valueBits)
    {
        FullZipLayout layout = FullZipLayout.newBuilder()
                .setBitsRep(0)
                .setBitsDef(hasNulls ? 1 : 0)
                .setBitsPerValue(valueBits)
                .setNumItems(items)
                .setNumVisibleItems(items)
                .setValueCompression(values)
                .addLayers(hasNulls ? RepDefLayer.REPDEF_NULLABLE_ITEM : RepDefLayer.REPDEF_ALL_VALID_ITEM)
                .build();
        return PageLayout.newBuilder().setFullZipLayout(layout).build();
    }

    /**
     * A full-zip page of variable-width values ({@code values}: plain, or FSST-coded) with lengths of {@code lengthBits}: {@code levels} records, of
     * which {@code items} are items (the rest NULL or empty lists), each led by a control word of {@code repBits} rep
     * and {@code defBits} def bits (none when both are 0).
     */
    static PageLayout fullZipVariable(int levels, int items, int repBits, int defBits, int lengthBits, CompressiveEncoding values, List<RepDefLayer> layers)
    {
        FullZipLayout layout = FullZipLayout.newBuilder()
                .setBitsRep(repBits)
                .setBitsDef(defBits)
                .setBitsPerOffset(lengthBits)
                .setNumItems(levels)
                .setNumVisibleItems(items)
                .setValueCompression(values)
                .addAllLayers(layers)
                .build();
        return PageLayout.newBuilder().setFullZipLayout(layout).build();
    }

    /** Vectors: {@code dimension} values of {@code bitsPerValue} per row, after the row's item bitmap if it has one. */
    static CompressiveEncoding fixedSizeList(int dimension, int bitsPerValue, boolean itemValidity)
    {
        return CompressiveEncoding.newBuilder().setFixedSizeList(FixedSizeList.newBuilder()
                .setItemsPerValue(dimension)
                .setHasValidity(itemValidity)
                .setValues(flat(bitsPerValue))).build();
    }

    /**
     * @param dictionary the encoding of the dictionary buffer (the page's third), or null when the values are plain
     */
    static PageLayout miniBlock(long items, boolean hasNulls, CompressiveEncoding values, boolean largeChunks, CompressiveEncoding dictionary, long dictionaryItems)
    {
        MiniBlockLayout.Builder layout = MiniBlockLayout.newBuilder()
                .setValueCompression(values)
                .addLayers(hasNulls ? RepDefLayer.REPDEF_NULLABLE_ITEM : RepDefLayer.REPDEF_ALL_VALID_ITEM)
                .setNumBuffers(1)
                .setNumItems(items)
                .setHasLargeChunk(largeChunks);
        if (hasNulls) {
            layout.setDefCompression(flat(16));
        }
        if (dictionary != null) {
            layout.setDictionary(dictionary).setNumDictionaryItems(dictionaryItems);
        }
        return PageLayout.newBuilder().setMiniBlockLayout(layout).build();
    }
}
