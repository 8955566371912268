package io.lancetrino.sdk.arrow;

import io.lancetrino.file.writer.TimeUnits;
import io.lancetrino.split.arrow.ArrowTypes;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Fixed12Block;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

import static io.lancetrino.sdk.arrow.ArrowWriters.unsupported;
import static io.lancetrino.sdk.arrow.NumericWriters.nullAt;
import static io.trino.spi.StandardErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.lang.Math.floorDiv;
import static java.lang.String.format;

/**
 * TIME into Time32/Time64 and TIMESTAMP [WITH TIME ZONE] into Timestamp vectors. A Trino type is only written into a
 * unit with at least its precision, so no value is rounded; zoned values are written as UTC instants, whatever zone
 * the Arrow type names.
 */
final class TemporalWriters
{
    private static final long[] POWERS_OF_TEN = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
            100_000_000L, 1_000_000_000L, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L};

    private TemporalWriters() {}

    static void write(BaseFixedWidthVector vector, Type type, WriteSource source)
    {
        int count = source.count();
        boolean nullable = vector.getField().isNullable();
        vector.allocateNew(count);
        switch (vector) {
            case TimeSecVector _ -> time(vector, type, source, nullable, 0);
            case TimeMilliVector _ -> time(vector, type, source, nullable, 3);
            case TimeMicroVector _ -> time(vector, type, source, nullable, 6);
            case TimeNanoVector _ -> time(vector, type, source, nullable, 9);
            case TimeStampVector timestamps -> timestamp(timestamps, type, source, nullable);
            default -> throw unsupported(type, vector);
        }
        vector.setValueCount(count);
    }

    // TIME(p) is picoseconds of the day
    private static void time(BaseFixedWidthVector vector, Type type, WriteSource source, boolean nullable, int digits)
    {
        if (!(type instanceof TimeType timeType) || timeType.getPrecision() > digits) {
            throw unsupported(type, vector);
        }
        LongArrayBlock values = source.block(LongArrayBlock.class, type, vector);
        long divisor = POWERS_OF_TEN[12 - digits];
        boolean wide = vector.getTypeWidth() == Long.BYTES;
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            long value = values.getLong(source.position(i)) / divisor;
            if (wide) {
                data.setLong(i * 8L, value);
            }
            else {
                data.setInt(i * 4L, (int) value);
            }
            vector.setIndexDefined(i);
        }
    }

    private static void timestamp(TimeStampVector vector, Type type, WriteSource source, boolean nullable)
    {
        ArrowType.Timestamp arrowType = (ArrowType.Timestamp) vector.getField().getType();
        int digits = ArrowTypes.digits(arrowType.getUnit());
        boolean zoned = arrowType.getTimezone() != null;
        ArrowBuf data = vector.getDataBuffer();
        int count = source.count();
        switch (type) {
            case TimestampType timestampType when !zoned && timestampType.getPrecision() <= digits && timestampType.isShort() -> {
                // epoch microseconds
                LongArrayBlock values = source.block(LongArrayBlock.class, type, vector);
                if (digits == 6) {
                    NumericWriters.longs(vector, values, source, nullable);
                    return;
                }
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        nullAt(vector, source, nullable, i);
                        continue;
                    }
                    data.setLong(i * 8L, rescale(values.getLong(source.position(i)), 6, digits, vector));
                    vector.setIndexDefined(i);
                }
            }
            case TimestampType timestampType when !zoned && timestampType.getPrecision() <= digits -> {
                // epoch microseconds and picoseconds of the microsecond
                Fixed12Block values = source.block(Fixed12Block.class, type, vector);
                long picosPerUnit = POWERS_OF_TEN[12 - digits];
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        nullAt(vector, source, nullable, i);
                        continue;
                    }
                    int position = source.position(i);
                    long micros = values.getFixed12First(position);
                    int picos = values.getFixed12Second(position);
                    data.setLong(i * 8L, scaleAndAdd(micros, POWERS_OF_TEN[digits - 6], picos / picosPerUnit, vector));
                    vector.setIndexDefined(i);
                }
            }
            case TimestampWithTimeZoneType zonedType when zoned && zonedType.getPrecision() <= digits && zonedType.isShort() -> {
                // epoch milliseconds packed with the zone
                LongArrayBlock values = source.block(LongArrayBlock.class, type, vector);
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        nullAt(vector, source, nullable, i);
                        continue;
                    }
                    data.setLong(i * 8L, rescale(unpackMillisUtc(values.getLong(source.position(i))), 3, digits, vector));
                    vector.setIndexDefined(i);
                }
            }
            case TimestampWithTimeZoneType zonedType when zoned && zonedType.getPrecision() <= digits -> {
                // packed epoch milliseconds and zone, then picoseconds of the millisecond
                Fixed12Block values = source.block(Fixed12Block.class, type, vector);
                long picosPerUnit = POWERS_OF_TEN[12 - digits];
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        nullAt(vector, source, nullable, i);
                        continue;
                    }
                    int position = source.position(i);
                    long millis = unpackMillisUtc(values.getFixed12First(position));
                    int picos = values.getFixed12Second(position);
                    data.setLong(i * 8L, scaleAndAdd(millis, POWERS_OF_TEN[digits - 3], picos / picosPerUnit, vector));
                    vector.setIndexDefined(i);
                }
            }
            default -> throw unsupported(type, vector);
        }
    }

    // exact: a coarser unit is only chosen when the Trino precision fits it
    private static long rescale(long value, int fromDigits, int toDigits, BaseFixedWidthVector vector)
    {
        if (toDigits < fromDigits) {
            return floorDiv(value, POWERS_OF_TEN[fromDigits - toDigits]);
        }
        try {
            return Math.multiplyExact(value, POWERS_OF_TEN[toDigits - fromDigits]);
        }
        catch (ArithmeticException e) {
            throw outOfRange(value, vector);
        }
    }

    private static long scaleAndAdd(long value, long factor, long fraction, BaseFixedWidthVector vector)
    {
        try {
            return TimeUnits.scaleAndAdd(value, factor, fraction);
        }
        catch (ArithmeticException e) {
            throw outOfRange(value, vector);
        }
    }

    private static TrinoException outOfRange(long value, BaseFixedWidthVector vector)
    {
        return new TrinoException(NUMERIC_VALUE_OUT_OF_RANGE, format("Timestamp out of range for column %s: %s", vector.getName(), value));
    }
}
