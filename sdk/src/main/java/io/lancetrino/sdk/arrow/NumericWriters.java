package io.lancetrino.sdk.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.lancetrino.sdk.arrow.ArrowWriters.unsupported;
import static io.trino.spi.StandardErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.lang.String.format;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Booleans, integers (also into unsigned vectors), floating point, decimals and dates. Fixed-width vectors are
 * allocated zeroed, so a placeholder only needs its validity bit.
 */
final class NumericWriters
{
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LITTLE_ENDIAN);
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private NumericWriters() {}

    static void write(BaseFixedWidthVector vector, Type type, WriteSource source)
    {
        int count = source.count();
        boolean nullable = vector.getField().isNullable();
        vector.allocateNew(count);
        switch (vector) {
            case BitVector bits when type.equals(BOOLEAN) -> booleans(bits, source.block(ByteArrayBlock.class, type, vector), source, nullable);
            case TinyIntVector _ when type.equals(TINYINT) -> bytes(vector, source.block(ByteArrayBlock.class, type, vector), source, nullable);
            case SmallIntVector _ when type.equals(SMALLINT) -> shorts(vector, source.block(ShortArrayBlock.class, type, vector), source, nullable);
            // REAL and DOUBLE blocks hold the raw IEEE bits, as do Arrow's buffers
            case IntVector _ when type.equals(INTEGER) -> ints(vector, source.block(IntArrayBlock.class, type, vector), source, nullable);
            case Float4Vector _ when type.equals(REAL) -> ints(vector, source.block(IntArrayBlock.class, type, vector), source, nullable);
            case DateDayVector _ when type.equals(DATE) -> ints(vector, source.block(IntArrayBlock.class, type, vector), source, nullable);
            case BigIntVector _ when type.equals(BIGINT) -> longs(vector, source.block(LongArrayBlock.class, type, vector), source, nullable);
            case Float8Vector _ when type.equals(DOUBLE) -> longs(vector, source.block(LongArrayBlock.class, type, vector), source, nullable);
            case UInt1Vector _ when type.equals(SMALLINT) -> unsignedBytes(vector, source.block(ShortArrayBlock.class, type, vector), source, nullable);
            case UInt2Vector _ when type.equals(INTEGER) -> unsignedShorts(vector, source.block(IntArrayBlock.class, type, vector), source, nullable);
            case UInt4Vector _ when type.equals(BIGINT) -> unsignedInts(vector, source.block(LongArrayBlock.class, type, vector), source, nullable);
            case UInt8Vector _ when type instanceof DecimalType decimalType && decimalType.getScale() == 0 -> unsignedLongs(vector, decimalType, source, nullable);
            case Float2Vector _ when type.equals(REAL) -> halfFloats(vector, source.block(IntArrayBlock.class, type, vector), source, nullable);
            case FixedSizeBinaryVector binaries when type.equals(REAL) && binaries.getByteWidth() == 2 ->
                    bfloat16s(vector, source.block(IntArrayBlock.class, type, vector), source, nullable);
            case DecimalVector decimals when type instanceof DecimalType decimalType && fits(decimalType, decimals.getPrecision(), decimals.getScale()) ->
                    decimals(vector, decimalType, 2, source, nullable);
            case Decimal256Vector decimals when type instanceof DecimalType decimalType && fits(decimalType, decimals.getPrecision(), decimals.getScale()) ->
                    decimals(vector, decimalType, 4, source, nullable);
            case DateMilliVector _ when type.equals(DATE) -> {
                IntArrayBlock values = source.block(IntArrayBlock.class, type, vector);
                ArrowBuf data = vector.getDataBuffer();
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        nullAt(vector, source, nullable, i);
                        continue;
                    }
                    data.setLong(i * 8L, values.getInt(source.position(i)) * MILLIS_PER_DAY);
                    vector.setIndexDefined(i);
                }
            }
            default -> throw unsupported(type, vector);
        }
        vector.setValueCount(count);
    }

    /**
     * Records a null, or the placeholder (validity only, the value stays zero) a non-nullable vector gets under a null
     * parent.
     */
    static void nullAt(BaseFixedWidthVector vector, WriteSource source, boolean nullable, int index)
    {
        if (source.writeAsNull(index, nullable, vector)) {
            vector.setNull(index);
        }
        else {
            vector.setIndexDefined(index);
        }
    }

    private static void booleans(BitVector vector, ByteArrayBlock values, WriteSource source, boolean nullable)
    {
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            vector.set(i, values.getByte(source.position(i)) != 0 ? 1 : 0);
        }
    }

    private static void bytes(BaseFixedWidthVector vector, ByteArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        if (source.isPlain()) {
            data.setBytes(0, values.getRawValues(), values.getRawValuesOffset(), source.count());
            source.setPlainValidity(vector, nullable);
            return;
        }
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            data.setByte(i, values.getByte(source.position(i)));
            vector.setIndexDefined(i);
        }
    }

    private static void shorts(BaseFixedWidthVector vector, ShortArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        if (source.isPlain()) {
            MemorySegment.copy(values.getRawValues(), values.getRawValuesOffset(), segment(data, source.count() * 2L), SHORT, 0, source.count());
            source.setPlainValidity(vector, nullable);
            return;
        }
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            data.setShort(i * 2L, values.getShort(source.position(i)));
            vector.setIndexDefined(i);
        }
    }

    private static void ints(BaseFixedWidthVector vector, IntArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        if (source.isPlain()) {
            MemorySegment.copy(values.getRawValues(), values.getRawValuesOffset(), segment(data, source.count() * 4L), INT, 0, source.count());
            source.setPlainValidity(vector, nullable);
            return;
        }
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            data.setInt(i * 4L, values.getInt(source.position(i)));
            vector.setIndexDefined(i);
        }
    }

    static void longs(BaseFixedWidthVector vector, LongArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        if (source.isPlain()) {
            MemorySegment.copy(values.getRawValues(), values.getRawValuesOffset(), segment(data, source.count() * 8L), LONG, 0, source.count());
            source.setPlainValidity(vector, nullable);
            return;
        }
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            data.setLong(i * 8L, values.getLong(source.position(i)));
            vector.setIndexDefined(i);
        }
    }

    private static void unsignedBytes(BaseFixedWidthVector vector, ShortArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            short value = values.getShort(source.position(i));
            checkUnsigned(value, 0xFFL, vector);
            data.setByte(i, (byte) value);
            vector.setIndexDefined(i);
        }
    }

    private static void unsignedShorts(BaseFixedWidthVector vector, IntArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            int value = values.getInt(source.position(i));
            checkUnsigned(value, 0xFFFFL, vector);
            data.setShort(i * 2L, (short) value);
            vector.setIndexDefined(i);
        }
    }

    private static void unsignedInts(BaseFixedWidthVector vector, LongArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            long value = values.getLong(source.position(i));
            checkUnsigned(value, 0xFFFF_FFFFL, vector);
            data.setInt(i * 4L, (int) value);
            vector.setIndexDefined(i);
        }
    }

    // DECIMAL(p, 0) into uint64: 0 <= value < 2^64
    private static void unsignedLongs(BaseFixedWidthVector vector, DecimalType type, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        LongArrayBlock shortValues = type.isShort() ? source.block(LongArrayBlock.class, type, vector) : null;
        Int128ArrayBlock longValues = type.isShort() ? null : source.block(Int128ArrayBlock.class, type, vector);
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            int position = source.position(i);
            long high = shortValues == null ? longValues.getInt128High(position) : shortValues.getLong(position) >> 63;
            long low = shortValues == null ? longValues.getInt128Low(position) : shortValues.getLong(position);
            if (high != 0) {
                throw new TrinoException(NUMERIC_VALUE_OUT_OF_RANGE, format("Value out of range for unsigned 64-bit column %s", vector.getName()));
            }
            data.setLong(i * 8L, low);
            vector.setIndexDefined(i);
        }
    }

    private static void halfFloats(BaseFixedWidthVector vector, IntArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            // rounds to nearest even; out of range becomes infinity
            data.setShort(i * 2L, Float.floatToFloat16(Float.intBitsToFloat(values.getInt(source.position(i)))));
            vector.setIndexDefined(i);
        }
    }

    private static void bfloat16s(BaseFixedWidthVector vector, IntArrayBlock values, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            data.setShort(i * 2L, bfloat16(values.getInt(source.position(i))));
            vector.setIndexDefined(i);
        }
    }

    /**
     * The upper half of a float32, rounded to nearest even; NaN stays a (quiet) NaN.
     */
    static short bfloat16(int floatBits)
    {
        if ((floatBits & 0x7FFF_FFFF) > 0x7F80_0000) {
            return (short) ((floatBits >>> 16) | 0x0040);
        }
        return (short) ((floatBits + 0x7FFF + ((floatBits >>> 16) & 1)) >>> 16);
    }

    /**
     * Two's complement little-endian in {@code words} 64-bit words (2 for Decimal128, 4 for Decimal256).
     */
    private static void decimals(BaseFixedWidthVector vector, DecimalType type, int words, WriteSource source, boolean nullable)
    {
        ArrowBuf data = vector.getDataBuffer();
        long width = words * 8L;
        LongArrayBlock shortValues = type.isShort() ? source.block(LongArrayBlock.class, type, vector) : null;
        Int128ArrayBlock longValues = type.isShort() ? null : source.block(Int128ArrayBlock.class, type, vector);
        for (int i = 0; i < source.count(); i++) {
            if (source.isNull(i)) {
                nullAt(vector, source, nullable, i);
                continue;
            }
            int position = source.position(i);
            long low;
            long high;
            if (shortValues != null) {
                low = shortValues.getLong(position);
                high = low >> 63;
            }
            else {
                low = longValues.getInt128Low(position);
                high = longValues.getInt128High(position);
            }
            long offset = i * width;
            data.setLong(offset, low);
            data.setLong(offset + 8, high);
            for (int word = 2; word < words; word++) {
                data.setLong(offset + word * 8L, high >> 63);
            }
            vector.setIndexDefined(i);
        }
    }

    // a Trino decimal goes into an Arrow decimal of the same scale that holds as many digits
    private static boolean fits(DecimalType type, int precision, int scale)
    {
        return type.getScale() == scale && type.getPrecision() <= precision;
    }

    private static void checkUnsigned(long value, long max, BaseFixedWidthVector vector)
    {
        if (value < 0 || value > max) {
            throw new TrinoException(NUMERIC_VALUE_OUT_OF_RANGE, format("Value %s out of range for unsigned column %s (0 to %s)", value, vector.getName(), max));
        }
    }

    static MemorySegment segment(ArrowBuf buffer, long length)
    {
        if (buffer.capacity() < length) {
            throw new IllegalStateException(format("Arrow buffer has %s bytes, expected at least %s", buffer.capacity(), length));
        }
        if (length == 0) {
            return MemorySegment.NULL;
        }
        return MemorySegment.ofAddress(buffer.memoryAddress()).reinterpret(length);
    }
}
