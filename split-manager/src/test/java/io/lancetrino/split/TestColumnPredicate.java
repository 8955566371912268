package io.lancetrino.split;

import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

final class TestColumnPredicate
{
    @Test
    void testLongRangesWithExclusiveBounds()
    {
        Domain domain = Domain.create(ValueSet.ofRanges(Range.range(BIGINT, 2L, false, 4L, true), Range.greaterThan(BIGINT, Long.MAX_VALUE - 1)), false);
        assertThat(kept(BIGINT, domain, 1L, 2L, 3L, 4L, 5L, null, Long.MAX_VALUE)).containsExactly(2, 3, 6);
    }

    @Test
    void testExclusiveBoundAtTheEndOfTheLongRangeMatchesNothing()
    {
        Domain domain = Domain.create(ValueSet.ofRanges(Range.lessThan(BIGINT, Long.MIN_VALUE)), true);
        assertThat(kept(BIGINT, domain, Long.MIN_VALUE, 0L, null)).containsExactly(2);
    }

    @Test
    void testManyKeysAgreeWithTheDomain()
    {
        // a join's dynamic filter: thousands of keys, plus ranges with exclusive ends, one of them empty
        Random random = new Random(7);
        List<Range> ranges = new ArrayList<>();
        ranges.add(Range.lessThan(BIGINT, Long.MIN_VALUE));
        ranges.add(Range.range(BIGINT, -50L, false, -40L, false));
        for (int i = 0; i < 3000; i++) {
            ranges.add(Range.equal(BIGINT, (long) random.nextInt(100_000)));
        }
        ranges.add(Range.greaterThan(BIGINT, 200_000L));
        Domain domain = Domain.create(ValueSet.ofRanges(ranges), false);
        Object[] values = new Object[5000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 97 == 0 ? null : (long) random.nextInt(-100, 300_000);
        }
        values[1] = -50L;
        values[2] = -49L;
        values[3] = 200_001L;
        List<Integer> expected = IntStream.range(0, values.length)
                .filter(i -> domain.includesNullableValue(values[i]))
                .boxed()
                .toList();
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(kept(BIGINT, domain, values)).isEqualTo(expected);
    }

    @Test
    void testOneRangeOverBlocksWithoutNullsAgreesWithTheDomain()
    {
        // the array fast path: a region of the block (so its values start past the array's first), every third
        // position, ranges with exclusive bounds
        Random random = new Random(11);
        for (Type type : List.of(BIGINT, INTEGER, DATE)) {
            Domain domain = Domain.create(ValueSet.ofRanges(Range.range(type, -20L, false, 30L, true)), false);
            BlockBuilder builder = type.createBlockBuilder(null, 3000);
            Object[] values = new Object[3000];
            for (int i = 0; i < values.length; i++) {
                values[i] = (long) random.nextInt(-60, 60);
                writeNativeValue(type, builder, values[i]);
            }
            Block region = builder.build().getRegion(100, 2900);
            int[] positions = IntStream.iterate(0, i -> i < 2900, i -> i + 3).toArray();
            int count = ColumnPredicate.of(column(type), domain).orElseThrow().filter(region, positions, positions.length);
            List<Integer> expected = IntStream.iterate(0, i -> i < 2900, i -> i + 3)
                    .filter(i -> domain.includesNullableValue(values[100 + i]))
                    .boxed()
                    .toList();
            assertThat(expected).hasSizeBetween(200, 800);
            assertThat(Arrays.stream(positions, 0, count).boxed().toList()).as(type.toString()).isEqualTo(expected);
        }
    }

    @Test
    void testDoublesKeepNaNOutOfRanges()
    {
        Domain domain = Domain.create(ValueSet.ofRanges(Range.greaterThanOrEqual(DOUBLE, 0.5), Range.lessThan(DOUBLE, -1.0)), false);
        assertThat(kept(DOUBLE, domain, 0.5, 0.49, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -1.0, null)).containsExactly(0, 3, 4);
    }

    @Test
    void testOtherTypesUseTheDomain()
    {
        Domain domain = Domain.multipleValues(VARCHAR, List.of(Slices.utf8Slice("b"), Slices.utf8Slice("d")));
        assertThat(kept(VARCHAR, domain, Slices.utf8Slice("a"), Slices.utf8Slice("b"), null, Slices.utf8Slice("d"))).containsExactly(1, 3);
    }

    @Test
    void testOnlyNull()
    {
        assertThat(kept(BIGINT, Domain.onlyNull(BIGINT), 1L, null, 3L)).containsExactly(1);
        assertThat(kept(BIGINT, Domain.notNull(BIGINT), 1L, null, 3L)).containsExactly(0, 2);
    }

    @Test
    void testEveryValueNeedsNoPredicate()
    {
        assertThat(ColumnPredicate.of(column(BIGINT), Domain.all(BIGINT))).isEmpty();
    }

    @Test
    void testDictionaryAndRunLengthBlocksAgreeWithTheirValues()
    {
        Domain domain = Domain.create(ValueSet.of(VARCHAR, Slices.utf8Slice("AIR"), Slices.utf8Slice("MAIL")), true);
        BlockBuilder builder = VARCHAR.createBlockBuilder(null, 4);
        for (String value : new String[] {"AIR", "RAIL", null, "MAIL"}) {
            writeNativeValue(VARCHAR, builder, value == null ? null : Slices.utf8Slice(value));
        }
        Block dictionary = builder.build();
        int[] ids = {0, 1, 2, 3, 1, 0, 2, 1};
        ColumnPredicate predicate = ColumnPredicate.of(column(VARCHAR), domain).orElseThrow();
        // twice: the second batch of the page reuses the verdicts of the first
        for (int batch = 0; batch < 2; batch++) {
            int[] positions = IntStream.range(0, ids.length).toArray();
            int count = predicate.filter(io.trino.spi.block.DictionaryBlock.create(ids.length, dictionary, ids), positions, ids.length);
            assertThat(Arrays.stream(positions, 0, count).boxed().toList()).containsExactly(0, 2, 3, 5, 6);
        }
        int[] positions = IntStream.range(0, 3).toArray();
        assertThat(predicate.filter(io.trino.spi.block.RunLengthEncodedBlock.create(dictionary.getRegion(1, 1), 3), positions, 3)).isZero();
        assertThat(predicate.filter(io.trino.spi.block.RunLengthEncodedBlock.create(dictionary.getRegion(2, 1), 3), positions, 3)).isEqualTo(3);
    }

    private static List<Integer> kept(Type type, Domain domain, Object... values)
    {
        BlockBuilder builder = type.createBlockBuilder(null, values.length);
        for (Object value : values) {
            writeNativeValue(type, builder, value);
        }
        Block block = builder.build();
        int[] positions = new int[values.length];
        Arrays.setAll(positions, i -> i);
        int count = ColumnPredicate.of(column(type), domain).orElseThrow().filter(block, positions, values.length);
        return Arrays.stream(positions, 0, count).boxed().toList();
    }

    private static LanceColumnHandle column(Type type)
    {
        return new LanceColumnHandle("c", 0, List.of(0), type, true);
    }
}
