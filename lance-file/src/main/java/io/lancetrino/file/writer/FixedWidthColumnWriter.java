package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;

import static io.lancetrino.file.writer.PageLayouts.flat;
import static java.util.Objects.requireNonNull;

/**
 * Booleans (1 bit, least significant first), integers, floating point, dates and microsecond timestamps, stored Flat
 * little-endian in chunks of at most 4 KiB of values (4,096 values for booleans and bytes), as Lance's writer sizes them.
 */
final class FixedWidthColumnWriter
        implements ColumnWriter
{
    private static final int CHUNK_VALUE_BYTES = 4096;
    private static final int MAX_CHUNK_VALUES = 4096;

    private final Type type;
    private final int bitsPerValue;
    private final boolean largeChunks;
    private long[] values = new long[1024];
    private boolean[] nulls = new boolean[1024];
    private int count;
    private boolean hasNulls;

    FixedWidthColumnWriter(Type type, boolean largeChunks)
    {
        this.type = requireNonNull(type, "type is null");
        this.bitsPerValue = bitsPerValue(type);
        this.largeChunks = largeChunks;
    }

    static boolean supports(Type type)
    {
        return bitsPerValue(type) > 0;
    }

    private static int bitsPerValue(Type type)
    {
        if (type instanceof BooleanType) {
            return 1;
        }
        if (type instanceof TinyintType) {
            return 8;
        }
        if (type instanceof SmallintType) {
            return 16;
        }
        if (type instanceof IntegerType || type instanceof RealType || type instanceof DateType) {
            return 32;
        }
        if (type instanceof BigintType || type instanceof DoubleType || (type instanceof TimestampType timestamp && timestamp.isShort())) {
            return 64;
        }
        return 0;
    }

    @Override
    public void append(Block block)
    {
        int positions = block.getPositionCount();
        ensureCapacity(count + positions);
        for (int position = 0; position < positions; position++) {
            if (block.isNull(position)) {
                nulls[count] = true;
                values[count] = 0;
                hasNulls = true;
            }
            else {
                nulls[count] = false;
                values[count] = rawValue(block, position);
            }
            count++;
        }
    }

    private long rawValue(Block block, int position)
    {
        if (type instanceof BooleanType) {
            return BooleanType.BOOLEAN.getBoolean(block, position) ? 1 : 0;
        }
        if (type instanceof DoubleType) {
            return Double.doubleToRawLongBits(DoubleType.DOUBLE.getDouble(block, position));
        }
        // REAL's long is its float's bits; timestamps up to microseconds are epoch microseconds
        return type.getLong(block, position);
    }

    @Override
    public long bufferedRows()
    {
        return count;
    }

    @Override
    public long bufferedBytes()
    {
        return (long) count * Math.max(1, bitsPerValue / 8) + (hasNulls ? 2L * count : 0);
    }

    @Override
    public EncodedPage flush()
    {
        int perChunk = bitsPerValue == 1 ? MAX_CHUNK_VALUES : Math.min(MAX_CHUNK_VALUES, CHUNK_VALUE_BYTES * 8 / bitsPerValue);
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, hasNulls);
        for (int start = 0; start < count; start += perChunk) {
            int values = Math.min(perChunk, count - start);
            boolean last = start + perChunk >= count;
            chunks.addChunk(values, hasNulls ? DefLevels.of(nulls, start, values) : null, encodeValues(start, values), last);
        }
        EncodedPage page = new EncodedPage(count, List.of(chunks.metadata(), chunks.chunks()), PageLayouts.miniBlock(count, hasNulls, flat(bitsPerValue), largeChunks));
        count = 0;
        hasNulls = false;
        return page;
    }

    private Slice encodeValues(int start, int length)
    {
        if (bitsPerValue == 1) {
            byte[] bits = new byte[(length + 7) / 8];
            for (int i = 0; i < length; i++) {
                if (values[start + i] != 0) {
                    bits[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
            return Slices.wrappedBuffer(bits);
        }
        int bytes = bitsPerValue / 8;
        Slice slice = Slices.allocate(length * bytes);
        for (int i = 0; i < length; i++) {
            long value = values[start + i];
            switch (bytes) {
                case 1 -> slice.setByte(i, (int) value);
                case 2 -> slice.setShort(i * 2, (int) value);
                case 4 -> slice.setInt(i * 4, (int) value);
                default -> slice.setLong(i * 8, value);
            }
        }
        return slice;
    }

    private void ensureCapacity(int capacity)
    {
        if (capacity > values.length) {
            int size = Math.max(capacity, values.length * 2);
            values = Arrays.copyOf(values, size);
            nulls = Arrays.copyOf(nulls, size);
        }
    }
}
