package io.lancetrino.split.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.Fixed12Block;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.arrow.ArrowBlocks.unsupported;
import static io.lancetrino.split.arrow.ArrowBuffers.isNull;
import static io.lancetrino.split.arrow.ArrowBuffers.optional;
import static io.lancetrino.split.arrow.ArrowBuffers.readInts;
import static io.lancetrino.split.arrow.ArrowBuffers.readLongs;
import static io.trino.spi.block.Fixed12Block.encodeFixed12;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static java.lang.Math.floorDiv;
import static java.lang.Math.floorMod;

/**
 * TIME and TIMESTAMP [WITH TIME ZONE]. Arrow values are counts of a unit with {@code digits} fractional digits (s 0,
 * ms 3, us 6, ns 9); they are only read into types with at least that precision, so no value is rounded.
 */
final class TemporalBlocks
{
    private static final long[] POWERS_OF_TEN = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
            100_000_000L, 1_000_000_000L, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L};

    private TemporalBlocks() {}

    static Block toBlock(Type type, FieldVector vector, long[] valid)
    {
        int count = vector.getValueCount();
        return switch (vector) {
            case TimeSecVector seconds -> time(type, vector, widen(readInts(seconds.getDataBuffer(), count)), 0, valid);
            case TimeMilliVector millis -> time(type, vector, widen(readInts(millis.getDataBuffer(), count)), 3, valid);
            case TimeMicroVector micros -> time(type, vector, readLongs(micros.getDataBuffer(), count), 6, valid);
            case TimeNanoVector nanos -> time(type, vector, readLongs(nanos.getDataBuffer(), count), 9, valid);
            case TimeStampVector timestamps -> timestamp(type, vector, readLongs(timestamps.getDataBuffer(), count), digits(timestamps), valid);
            default -> throw unsupported(type, vector);
        };
    }

    private static Block time(Type type, FieldVector vector, long[] values, int digits, long[] valid)
    {
        if (!timeFits(type, digits)) {
            throw unsupported(type, vector);
        }
        return time(values, valid, digits);
    }

    /** Whether counts of a unit with {@code digits} fractional digits read into {@code type} without rounding. */
    static boolean timeFits(Type type, int digits)
    {
        return type instanceof TimeType timeType && timeType.getPrecision() >= digits;
    }

    static boolean timestampFits(Type type, int digits)
    {
        return (type instanceof TimestampType timestampType && timestampType.getPrecision() >= digits)
                || (type instanceof TimestampWithTimeZoneType zonedType && zonedType.getPrecision() >= digits);
    }

    /** TIME values from counts of the unit (modified in place); the caller checked {@link #timeFits}. */
    static Block time(long[] values, long[] valid, int digits)
    {
        // TIME(p) is picoseconds of the day
        long factor = POWERS_OF_TEN[12 - digits];
        for (int i = 0; i < values.length; i++) {
            values[i] *= factor;
        }
        return new LongArrayBlock(values.length, optional(valid), values);
    }

    private static Block timestamp(Type type, FieldVector vector, long[] values, int digits, long[] valid)
    {
        if (!timestampFits(type, digits)) {
            throw unsupported(type, vector);
        }
        return timestamp(type, values, digits, valid);
    }

    /** TIMESTAMP [WITH TIME ZONE] values from counts of the unit (modified in place); the caller checked {@link #timestampFits}. */
    static Block timestamp(Type type, long[] values, int digits, long[] valid)
    {
        int count = values.length;
        switch (type) {
            case TimestampType timestampType when timestampType.getPrecision() >= digits && timestampType.isShort() -> {
                // epoch microseconds
                long factor = POWERS_OF_TEN[6 - digits];
                for (int i = 0; i < count; i++) {
                    values[i] = isNull(valid, i) ? 0 : multiply(values[i], factor);
                }
                return new LongArrayBlock(count, optional(valid), values);
            }
            case TimestampType timestampType when timestampType.getPrecision() >= digits -> {
                // LongTimestamp: epoch microseconds and picoseconds of the microsecond
                int[] fixed12 = new int[count * 3];
                for (int i = 0; i < count; i++) {
                    if (isNull(valid, i)) {
                        continue;
                    }
                    if (digits > 6) {
                        long unitsPerMicro = POWERS_OF_TEN[digits - 6];
                        encodeFixed12(floorDiv(values[i], unitsPerMicro), (int) (floorMod(values[i], unitsPerMicro) * POWERS_OF_TEN[12 - digits]), fixed12, i);
                    }
                    else {
                        encodeFixed12(multiply(values[i], POWERS_OF_TEN[6 - digits]), 0, fixed12, i);
                    }
                }
                return new Fixed12Block(count, optional(valid), fixed12);
            }
            case TimestampWithTimeZoneType zonedType when zonedType.getPrecision() >= digits && zonedType.isShort() -> {
                // epoch milliseconds packed with the zone
                long factor = POWERS_OF_TEN[3 - digits];
                for (int i = 0; i < count; i++) {
                    values[i] = isNull(valid, i) ? 0 : packUtc(multiply(values[i], factor));
                }
                return new LongArrayBlock(count, optional(valid), values);
            }
            case TimestampWithTimeZoneType zonedType when zonedType.getPrecision() >= digits -> {
                // LongTimestampWithTimeZone: packed epoch milliseconds and zone, then picoseconds of the millisecond
                int[] fixed12 = new int[count * 3];
                for (int i = 0; i < count; i++) {
                    if (isNull(valid, i)) {
                        continue;
                    }
                    if (digits > 3) {
                        long unitsPerMilli = POWERS_OF_TEN[digits - 3];
                        encodeFixed12(packUtc(floorDiv(values[i], unitsPerMilli)), (int) (floorMod(values[i], unitsPerMilli) * POWERS_OF_TEN[12 - digits]), fixed12, i);
                    }
                    else {
                        encodeFixed12(packUtc(multiply(values[i], POWERS_OF_TEN[3 - digits])), 0, fixed12, i);
                    }
                }
                return new Fixed12Block(count, optional(valid), fixed12);
            }
            default -> throw new IllegalArgumentException("Cannot read timestamps with %s fractional digits as %s".formatted(digits, type));
        }
    }

    private static int digits(TimeStampVector vector)
    {
        return switch (((ArrowType.Timestamp) vector.getField().getType()).getUnit()) {
            case SECOND -> 0;
            case MILLISECOND -> 3;
            case MICROSECOND -> 6;
            case NANOSECOND -> 9;
        };
    }

    private static long[] widen(int[] values)
    {
        long[] widened = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            widened[i] = values[i];
        }
        return widened;
    }

    private static long multiply(long value, long factor)
    {
        try {
            return Math.multiplyExact(value, factor);
        }
        catch (ArithmeticException e) {
            throw new TrinoException(LANCE_BAD_DATA, "Timestamp out of range: " + value, e);
        }
    }

    // Arrow zoned timestamps are UTC instants; the zone name is not carried into the value
    private static long packUtc(long epochMillis)
    {
        if ((epochMillis << 12) >> 12 != epochMillis) {
            throw new TrinoException(LANCE_BAD_DATA, "Timestamp out of range: " + epochMillis + " ms");
        }
        return packDateTimeWithZone(epochMillis, UTC_KEY);
    }
}
