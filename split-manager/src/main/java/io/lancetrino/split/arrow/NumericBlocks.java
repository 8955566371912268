package io.lancetrino.split.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.arrow.ArrowBlocks.unsupported;
import static io.lancetrino.split.arrow.ArrowBuffers.isNull;
import static io.lancetrino.split.arrow.ArrowBuffers.optional;
import static io.lancetrino.split.arrow.ArrowBuffers.readBits;
import static io.lancetrino.split.arrow.ArrowBuffers.readBytes;
import static io.lancetrino.split.arrow.ArrowBuffers.readInts;
import static io.lancetrino.split.arrow.ArrowBuffers.readLongs;
import static io.lancetrino.split.arrow.ArrowBuffers.readShorts;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.lang.Math.floorDiv;
import static java.lang.String.format;

/**
 * Booleans, integers, floating point, decimals and dates.
 */
final class NumericBlocks
{
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long[] POWERS_OF_TEN = powersOfTen();

    private NumericBlocks() {}

    static Block toBlock(Type type, FieldVector vector, long[] valid)
    {
        int count = vector.getValueCount();
        return switch (vector) {
            case BitVector bits when type.equals(BOOLEAN) -> booleans(bits, count, valid);
            case BaseIntVector integers -> integers(type, integers, count, valid);
            case Float2Vector halves when type.equals(REAL) -> {
                short[] raw = readShorts(halves.getDataBuffer(), count);
                int[] values = new int[count];
                for (int i = 0; i < count; i++) {
                    values[i] = Float.floatToRawIntBits(Float.float16ToFloat(raw[i]));
                }
                yield new IntArrayBlock(count, optional(valid), values);
            }
            case Float4Vector floats when type.equals(REAL) -> new IntArrayBlock(count, optional(valid), readInts(floats.getDataBuffer(), count));
            case Float4Vector floats when type.equals(DOUBLE) -> {
                int[] raw = readInts(floats.getDataBuffer(), count);
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    values[i] = Double.doubleToRawLongBits(Float.intBitsToFloat(raw[i]));
                }
                yield new LongArrayBlock(count, optional(valid), values);
            }
            case Float8Vector doubles when type.equals(DOUBLE) -> new LongArrayBlock(count, optional(valid), readLongs(doubles.getDataBuffer(), count));
            case FixedSizeBinaryVector bfloat16 when type.equals(REAL) && bfloat16.getByteWidth() == 2 -> {
                // bfloat16 is the upper half of a float32
                short[] raw = readShorts(bfloat16.getDataBuffer(), count);
                int[] values = new int[count];
                for (int i = 0; i < count; i++) {
                    values[i] = raw[i] << 16;
                }
                yield new IntArrayBlock(count, optional(valid), values);
            }
            case DecimalVector decimals when type instanceof DecimalType decimalType && fits(decimalType, decimals.getPrecision(), decimals.getScale()) ->
                    decimals(decimalType, readLongs(decimals.getDataBuffer(), count * 2), 2, count, valid);
            case Decimal256Vector decimals when type instanceof DecimalType decimalType && fits(decimalType, decimals.getPrecision(), decimals.getScale()) ->
                    decimals(decimalType, readLongs(decimals.getDataBuffer(), count * 4), 4, count, valid);
            case DateDayVector days when type.equals(DATE) -> new IntArrayBlock(count, optional(valid), readInts(days.getDataBuffer(), count));
            case DateMilliVector millis when type.equals(DATE) -> {
                long[] raw = readLongs(millis.getDataBuffer(), count);
                int[] values = new int[count];
                for (int i = 0; i < count; i++) {
                    values[i] = toIntExact(floorDiv(raw[i], MILLIS_PER_DAY), valid, i);
                }
                yield new IntArrayBlock(count, optional(valid), values);
            }
            default -> throw unsupported(type, vector);
        };
    }

    private static Block booleans(BitVector vector, int count, long[] valid)
    {
        long[] bits = readBits(vector.getDataBuffer(), count);
        byte[] values = new byte[count];
        for (int i = 0; i < count; i++) {
            values[i] = (byte) ((bits[i >>> 6] >>> i) & 1);
        }
        return new ByteArrayBlock(count, optional(valid), values);
    }

    private static Block integers(Type type, BaseIntVector vector, int count, long[] valid)
    {
        // the natural mappings (and the widenings of unsigned types) copy the buffer as is
        switch (vector) {
            case TinyIntVector _ when type.equals(TINYINT) -> {
                return new ByteArrayBlock(count, optional(valid), readBytes(vector.getDataBuffer(), 0, count));
            }
            case SmallIntVector _ when type.equals(SMALLINT) -> {
                return new ShortArrayBlock(count, optional(valid), readShorts(vector.getDataBuffer(), count));
            }
            case IntVector _ when type.equals(INTEGER) -> {
                return new IntArrayBlock(count, optional(valid), readInts(vector.getDataBuffer(), count));
            }
            case BigIntVector _ when type.equals(BIGINT) -> {
                return new LongArrayBlock(count, optional(valid), readLongs(vector.getDataBuffer(), count));
            }
            case UInt1Vector _ when type.equals(SMALLINT) -> {
                byte[] raw = readBytes(vector.getDataBuffer(), 0, count);
                short[] values = new short[count];
                for (int i = 0; i < count; i++) {
                    values[i] = (short) (raw[i] & 0xFF);
                }
                return new ShortArrayBlock(count, optional(valid), values);
            }
            case UInt2Vector _ when type.equals(INTEGER) -> {
                short[] raw = readShorts(vector.getDataBuffer(), count);
                int[] values = new int[count];
                for (int i = 0; i < count; i++) {
                    values[i] = raw[i] & 0xFFFF;
                }
                return new IntArrayBlock(count, optional(valid), values);
            }
            case UInt4Vector _ when type.equals(BIGINT) -> {
                int[] raw = readInts(vector.getDataBuffer(), count);
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    values[i] = raw[i] & 0xFFFF_FFFFL;
                }
                return new LongArrayBlock(count, optional(valid), values);
            }
            default -> {
                return narrow(type, vector, widen(vector, count), count, valid);
            }
        }
    }

    /**
     * Values sign- or zero-extended to long; for uint64 the raw bits (negative when above Long.MAX_VALUE).
     */
    private static long[] widen(BaseIntVector vector, int count)
    {
        long[] values = new long[count];
        switch (vector) {
            case TinyIntVector _, UInt1Vector _ -> {
                byte[] raw = readBytes(vector.getDataBuffer(), 0, count);
                long mask = vector instanceof UInt1Vector ? 0xFFL : -1L;
                for (int i = 0; i < count; i++) {
                    values[i] = raw[i] & mask;
                }
            }
            case SmallIntVector _, UInt2Vector _ -> {
                short[] raw = readShorts(vector.getDataBuffer(), count);
                long mask = vector instanceof UInt2Vector ? 0xFFFFL : -1L;
                for (int i = 0; i < count; i++) {
                    values[i] = raw[i] & mask;
                }
            }
            case IntVector _, UInt4Vector _ -> {
                int[] raw = readInts(vector.getDataBuffer(), count);
                long mask = vector instanceof UInt4Vector ? 0xFFFF_FFFFL : -1L;
                for (int i = 0; i < count; i++) {
                    values[i] = raw[i] & mask;
                }
            }
            case BigIntVector _, UInt8Vector _ -> values = readLongs(vector.getDataBuffer(), count);
            default -> throw new TrinoException(LANCE_BAD_DATA, "Unsupported Arrow integer vector: " + vector.getClass().getSimpleName());
        }
        return values;
    }

    private static Block narrow(Type type, BaseIntVector vector, long[] values, int count, long[] valid)
    {
        boolean unsigned64 = vector instanceof UInt8Vector;
        if (type instanceof DecimalType decimalType) {
            return integerDecimals(decimalType, values, unsigned64, count, valid);
        }
        long min;
        long max;
        if (type.equals(BIGINT)) {
            min = Long.MIN_VALUE;
            max = Long.MAX_VALUE;
        }
        else if (type.equals(INTEGER)) {
            min = Integer.MIN_VALUE;
            max = Integer.MAX_VALUE;
        }
        else if (type.equals(SMALLINT)) {
            min = Short.MIN_VALUE;
            max = Short.MAX_VALUE;
        }
        else if (type.equals(TINYINT)) {
            min = Byte.MIN_VALUE;
            max = Byte.MAX_VALUE;
        }
        else {
            throw unsupported(type, vector);
        }
        for (int i = 0; i < count; i++) {
            long value = values[i];
            boolean outOfRange = unsigned64 ? value < 0 || value > max : value < min || value > max;
            if (outOfRange && !isNull(valid, i)) {
                throw new TrinoException(LANCE_BAD_DATA, format("Value %s of %s is out of range for %s", unsigned64 ? Long.toUnsignedString(value) : value, vector.getField(), type));
            }
        }
        if (type.equals(BIGINT)) {
            return new LongArrayBlock(count, optional(valid), values);
        }
        if (type.equals(INTEGER)) {
            int[] narrowed = new int[count];
            for (int i = 0; i < count; i++) {
                narrowed[i] = (int) values[i];
            }
            return new IntArrayBlock(count, optional(valid), narrowed);
        }
        if (type.equals(SMALLINT)) {
            short[] narrowed = new short[count];
            for (int i = 0; i < count; i++) {
                narrowed[i] = (short) values[i];
            }
            return new ShortArrayBlock(count, optional(valid), narrowed);
        }
        byte[] narrowed = new byte[count];
        for (int i = 0; i < count; i++) {
            narrowed[i] = (byte) values[i];
        }
        return new ByteArrayBlock(count, optional(valid), narrowed);
    }

    private static Block integerDecimals(DecimalType type, long[] values, boolean unsigned64, int count, long[] valid)
    {
        if (type.getScale() >= POWERS_OF_TEN.length) {
            throw new TrinoException(LANCE_BAD_DATA, "Cannot read integers as " + type);
        }
        long scale = POWERS_OF_TEN[type.getScale()];
        if (!type.isShort()) {
            long[] int128 = new long[count * 2];
            for (int i = 0; i < count; i++) {
                if (unsigned64 && scale == 1 && type.getPrecision() >= 20) {
                    // uint64 as DECIMAL(20, 0): a zero high word and the raw bits as the low word
                    int128[i * 2 + 1] = values[i];
                }
                else if (!isNull(valid, i)) {
                    long unscaled = scaled(values[i], unsigned64, scale, type);
                    int128[i * 2] = unscaled >> 63;
                    int128[i * 2 + 1] = unscaled;
                }
            }
            return new Int128ArrayBlock(count, optional(valid), int128);
        }
        long limit = POWERS_OF_TEN[type.getPrecision()];
        long[] unscaled = new long[count];
        for (int i = 0; i < count; i++) {
            if (!isNull(valid, i)) {
                long value = scaled(values[i], unsigned64, scale, type);
                if (value >= limit || value <= -limit) {
                    throw new TrinoException(LANCE_BAD_DATA, format("Value %s is out of range for %s", values[i], type));
                }
                unscaled[i] = value;
            }
        }
        return new LongArrayBlock(count, optional(valid), unscaled);
    }

    private static long scaled(long value, boolean unsigned64, long scale, DecimalType type)
    {
        if (unsigned64 && value < 0) {
            throw new TrinoException(LANCE_BAD_DATA, format("Value %s is out of range for %s", Long.toUnsignedString(value), type));
        }
        try {
            return Math.multiplyExact(value, scale);
        }
        catch (ArithmeticException e) {
            throw new TrinoException(LANCE_BAD_DATA, format("Value %s is out of range for %s", value, type), e);
        }
    }

    /**
     * Decimal128 (2 words) or Decimal256 (4 words) little-endian two's complement values; only the low 128 bits are
     * kept, which hold the whole value for precision ≤ 38.
     */
    private static Block decimals(DecimalType type, long[] raw, int wordsPerValue, int count, long[] valid)
    {
        if (type.isShort()) {
            long[] values = new long[count];
            for (int i = 0; i < count; i++) {
                values[i] = raw[i * wordsPerValue];
            }
            return new LongArrayBlock(count, optional(valid), values);
        }
        // Int128ArrayBlock stores high then low
        long[] values = wordsPerValue == 2 ? raw : new long[count * 2];
        for (int i = 0; i < count; i++) {
            long low = raw[i * wordsPerValue];
            long high = raw[i * wordsPerValue + 1];
            values[i * 2] = high;
            values[i * 2 + 1] = low;
        }
        return new Int128ArrayBlock(count, optional(valid), values);
    }

    // unscaled values are copied as they are, so the scale must match and every value must fit
    private static boolean fits(DecimalType type, int precision, int scale)
    {
        return type.getScale() == scale && type.getPrecision() >= precision;
    }

    private static int toIntExact(long value, long[] valid, int position)
    {
        if (value != (int) value && !isNull(valid, position)) {
            throw new TrinoException(LANCE_BAD_DATA, "Date out of range: " + value + " days");
        }
        return (int) value;
    }

    private static long[] powersOfTen()
    {
        long[] powers = new long[19];
        powers[0] = 1;
        for (int i = 1; i < powers.length; i++) {
            powers[i] = powers[i - 1] * 10;
        }
        return powers;
    }
}
