package io.lancetrino.split.search;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A split's nearest rows: the {@code count} nearest, every row tied with the last of them, and nothing farther, in
 * the engine's order (NULLs first or last, DESC, -0.0 equal to 0.0), across pages and compactions.
 */
final class TestNearestRows
{
    @Test
    void testKeepsTiesAndOrdersNulls()
    {
        List<Double> distances = java.util.Arrays.asList(5.0, 1.0, 3.0, null, 1.0, 2.0, -0.0, 0.0, Double.NaN);
        assertThat(kept(distances, new VectorTopN("d", 1, false, false))).containsExactlyInAnyOrder(6L, 7L);
        assertThat(kept(distances, new VectorTopN("d", 3, false, false))).containsExactlyInAnyOrder(6L, 7L, 1L, 4L);
        assertThat(kept(distances, new VectorTopN("d", 1, false, true))).containsExactly(3L);
        // descending: NaN is above every number
        assertThat(kept(distances, new VectorTopN("d", 2, true, false))).containsExactlyInAnyOrder(8L, 0L);
        assertThat(kept(distances, new VectorTopN("d", 2, true, true))).containsExactlyInAnyOrder(3L, 8L);
        assertThat(kept(distances, new VectorTopN("d", 100, false, false))).hasSize(distances.size());
    }

    @Test
    void testAgreesWithSortingAcrossPagesAndCompactions()
    {
        Random random = new Random(17);
        for (int round = 0; round < 20; round++) {
            List<Double> distances = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                // few distinct values, so ties cross the cut
                distances.add(random.nextInt(50) == 0 ? null : (double) random.nextInt(2_000));
            }
            boolean descending = random.nextBoolean();
            VectorTopN topN = new VectorTopN("d", 1 + random.nextInt(100), descending, random.nextBoolean());
            Comparator<Double> order = descending ? Comparator.<Double>reverseOrder() : Comparator.<Double>naturalOrder();
            order = topN.nullsFirst() ? Comparator.nullsFirst(order) : Comparator.nullsLast(order);
            Double last = distances.stream().sorted(order).toList().get((int) topN.count() - 1);
            Comparator<Double> finalOrder = order;
            List<Long> expected = new ArrayList<>();
            for (int i = 0; i < distances.size(); i++) {
                if (finalOrder.compare(distances.get(i), last) <= 0) {
                    expected.add((long) i);
                }
            }
            assertThat(kept(distances, topN)).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** The row numbers kept, the rows added in pages of 1,000. */
    private static List<Long> kept(List<Double> distances, VectorTopN topN)
    {
        NearestRows nearest = new NearestRows(topN, 1);
        for (int start = 0; start < distances.size(); start += 1_000) {
            int end = Math.min(distances.size(), start + 1_000);
            BlockBuilder ids = BIGINT.createFixedSizeBlockBuilder(end - start);
            BlockBuilder values = DOUBLE.createFixedSizeBlockBuilder(end - start);
            for (int i = start; i < end; i++) {
                BIGINT.writeLong(ids, i);
                if (distances.get(i) == null) {
                    values.appendNull();
                }
                else {
                    DOUBLE.writeDouble(values, distances.get(i));
                }
            }
            nearest.add(new Page(ids.build(), values.build()));
        }
        List<Long> rows = new ArrayList<>();
        for (Page page : nearest.result()) {
            Block ids = page.getBlock(0);
            for (int position = 0; position < page.getPositionCount(); position++) {
                rows.add(BIGINT.getLong(ids, position));
            }
        }
        return rows;
    }
}
