package io.lancetrino.split;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

final class TestRowRanges
{
    @Test
    void testSurvivingRangesSkipDeletedRows()
    {
        RoaringBitmap deleted = RoaringBitmap.bitmapOf(0, 1, 5, 9, 10, 20);
        assertThat(describe(RowRanges.surviving(0, 12, deleted))).containsExactly("2-5", "6-9", "11-12");
        assertThat(RowRanges.count(RowRanges.surviving(0, 12, deleted))).isEqualTo(7);
    }

    @Test
    void testRangeInsideFragment()
    {
        RoaringBitmap deleted = RoaringBitmap.bitmapOf(3, 50, 51, 99, 150);
        assertThat(describe(RowRanges.surviving(50, 100, deleted))).containsExactly("52-99");
        assertThat(describe(RowRanges.surviving(100, 150, deleted))).containsExactly("100-150");
        assertThat(RowRanges.surviving(50, 52, deleted)).isEmpty();
    }

    @Test
    void testNoDeletions()
    {
        assertThat(describe(RowRanges.surviving(0, 10, new RoaringBitmap()))).containsExactly("0-10");
        assertThat(RowRanges.surviving(5, 5, new RoaringBitmap())).isEmpty();
    }

    private static List<String> describe(List<RowRange> ranges)
    {
        return ranges.stream().map(range -> range.start() + "-" + range.end()).toList();
    }
}
