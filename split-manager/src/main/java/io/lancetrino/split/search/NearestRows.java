package io.lancetrino.split.search;

import io.trino.spi.Page;
import io.trino.spi.block.Block;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.trino.spi.type.DoubleType.DOUBLE;
import static java.util.Objects.requireNonNull;

/**
 * The nearest rows of one split: pages are added as they are read, and only rows that can still be among the
 * {@code count} nearest are kept. Every row tied with the last of them is kept too, so whatever the engine's final
 * top-N breaks ties by (a second sort key), its answer is among the rows returned.
 */
final class NearestRows
{
    private final VectorTopN topN;
    private final int distanceChannel;
    private final Comparator<Double> order;
    private final long compactAbove;
    private final List<Page> pages = new ArrayList<>();
    private long rows;
    // the count-th nearest value once count rows were seen (null: none yet, or a NULL distance)
    private boolean hasThreshold;
    private Double threshold;

    NearestRows(VectorTopN topN, int distanceChannel)
    {
        this.topN = requireNonNull(topN, "topN is null");
        this.distanceChannel = distanceChannel;
        this.order = order(topN);
        this.compactAbove = Math.max(2 * topN.count(), 4096);
    }

    /**
     * The engine's order of the distance: NULL first or last as asked, -0.0 equal to 0.0, NaN above every number.
     */
    private static Comparator<Double> order(VectorTopN topN)
    {
        Comparator<Double> values = (a, b) -> Double.compare(a == 0 ? 0.0 : a, b == 0 ? 0.0 : b);
        if (topN.descending()) {
            values = values.reversed();
        }
        return topN.nullsFirst() ? Comparator.nullsFirst(values) : Comparator.nullsLast(values);
    }

    void add(Page page)
    {
        if (hasThreshold) {
            page = nearEnough(page);
            if (page == null) {
                return;
            }
        }
        pages.add(page);
        rows += page.getPositionCount();
        if (rows > compactAbove) {
            compact();
        }
    }

    /** The kept rows, in the pages they were read in. */
    List<Page> result()
    {
        compact();
        return List.copyOf(pages);
    }

    /**
     * The kept rows nearest first: one page when they were read in one, else a page per row (a search's top k is
     * small).
     */
    List<Page> sortedResult()
    {
        compact();
        List<int[]> rows = new ArrayList<>();
        for (int page = 0; page < pages.size(); page++) {
            for (int position = 0; position < pages.get(page).getPositionCount(); position++) {
                rows.add(new int[] {page, position});
            }
        }
        rows.sort((left, right) -> order.compare(
                distance(pages.get(left[0]).getBlock(distanceChannel), left[1]),
                distance(pages.get(right[0]).getBlock(distanceChannel), right[1])));
        if (pages.size() == 1) {
            return List.of(pages.getFirst().copyPositions(rows.stream().mapToInt(row -> row[1]).toArray(), 0, rows.size()));
        }
        return rows.stream().map(row -> pages.get(row[0]).copyPositions(new int[] {row[1]}, 0, 1)).toList();
    }

    private void compact()
    {
        if (rows <= topN.count()) {
            return;
        }
        List<Double> values = new ArrayList<>((int) rows);
        for (Page page : pages) {
            Block distances = page.getBlock(distanceChannel);
            for (int position = 0; position < page.getPositionCount(); position++) {
                values.add(distance(distances, position));
            }
        }
        values.sort(order);
        threshold = values.get((int) topN.count() - 1);
        hasThreshold = true;
        List<Page> compacted = new ArrayList<>();
        rows = 0;
        for (Page page : pages) {
            Page kept = nearEnough(page);
            if (kept != null) {
                compacted.add(kept);
                rows += kept.getPositionCount();
            }
        }
        pages.clear();
        pages.addAll(compacted);
    }

    /** The rows of the page no farther than the threshold, or null when there are none. */
    private Page nearEnough(Page page)
    {
        Block distances = page.getBlock(distanceChannel);
        int[] kept = new int[page.getPositionCount()];
        int count = 0;
        for (int position = 0; position < page.getPositionCount(); position++) {
            if (order.compare(distance(distances, position), threshold) <= 0) {
                kept[count++] = position;
            }
        }
        if (count == 0) {
            return null;
        }
        return count == page.getPositionCount() ? page : page.copyPositions(kept, 0, count);
    }

    private static Double distance(Block distances, int position)
    {
        return distances.isNull(position) ? null : DOUBLE.getDouble(distances, position);
    }
}
