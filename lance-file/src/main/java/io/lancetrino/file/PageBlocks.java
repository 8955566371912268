package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Turns decoded Lance values into Trino value blocks of the requested type. */
final class PageBlocks
{
    private PageBlocks() {}

    enum Kind { FIXED, FIXED_128, VARIABLE }

    /** How the values of a Trino type are stored in a Lance file; anything else is not decoded by this reader. */
    static Kind kind(Type type)
    {
        if (type instanceof VarcharType || type instanceof VarbinaryType) {
            return Kind.VARIABLE;
        }
        if (type instanceof DecimalType) {
            // Arrow (and so Lance) keeps every decimal as 128 bits
            return Kind.FIXED_128;
        }
        if (type == BigintType.BIGINT || type == IntegerType.INTEGER || type == SmallintType.SMALLINT || type == TinyintType.TINYINT
                || type == DoubleType.DOUBLE || type == RealType.REAL || type == BooleanType.BOOLEAN || type == DateType.DATE
                || type.equals(TimestampType.TIMESTAMP_MICROS)) {
            return Kind.FIXED;
        }
        throw new UnsupportedLanceEncodingException("Trino type %s is not decoded by the Lance file reader".formatted(type));
    }

    /**
     * Whether the rep/def layers are item (struct or leaf) layers only, no lists. Then a leaf value is null exactly when
     * its def level is not 0: the leaf itself or one of its enclosing structs is null.
     */
    static boolean itemLayersOnly(List<RepDefLayer> layers)
    {
        return !layers.isEmpty() && layers.stream().allMatch(layer -> layer == RepDefLayer.REPDEF_ALL_VALID_ITEM || layer == RepDefLayer.REPDEF_NULLABLE_ITEM);
    }

    /** Bits Lance stores per value of a fixed-width Trino type, to catch a type that does not match the column. */
    static int storedBits(Type type)
    {
        if (type == BigintType.BIGINT || type == DoubleType.DOUBLE || type.equals(TimestampType.TIMESTAMP_MICROS)) {
            return 64;
        }
        if (type == IntegerType.INTEGER || type == DateType.DATE || type == RealType.REAL) {
            return 32;
        }
        if (type == SmallintType.SMALLINT) {
            return 16;
        }
        if (type == TinyintType.TINYINT) {
            return 8;
        }
        if (type == BooleanType.BOOLEAN) {
            return 1;
        }
        return 128;
    }

    /** A block of {@code count} fixed-width values (zero-extended raw bits) starting at {@code offset}. */
    static Block fixed(Type type, long[] values, int offset, int count, Optional<boolean[]> nulls)
    {
        if (type == BigintType.BIGINT || type == DoubleType.DOUBLE || type.equals(TimestampType.TIMESTAMP_MICROS)) {
            long[] copy = values;
            if (offset != 0 || values.length != count) {
                copy = new long[count];
                System.arraycopy(values, offset, copy, 0, count);
            }
            return new LongArrayBlock(count, bitmap(nulls, count), copy);
        }
        if (type == IntegerType.INTEGER || type == DateType.DATE || type == RealType.REAL) {
            int[] copy = new int[count];
            for (int i = 0; i < count; i++) {
                copy[i] = (int) values[offset + i];
            }
            return new IntArrayBlock(count, bitmap(nulls, count), copy);
        }
        if (type == SmallintType.SMALLINT) {
            short[] copy = new short[count];
            for (int i = 0; i < count; i++) {
                copy[i] = (short) values[offset + i];
            }
            return new ShortArrayBlock(count, bitmap(nulls, count), copy);
        }
        if (type == TinyintType.TINYINT || type == BooleanType.BOOLEAN) {
            byte[] copy = new byte[count];
            for (int i = 0; i < count; i++) {
                copy[i] = (byte) values[offset + i];
            }
            return new ByteArrayBlock(count, bitmap(nulls, count), copy);
        }
        throw new UnsupportedLanceEncodingException("Trino type %s is not fixed width".formatted(type));
    }

    /**
     * A block of the first {@code count} values of {@code values} (raw bits, at most 32 per value), which an int block
     * keeps as its own array when it is exactly that long.
     */
    static Block fixed(Type type, int[] values, int count, Optional<boolean[]> nulls)
    {
        if (type == IntegerType.INTEGER || type == DateType.DATE || type == RealType.REAL) {
            return new IntArrayBlock(count, bitmap(nulls, count), values.length == count ? values : Arrays.copyOf(values, count));
        }
        if (type == SmallintType.SMALLINT) {
            short[] copy = new short[count];
            for (int i = 0; i < count; i++) {
                copy[i] = (short) values[i];
            }
            return new ShortArrayBlock(count, bitmap(nulls, count), copy);
        }
        if (type == TinyintType.TINYINT || type == BooleanType.BOOLEAN) {
            byte[] copy = new byte[count];
            for (int i = 0; i < count; i++) {
                copy[i] = (byte) values[i];
            }
            return new ByteArrayBlock(count, bitmap(nulls, count), copy);
        }
        throw new UnsupportedLanceEncodingException("Trino type %s is not stored in 32 bits or fewer".formatted(type));
    }

    /** A block of {@code count} decimals from (low, high) pairs starting at value {@code offset}. */
    static Block fixed128(DecimalType type, long[] lowHigh, int offset, int count, Optional<boolean[]> nulls)
    {
        if (type.isShort()) {
            long[] copy = new long[count];
            for (int i = 0; i < count; i++) {
                copy[i] = lowHigh[2 * (offset + i)];
            }
            return new LongArrayBlock(count, bitmap(nulls, count), copy);
        }
        // Trino keeps each Int128 as (high, low)
        long[] copy = new long[count * 2];
        for (int i = 0; i < count; i++) {
            copy[2 * i] = lowHigh[2 * (offset + i) + 1];
            copy[2 * i + 1] = lowHigh[2 * (offset + i)];
        }
        return new Int128ArrayBlock(count, bitmap(nulls, count), copy);
    }

    static Block variable(VariableValues values, int offset, int count, Optional<boolean[]> nulls)
    {
        int[] offsets = new int[count + 1];
        int base = values.offsets()[offset];
        for (int i = 0; i <= count; i++) {
            offsets[i] = values.offsets()[offset + i] - base;
        }
        Slice data = values.data().slice(base, offsets[count]);
        return new VariableWidthBlock(count, data, offsets, bitmap(nulls, count));
    }

    /** Trino blocks keep a validity bitmap of 64-bit words, a set bit marking a non-null value. */
    static Optional<long[]> bitmap(Optional<boolean[]> nulls, int count)
    {
        if (nulls.isEmpty()) {
            return Optional.empty();
        }
        boolean[] isNull = nulls.get();
        long[] words = new long[(count + 63) >>> 6];
        boolean any = false;
        for (int i = 0; i < count; i++) {
            if (isNull[i]) {
                any = true;
            }
            else {
                words[i >>> 6] |= 1L << (i & 63);
            }
        }
        return any ? Optional.of(words) : Optional.empty();
    }
}
