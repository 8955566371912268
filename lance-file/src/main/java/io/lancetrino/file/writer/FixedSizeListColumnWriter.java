package io.lancetrino.file.writer;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import static io.airlift.slice.SizeOf.sizeOf;
import static java.util.Objects.requireNonNull;

/**
 * Vectors: an {@code array} of integers or floating point stored as a Lance fixed-size list of {@code dimension}
 * values per row, one leaf column with a {@code FixedSizeList(dimension, Flat)} value encoding. A null row is a def
 * level and keeps zeroed values; null items (only when a page has any) are an LSB-first bitmap, 1 for a value. Vectors
 * under 256 bytes go in mini-block chunks of about 4 KiB (the bitmap a buffer of its own in front of the values), as
 * Lance writes them; wider ones in a full-zip page of fixed-size records (def level, bitmap, values), which a reader
 * can index by row without a record index. Embeddings rarely shrink under zstd, so no general compression is tried.
 */
final class FixedSizeListColumnWriter
        implements ColumnWriter
{
    // Lance keeps values of this many bytes and more out of mini-block chunks
    private static final int MINI_BLOCK_MAX_VALUE_BYTES = 256;
    private static final int CHUNK_BYTES = 4096;
    private static final int MAX_CHUNK_VALUES = 4096;

    private final ArrayType type;
    private final Type element;
    private final int dimension;
    private final int elementBytes;
    private final boolean largeChunks;
    private final DynamicSliceOutput values = new DynamicSliceOutput(64 * 1024);
    private final BitSet itemNulls = new BitSet();
    private boolean[] rowNulls = new boolean[1024];
    private int rows;
    private boolean anyRowNull;

    FixedSizeListColumnWriter(Type type, int dimension, boolean largeChunks)
    {
        if (!supports(type, dimension)) {
            throw new IllegalArgumentException("Vectors of %s elements of %s are not written".formatted(dimension, type));
        }
        this.type = (ArrayType) requireNonNull(type, "type is null");
        this.element = this.type.getElementType();
        this.dimension = dimension;
        this.elementBytes = elementBytes(element);
        this.largeChunks = largeChunks;
    }

    static boolean supports(Type type, int dimension)
    {
        return dimension > 0 && type instanceof ArrayType array && elementBytes(array.getElementType()) > 0
                && (long) dimension * elementBytes(array.getElementType()) * 8 <= Integer.MAX_VALUE;
    }

    private static int elementBytes(Type element)
    {
        return switch (element) {
            case TinyintType _ -> 1;
            case SmallintType _ -> 2;
            case IntegerType _, RealType _ -> 4;
            case BigintType _, DoubleType _ -> 8;
            default -> 0;
        };
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        if (nullStructDepth != null) {
            throw new IllegalArgumentException("Vectors inside structs are not written");
        }
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (rows == rowNulls.length) {
                rowNulls = Arrays.copyOf(rowNulls, rows * 2);
            }
            if (block.isNull(position)) {
                rowNulls[rows] = true;
                anyRowNull = true;
                values.writeZero(dimension * elementBytes);
            }
            else {
                rowNulls[rows] = false;
                appendVector(type.getObject(block, position));
            }
            rows++;
        }
    }

    private void appendVector(Block items)
    {
        if (items.getPositionCount() != dimension) {
            throw new IllegalArgumentException("A vector of %s elements in a column of dimension %s".formatted(items.getPositionCount(), dimension));
        }
        if (!items.mayHaveNull() && appendRaw(items)) {
            return;
        }
        long firstItem = (long) rows * dimension;
        for (int i = 0; i < dimension; i++) {
            if (items.isNull(i)) {
                itemNulls.set(Math.toIntExact(firstItem + i));
                values.writeZero(elementBytes);
                continue;
            }
            switch (elementBytes) {
                case 1 -> values.writeByte((int) element.getLong(items, i));
                case 2 -> values.writeShort((int) element.getLong(items, i));
                // a real's long is its float's bits
                case 4 -> values.writeInt((int) element.getLong(items, i));
                default -> values.writeLong(element instanceof DoubleType ? Double.doubleToRawLongBits(element.getDouble(items, i)) : element.getLong(items, i));
            }
        }
    }

    /** Copies the values of a vector without nulls in bulk, where the block keeps them as an array of the stored width. */
    private boolean appendRaw(Block items)
    {
        switch (items) {
            case ByteArrayBlock bytes when elementBytes == 1 -> values.writeBytes(bytes.getRawValues(), bytes.getRawValuesOffset(), dimension);
            case ShortArrayBlock shorts when elementBytes == 2 -> values.writeShorts(shorts.getRawValues(), shorts.getRawValuesOffset(), dimension);
            // reals are ints of their bits
            case IntArrayBlock ints when elementBytes == 4 -> values.writeInts(ints.getRawValues(), ints.getRawValuesOffset(), dimension);
            // doubles are longs of their bits
            case LongArrayBlock longs when elementBytes == 8 -> values.writeLongs(longs.getRawValues(), longs.getRawValuesOffset(), dimension);
            default -> {
                return false;
            }
        }
        return true;
    }

    @Override
    public long retainedBytes()
    {
        return values.getRetainedSize() + sizeOf(rowNulls) + itemNulls.size() / 8;
    }

    @Override
    public long bufferedRows()
    {
        return rows;
    }

    @Override
    public long bufferedBytes()
    {
        return values.size() + (itemNulls.isEmpty() ? 0 : (long) rows * dimension / 8);
    }

    @Override
    public EncodedPage flush()
    {
        int rowBytes = dimension * elementBytes;
        boolean itemValidity = !itemNulls.isEmpty();
        Slice data = values.slice();
        EncodedPage page = rowBytes < MINI_BLOCK_MAX_VALUE_BYTES ? miniBlock(data, rowBytes, itemValidity) : fullZip(data, rowBytes, itemValidity);
        values.reset();
        itemNulls.clear();
        rows = 0;
        anyRowNull = false;
        return page;
    }

    private EncodedPage miniBlock(Slice data, int rowBytes, boolean itemValidity)
    {
        int rowsPerChunk = Math.min(MAX_CHUNK_VALUES, Integer.highestOneBit(Math.max(1, CHUNK_BYTES / rowBytes)));
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, rows, anyRowNull ? rowNulls : null);
        for (int start = 0; start < rows; start += rowsPerChunk) {
            int count = Math.min(rowsPerChunk, rows - start);
            Slice chunkValues = data.slice(start * rowBytes, count * rowBytes);
            chunks.addChunk(count, itemValidity ? List.of(validity(start, count), chunkValues) : List.of(chunkValues));
        }
        return chunks.page(PageLayouts.fixedSizeList(dimension, elementBytes * 8, itemValidity), itemValidity ? 2 : 1);
    }

    private EncodedPage fullZip(Slice data, int rowBytes, boolean itemValidity)
    {
        int controlBytes = anyRowNull ? 1 : 0;
        int validityBytes = itemValidity ? (dimension + 7) / 8 : 0;
        int stride = controlBytes + validityBytes + rowBytes;
        Slice records;
        if (stride == rowBytes) {
            records = data;
        }
        else {
            records = Slices.allocate(Math.multiplyExact(rows, stride));
            for (int row = 0; row < rows; row++) {
                int position = row * stride;
                if (controlBytes > 0) {
                    records.setByte(position, rowNulls[row] ? 1 : 0);
                }
                if (itemValidity) {
                    records.setBytes(position + controlBytes, validity(row, 1));
                }
                records.setBytes(position + controlBytes + validityBytes, data, row * rowBytes, rowBytes);
            }
        }
        return new EncodedPage(rows, List.of(records), PageLayouts.fullZip(rows, anyRowNull, PageLayouts.fixedSizeList(dimension, elementBytes * 8, itemValidity), 8 * (validityBytes + rowBytes)));
    }

    /** The item bitmap of {@code count} rows from {@code firstRow}: bit set for a value, clear for a null item. */
    private Slice validity(int firstRow, int count)
    {
        int items = count * dimension;
        byte[] bits = new byte[(items + 7) / 8];
        int first = firstRow * dimension;
        for (int i = 0; i < items; i++) {
            if (!itemNulls.get(first + i)) {
                bits[i >>> 3] |= (byte) (1 << (i & 7));
            }
        }
        return Slices.wrappedBuffer(bits);
    }
}
