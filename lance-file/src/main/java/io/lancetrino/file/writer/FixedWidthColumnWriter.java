package io.lancetrino.file.writer;

import io.trino.spi.block.Block;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;

import java.util.Arrays;

import static io.airlift.slice.SizeOf.sizeOf;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.util.Objects.requireNonNull;

/**
 * Booleans (1 bit, least significant first), integers, floating point, dates, times and timestamps (with or without
 * zone, up to nanoseconds, in the unit the connector stores them in), buffered as longs (raw bits for floating point)
 * until a page is encoded by {@link FixedWidthPageEncoder}.
 */
final class FixedWidthColumnWriter
        implements ColumnWriter
{
    private final Type type;
    private final int bitsPerValue;
    private final long divisor;
    private final FixedWidthPageEncoder encoder;
    private final StructNesting nesting;
    private final boolean largeChunks;
    private final boolean constantPages;
    private long[] values = new long[1024];
    private boolean[] nulls = new boolean[1024];
    private int count;
    private boolean hasNulls;

    /**
     * @param nesting the def levels of a leaf inside structs, or null at the top level
     * @param constantPages whether a page of only NULLs or of one value may be a constant page (a top-level column's)
     * @param maxChunkValues the most values a chunk holds (fewer for a list's items in format 2.1, whose levels share the chunk)
     */
    FixedWidthColumnWriter(Type type, boolean largeChunks, GeneralCompressor compressor, StructNesting nesting, boolean constantPages, int maxChunkValues)
    {
        this.nesting = nesting;
        this.largeChunks = largeChunks;
        this.constantPages = constantPages;
        this.type = requireNonNull(type, "type is null");
        this.bitsPerValue = bitsPerValue(type);
        this.divisor = unitDivisor(type);
        this.encoder = new FixedWidthPageEncoder(bitsPerValue, largeChunks, compressor, maxChunkValues);
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
        if (type instanceof IntegerType || type instanceof RealType || type instanceof DateType || (type instanceof TimeType time && time.getPrecision() <= 3)) {
            return 32;
        }
        // Arrow has no unit finer than nanoseconds
        if (type instanceof BigintType || type instanceof DoubleType || (type instanceof TimestampType timestamp && timestamp.getPrecision() <= 9)
                || (type instanceof TimestampWithTimeZoneType zoned && zoned.getPrecision() <= 9) || (type instanceof TimeType time && time.getPrecision() <= 9)) {
            return 64;
        }
        return 0;
    }

    /**
     * What a Trino value of the type is divided by to give the value in the Arrow unit the connector stores the type in
     * (the coarsest that holds its precision: seconds, milliseconds, microseconds, nanoseconds). Exact, as Trino
     * keeps values rounded to their precision.
     */
    private static long unitDivisor(Type type)
    {
        return switch (type) {
            // epoch microseconds (long timestamps are scaled up instead)
            case TimestampType timestamp -> timestamp.getPrecision() == 0 ? 1_000_000 : timestamp.getPrecision() <= 3 ? 1_000 : 1;
            // epoch milliseconds, once unpacked (long ones are scaled up instead)
            case TimestampWithTimeZoneType zoned -> zoned.getPrecision() == 0 ? 1_000 : 1;
            // picoseconds of the day
            case TimeType time -> time.getPrecision() == 0 ? 1_000_000_000_000L : time.getPrecision() <= 3 ? 1_000_000_000 : time.getPrecision() <= 6 ? 1_000_000 : 1_000;
            default -> 1;
        };
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        // every page of a leaf inside structs has def levels, so all its pages have the same layers
        hasNulls |= nesting != null;
        int positions = block.getPositionCount();
        ensureCapacity(count + positions);
        for (int position = 0; position < positions; position++) {
            if (nesting == null ? block.isNull(position) : nesting.record(count, block, position, nullStructDepth)) {
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
        if (type instanceof TimestampType timestamp && !timestamp.isShort()) {
            // nanoseconds from epoch microseconds and picoseconds of the microsecond
            LongTimestamp value = (LongTimestamp) type.getObject(block, position);
            return scaleAndAdd(value.getEpochMicros(), 1_000, value.getPicosOfMicro() / 1_000, type);
        }
        if (type instanceof TimestampWithTimeZoneType zoned && !zoned.isShort()) {
            // microseconds or nanoseconds from epoch milliseconds and picoseconds of the millisecond
            LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) type.getObject(block, position);
            return zoned.getPrecision() <= 6
                    ? scaleAndAdd(value.getEpochMillis(), 1_000, value.getPicosOfMilli() / 1_000_000, type)
                    : scaleAndAdd(value.getEpochMillis(), 1_000_000, value.getPicosOfMilli() / 1_000, type);
        }
        if (type instanceof TimestampWithTimeZoneType) {
            return unpackMillisUtc(type.getLong(block, position)) / divisor;
        }
        // REAL's long is its float's bits
        return type.getLong(block, position) / divisor;
    }

    /**
     * {@code value * factor + fraction}; a value past the unit's range (nanoseconds end in 2262) cannot be stored, and
     * fails the write before anything is committed.
     */
    private static long scaleAndAdd(long value, long factor, long fraction, Type type)
    {
        try {
            return TimeUnits.scaleAndAdd(value, factor, fraction);
        }
        catch (ArithmeticException e) {
            throw new IllegalArgumentException("A %s value is out of the range of the unit Lance stores it in (nanoseconds reach 2262-04-11, microseconds year 294247): %s x %s + %s overflows 64 bits"
                    .formatted(type, value, factor, fraction), e);
        }
    }

    @Override
    public long retainedBytes()
    {
        return sizeOf(values) + sizeOf(nulls) + (nesting == null ? 0 : nesting.retainedBytes());
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
        EncodedPage page = constantPages ? constantPage() : null;
        if (page == null) {
            page = encoder.encode(values, nulls, hasNulls, count);
            if (nesting != null) {
                page = nesting.apply(page, count);
            }
        }
        count = 0;
        hasNulls = false;
        return page;
    }

    /** The page as a constant page, or null: all NULL, or (format 2.2) one value throughout. */
    private EncodedPage constantPage()
    {
        if (hasNulls) {
            return ConstantPages.allNull(nulls, count) ? ConstantPages.allNull(count) : null;
        }
        if (!largeChunks || count == 0) {
            return null;
        }
        long first = values[0];
        for (int i = 1; i < count; i++) {
            if (values[i] != first) {
                return null;
            }
        }
        return ConstantPages.constant(count, ConstantPages.littleEndian(first, Math.max(1, bitsPerValue / 8)));
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
