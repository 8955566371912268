package io.lancetrino.split;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

final class TestPredicateRanges
{
    @Test
    void testKeptPositionsBecomeRowRangesWithinTheSourceRanges()
    {
        // rows 10-19 are deleted: batch positions 0-9 are rows 0-9, positions 10-19 are rows 20-29
        PredicateRanges.RangesBuilder builder = new PredicateRanges.RangesBuilder(List.of(RowRange.of(0, 10), RowRange.of(20, 30)));
        builder.add(new int[] {0, 1, 2, 9, 10, 19}, 6, 20);
        // close rows of one source range are read together, but never across the deleted rows
        assertThat(describe(builder.build())).containsExactly("0-10", "20-30");
    }

    @Test
    void testDistantRowsStayApartAcrossBatches()
    {
        PredicateRanges.RangesBuilder builder = new PredicateRanges.RangesBuilder(List.of(RowRange.of(100, 5100)));
        builder.add(new int[] {0, 10}, 2, 2500);
        assertThat(builder.coveredRows()).isEqualTo(11);
        builder.add(new int[] {0, 2499}, 2, 2500);
        // rows 100 and 110 merge; 2600 and 5099 are more than the merge gap apart
        assertThat(describe(builder.build())).containsExactly("100-111", "2600-2601", "5099-5100");
        assertThat(builder.coveredRows()).isEqualTo(13);
    }

    @Test
    void testNothingKept()
    {
        PredicateRanges.RangesBuilder builder = new PredicateRanges.RangesBuilder(List.of(RowRange.of(0, 5), RowRange.of(7, 9)));
        builder.add(new int[0], 0, 7);
        assertThat(builder.build()).isEmpty();
    }

    @Test
    void testPositionsSpanningManySourceRanges()
    {
        PredicateRanges.RangesBuilder builder = new PredicateRanges.RangesBuilder(List.of(RowRange.of(0, 1), RowRange.of(2, 3), RowRange.of(4, 5), RowRange.of(6, 7)));
        builder.add(new int[] {1, 3}, 2, 4);
        assertThat(describe(builder.build())).containsExactly("2-3", "6-7");
    }

    private static List<String> describe(List<RowRange> ranges)
    {
        return ranges.stream().map(range -> range.start() + "-" + range.end()).toList();
    }
}
