package io.lancetrino.split;

import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.SortedRangeSet;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.TypeUtils.readNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * A column's {@link Domain} evaluated on blocks. Ranges over types whose values compare as plain longs or doubles are
 * compared as primitives; other types go through {@link Domain#includesNullableValue}. One instance serves one page
 * source: it keeps the verdicts on the entries of the last dictionary it saw.
 */
public final class ColumnPredicate
{
    // a join's dynamic filter can hold thousands of keys; a few ranges are quicker to scan than to search
    private static final int LINEAR_SEARCH_RANGES = 8;
    // verdicts on dictionary entries; MATCHES is the only one with the low bit set
    private static final byte UNKNOWN = 0;
    private static final byte MATCHES = 1;
    private static final byte FAILS = 2;

    private final LanceColumnHandle column;
    private final Domain domain;
    private final boolean nullAllowed;
    // inclusive bounds of the ranges of a long-compared type
    private final long[] longLows;
    private final long[] longHighs;
    // bounds of the ranges of a double column; unbounded ends are infinities, which NaN never passes
    private final double[] doubleLows;
    private final double[] doubleHighs;
    private final boolean[] lowInclusive;
    private final boolean[] highInclusive;
    // the dictionary whose entries' verdicts are kept, and the verdicts
    private Block verdictsOf;
    private byte[] verdicts;

    private ColumnPredicate(LanceColumnHandle column, Domain domain, long[] longLows, long[] longHighs, List<Range> doubleRanges)
    {
        this.column = requireNonNull(column, "column is null");
        this.domain = requireNonNull(domain, "domain is null");
        this.nullAllowed = domain.isNullAllowed();
        this.longLows = longLows;
        this.longHighs = longHighs;
        if (doubleRanges == null) {
            this.doubleLows = null;
            this.doubleHighs = null;
            this.lowInclusive = null;
            this.highInclusive = null;
            return;
        }
        int size = doubleRanges.size();
        this.doubleLows = new double[size];
        this.doubleHighs = new double[size];
        this.lowInclusive = new boolean[size];
        this.highInclusive = new boolean[size];
        for (int i = 0; i < size; i++) {
            Range range = doubleRanges.get(i);
            doubleLows[i] = range.isLowUnbounded() ? Double.NEGATIVE_INFINITY : (double) range.getLowBoundedValue();
            lowInclusive[i] = range.isLowUnbounded() || range.isLowInclusive();
            doubleHighs[i] = range.isHighUnbounded() ? Double.POSITIVE_INFINITY : (double) range.getHighBoundedValue();
            highInclusive[i] = range.isHighUnbounded() || range.isHighInclusive();
        }
    }

    /**
     * Empty when the domain admits every value, or the column is not a plain scalar this reader can evaluate.
     */
    public static Optional<ColumnPredicate> of(LanceColumnHandle column, Domain domain)
    {
        Type type = column.type();
        if (domain.isAll() || column.isRowAddress() || !type.getTypeParameters().isEmpty() && !(type instanceof DecimalType) && !(type instanceof TimestampType)) {
            return Optional.empty();
        }
        if (domain.getValues() instanceof SortedRangeSet set && !domain.isNone() && !set.isAll()) {
            List<Range> ranges = set.getOrderedRanges();
            if (comparesAsLong(type)) {
                long[] lows = new long[ranges.size()];
                long[] highs = new long[ranges.size()];
                int kept = 0;
                for (Range range : ranges) {
                    long low = range.isLowUnbounded() ? Long.MIN_VALUE : (long) range.getLowBoundedValue();
                    long high = range.isHighUnbounded() ? Long.MAX_VALUE : (long) range.getHighBoundedValue();
                    // an exclusive bound at the end of the long range leaves the range empty; dropping it keeps the
                    // bounds ordered for the binary search
                    boolean empty = !range.isLowUnbounded() && !range.isLowInclusive() && low == Long.MAX_VALUE
                            || !range.isHighUnbounded() && !range.isHighInclusive() && high == Long.MIN_VALUE;
                    if (empty) {
                        continue;
                    }
                    lows[kept] = low + (!range.isLowUnbounded() && !range.isLowInclusive() ? 1 : 0);
                    highs[kept] = high - (!range.isHighUnbounded() && !range.isHighInclusive() ? 1 : 0);
                    kept++;
                }
                lows = Arrays.copyOf(lows, kept);
                highs = Arrays.copyOf(highs, kept);
                return Optional.of(new ColumnPredicate(column, domain, lows, highs, null));
            }
            if (type.equals(DOUBLE)) {
                return Optional.of(new ColumnPredicate(column, domain, null, null, ranges));
            }
        }
        return Optional.of(new ColumnPredicate(column, domain, null, null, null));
    }

    LanceColumnHandle column()
    {
        return column;
    }

    /**
     * Keeps those of {@code positions[0, count)} whose value matches, in order; returns how many are kept.
     */
    int filter(Block block, int[] positions, int count)
    {
        if (domain.isNone()) {
            return 0;
        }
        if (block instanceof DictionaryBlock dictionaryBlock) {
            return filterDictionary(dictionaryBlock, positions, count);
        }
        if (block instanceof RunLengthEncodedBlock rle) {
            return matches(rle.getValue(), 0) ? count : 0;
        }
        if (longLows != null) {
            return filterLongs(block, positions, count);
        }
        if (doubleLows != null) {
            return filterDoubles(block, positions, count);
        }
        Type type = column.type();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int position = positions[i];
            if (domain.includesNullableValue(readNativeValue(type, block, position))) {
                positions[kept++] = position;
            }
        }
        return kept;
    }

    /**
     * Evaluates each dictionary entry once, when a position first refers to it (a page's batches share one dictionary,
     * so its verdicts are kept for the next batch), as Trino's own filter does with dictionaries.
     */
    private int filterDictionary(DictionaryBlock block, int[] positions, int count)
    {
        Block dictionary = block.getDictionary();
        if (dictionary != verdictsOf) {
            verdictsOf = dictionary;
            verdicts = new byte[dictionary.getPositionCount()];
        }
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int position = positions[i];
            int id = block.getId(position);
            byte verdict = verdicts[id];
            if (verdict == UNKNOWN) {
                verdict = matches(dictionary, id) ? MATCHES : FAILS;
                verdicts[id] = verdict;
            }
            // written always and kept by the verdict: a branch on it mispredicts on every mixed batch
            positions[kept] = position;
            kept += verdict & MATCHES;
        }
        return kept;
    }

    private boolean matches(Block block, int position)
    {
        int[] single = {position};
        return filter(block, single, 1) == 1;
    }

    // filterLongs and filterDoubles are spelled out apart: they are the per-row loops of every narrowed scan
    private int filterLongs(Block block, int[] positions, int count)
    {
        if (!block.mayHaveNull() && longLows.length == 1) {
            if (block instanceof IntArrayBlock ints) {
                return filterIntRange(ints, positions, count);
            }
            if (block instanceof LongArrayBlock longs) {
                return filterLongRange(longs, positions, count);
            }
        }
        Type type = column.type();
        boolean mayHaveNull = block.mayHaveNull();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int position = positions[i];
            boolean matches;
            if (mayHaveNull && block.isNull(position)) {
                matches = nullAllowed;
            }
            else {
                long value = type.getLong(block, position);
                matches = longLows.length <= LINEAR_SEARCH_RANGES ? inRangesLinear(value) : inRangesBinary(value);
            }
            positions[kept] = position;
            kept += matches ? 1 : 0;
        }
        return kept;
    }

    // one range over a block without nulls, the shape of most date and key filters: read from the array, kept without
    // a branch; spelled out for int and long arrays, as the per-row loops above are
    private int filterIntRange(IntArrayBlock block, int[] positions, int count)
    {
        int[] values = block.getRawValues();
        int offset = block.getRawValuesOffset();
        long low = longLows[0];
        long high = longHighs[0];
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int position = positions[i];
            long value = values[offset + position];
            positions[kept] = position;
            kept += value >= low & value <= high ? 1 : 0;
        }
        return kept;
    }

    private int filterLongRange(LongArrayBlock block, int[] positions, int count)
    {
        long[] values = block.getRawValues();
        int offset = block.getRawValuesOffset();
        long low = longLows[0];
        long high = longHighs[0];
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int position = positions[i];
            long value = values[offset + position];
            positions[kept] = position;
            kept += value >= low & value <= high ? 1 : 0;
        }
        return kept;
    }

    private boolean inRangesLinear(long value)
    {
        for (int range = 0; range < longLows.length; range++) {
            if (value >= longLows[range] && value <= longHighs[range]) {
                return true;
            }
        }
        return false;
    }

    // the ranges of a SortedRangeSet are ordered and disjoint: find the last one starting at or below the value
    private boolean inRangesBinary(long value)
    {
        int low = 0;
        int high = longLows.length - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (longLows[middle] <= value) {
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        return high >= 0 && value <= longHighs[high];
    }

    private int filterDoubles(Block block, int[] positions, int count)
    {
        boolean mayHaveNull = block.mayHaveNull();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int position = positions[i];
            boolean matches;
            if (mayHaveNull && block.isNull(position)) {
                matches = nullAllowed;
            }
            else {
                // NaN is outside every range, as in SortedRangeSet.containsValue for a set that is not all values
                double value = DOUBLE.getDouble(block, position);
                matches = false;
                for (int range = 0; range < doubleLows.length; range++) {
                    boolean aboveLow = lowInclusive[range] ? value >= doubleLows[range] : value > doubleLows[range];
                    boolean belowHigh = highInclusive[range] ? value <= doubleHighs[range] : value < doubleHighs[range];
                    if (aboveLow && belowHigh) {
                        matches = true;
                        break;
                    }
                }
            }
            if (matches) {
                positions[kept++] = position;
            }
        }
        return kept;
    }

    private static boolean comparesAsLong(Type type)
    {
        return type.equals(BIGINT) || type.equals(INTEGER) || type.equals(SMALLINT) || type.equals(TINYINT) || type.equals(DATE)
                || type instanceof DecimalType decimal && decimal.isShort()
                || type instanceof TimestampType timestamp && timestamp.isShort();
    }
}
