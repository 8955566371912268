package io.lancetrino.split.search;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.index.vector.VectorFunction;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.type.ArrayType;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * Computes the distance columns of a scan from the vectors its page source decodes and, with a pushed top-N, returns
 * only the split's nearest rows. The distance is computed as the engine computes it ({@link VectorFunction}), so the
 * engine's final top-N over all splits gives exactly the answer it gives without the pushdown.
 */
public final class VectorSearchPageSource
        implements ConnectorPageSource
{
    /** An output column: a column of the underlying page source, or a distance of one of its vector columns. */
    public sealed interface Output
            permits Read, Distance {}

    public record Read(int channel)
            implements Output {}

    public record Distance(int vectorChannel, LanceDistanceColumnHandle column, double[] query)
            implements Output
    {
        public Distance
        {
            requireNonNull(column, "column is null");
            requireNonNull(query, "query is null");
        }

        public Distance(int vectorChannel, LanceDistanceColumnHandle column)
        {
            this(vectorChannel, column, column.queryVector());
        }
    }

    private final ConnectorPageSource delegate;
    private final List<Output> outputs;
    private final Optional<NearestRows> nearest;
    private final boolean sorted;
    // the outputs returned when some are computed only to order by; null when all are
    private final int[] visibleChannels;
    private final Queue<Page> results = new ArrayDeque<>();
    private boolean collected;
    private long rowsCompared;
    private long rowsReturned;

    public VectorSearchPageSource(ConnectorPageSource delegate, List<Output> outputs, Optional<VectorTopN> topN)
    {
        this(delegate, outputs, topN, false, outputs.size());
    }

    /**
     * @param sorted whether the rows kept are returned nearest first, for an engine that relies on the scan's order
     * @param visibleChannels outputs returned; those after them (a distance computed only to order by) are dropped
     */
    public VectorSearchPageSource(ConnectorPageSource delegate, List<Output> outputs, Optional<VectorTopN> topN, boolean sorted, int visibleChannels)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.outputs = List.copyOf(outputs);
        this.nearest = topN.map(top -> new NearestRows(top, distanceChannel(this.outputs, top.distanceColumn())));
        this.sorted = sorted;
        this.visibleChannels = visibleChannels < this.outputs.size() ? IntStream.range(0, visibleChannels).toArray() : null;
    }

    private static int distanceChannel(List<Output> outputs, String name)
    {
        for (int channel = 0; channel < outputs.size(); channel++) {
            if (outputs.get(channel) instanceof Distance distance && distance.column().name().equals(name)) {
                return channel;
            }
        }
        throw new IllegalArgumentException("top-N over a column the scan does not compute: " + name);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (nearest.isEmpty()) {
            SourcePage page = delegate.getNextSourcePage();
            if (page == null) {
                return null;
            }
            Page projected = project(page.getPage());
            rowsReturned += projected.getPositionCount();
            return SourcePage.create(projected);
        }
        if (!collected) {
            SourcePage page = delegate.getNextSourcePage();
            if (page != null && page.getPositionCount() > 0) {
                nearest.get().add(project(page.getPage()));
            }
            if (!delegate.isFinished()) {
                return null;
            }
            collected = true;
            results.addAll(sorted ? nearest.get().sortedResult() : nearest.get().result());
        }
        Page page = results.poll();
        if (page == null) {
            return null;
        }
        if (visibleChannels != null) {
            page = page.getColumns(visibleChannels);
        }
        rowsReturned += page.getPositionCount();
        return SourcePage.create(page);
    }

    private Page project(Page page)
    {
        Block[] blocks = new Block[outputs.size()];
        for (int channel = 0; channel < outputs.size(); channel++) {
            blocks[channel] = switch (outputs.get(channel)) {
                case Read read -> page.getBlock(read.channel());
                case Distance distance -> distances(page.getBlock(distance.vectorChannel()), distance.column(), distance.query());
            };
        }
        return new Page(page.getPositionCount(), blocks);
    }

    /**
     * The distance of each row's vector. Vectors without NULL elements in an array block are read straight from the
     * element block's values; others element by element.
     */
    private Block distances(Block vectors, LanceDistanceColumnHandle column, double[] query)
    {
        int positions = vectors.getPositionCount();
        rowsCompared += positions;
        ArrayType type = (ArrayType) column.vector().type();
        VectorFunction function = column.function();
        String name = column.vector().name();
        RawVectors raw = RawVectors.of(vectors);
        double[] row = new double[query.length];
        long[] values = new long[positions];
        long[] valid = new long[(positions + 63) >>> 6];
        boolean anyNull = false;
        for (int position = 0; position < positions; position++) {
            double distance;
            if (vectors.isNull(position)) {
                anyNull = true;
                continue;
            }
            if (raw != null) {
                distance = function.applyRaw(query, raw.floatBits(), raw.doubleBits(), raw.start(position), raw.length(position), name, row);
            }
            else {
                Block elements = type.getObject(vectors, position);
                VectorFunction.OptionalDoubleResult result = function.apply(query, type.getElementType(), elements, 0, elements.getPositionCount(), name, row);
                if (result.isNull()) {
                    anyNull = true;
                    continue;
                }
                distance = result.value();
            }
            values[position] = Double.doubleToLongBits(distance);
            valid[position >>> 6] |= 1L << (position & 63);
        }
        return new LongArrayBlock(positions, anyNull ? Optional.of(valid) : Optional.empty(), values);
    }

    /** The values of an array block of real or double vectors without NULL elements, with its offsets. */
    private record RawVectors(int[] floatBits, long[] doubleBits, int valuesOffset, int[] offsets, int offsetBase)
    {
        static RawVectors of(Block vectors)
        {
            if (!(vectors instanceof ArrayBlock arrays) || arrays.getRawElementBlock().mayHaveNull()) {
                return null;
            }
            return switch (arrays.getRawElementBlock()) {
                case IntArrayBlock ints -> new RawVectors(ints.getRawValues(), null, ints.getRawValuesOffset(), arrays.getRawOffsets(), arrays.getOffsetBase());
                case LongArrayBlock longs -> new RawVectors(null, longs.getRawValues(), longs.getRawValuesOffset(), arrays.getRawOffsets(), arrays.getOffsetBase());
                default -> null;
            };
        }

        int start(int position)
        {
            return valuesOffset + offsets[offsetBase + position];
        }

        int length(int position)
        {
            return offsets[offsetBase + position + 1] - offsets[offsetBase + position];
        }
    }

    @Override
    public boolean isFinished()
    {
        if (nearest.isEmpty()) {
            return delegate.isFinished();
        }
        return collected && results.isEmpty();
    }

    @Override
    public long getCompletedBytes()
    {
        return delegate.getCompletedBytes();
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return delegate.getCompletedPositions();
    }

    @Override
    public long getReadTimeNanos()
    {
        return delegate.getReadTimeNanos();
    }

    @Override
    public long getMemoryUsage()
    {
        return delegate.getMemoryUsage();
    }

    @Override
    public CompletableFuture<?> isBlocked()
    {
        return collected ? NOT_BLOCKED : delegate.isBlocked();
    }

    /** The reader's metrics, and the vectors compared and rows returned, for {@code EXPLAIN ANALYZE VERBOSE}. */
    @Override
    public Metrics getMetrics()
    {
        return delegate.getMetrics().mergeWith(new Metrics(ImmutableMap.of(
                "vectorRowsCompared", new LongCount(rowsCompared),
                "vectorRowsReturned", new LongCount(rowsReturned))));
    }

    @Override
    public void close()
            throws IOException
    {
        delegate.close();
    }
}
