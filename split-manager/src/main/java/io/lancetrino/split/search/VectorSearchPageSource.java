package io.lancetrino.split.search;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.index.vector.VectorFunction;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

import static io.trino.spi.type.DoubleType.DOUBLE;
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

    public record Distance(int vectorChannel, LanceDistanceColumnHandle column)
            implements Output
    {
        public Distance
        {
            requireNonNull(column, "column is null");
        }
    }

    private final ConnectorPageSource delegate;
    private final List<Output> outputs;
    private final List<double[]> queries;
    private final Optional<NearestRows> nearest;
    private final Queue<Page> results = new ArrayDeque<>();
    private boolean collected;
    private long rowsCompared;
    private long rowsReturned;

    public VectorSearchPageSource(ConnectorPageSource delegate, List<Output> outputs, Optional<VectorTopN> topN)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.outputs = List.copyOf(outputs);
        this.queries = this.outputs.stream().map(output -> output instanceof Distance distance ? distance.column().queryVector() : null).collect(java.util.stream.Collectors.toList());
        this.nearest = topN.map(top -> new NearestRows(top, distanceChannel(this.outputs, top.distanceColumn())));
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
            results.addAll(nearest.get().result());
        }
        Page page = results.poll();
        if (page == null) {
            return null;
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
                case Distance distance -> distances(page.getBlock(distance.vectorChannel()), distance.column(), queries.get(channel));
            };
        }
        return new Page(page.getPositionCount(), blocks);
    }

    private Block distances(Block vectors, LanceDistanceColumnHandle column, double[] query)
    {
        ArrayType type = (ArrayType) column.vector().type();
        Type elementType = type.getElementType();
        VectorFunction function = column.function();
        rowsCompared += vectors.getPositionCount();
        if (vectors instanceof ArrayBlock arrays && !arrays.getRawElementBlock().mayHaveNull()
                && (arrays.getRawElementBlock() instanceof IntArrayBlock || arrays.getRawElementBlock() instanceof LongArrayBlock)) {
            return rawDistances(arrays, column, query);
        }
        double[] row = new double[query.length];
        BlockBuilder builder = DOUBLE.createFixedSizeBlockBuilder(vectors.getPositionCount());
        for (int position = 0; position < vectors.getPositionCount(); position++) {
            if (vectors.isNull(position)) {
                builder.appendNull();
                continue;
            }
            Block elements = type.getObject(vectors, position);
            VectorFunction.OptionalDoubleResult value = function.apply(query, elementType, elements, 0, elements.getPositionCount(), column.vector().name(), row);
            if (value.isNull()) {
                builder.appendNull();
            }
            else {
                DOUBLE.writeDouble(builder, value.value());
            }
        }
        return builder.build();
    }

    // vectors without NULL elements, read straight from the element block's values
    private static Block rawDistances(ArrayBlock arrays, LanceDistanceColumnHandle column, double[] query)
    {
        int positions = arrays.getPositionCount();
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        Block elements = arrays.getRawElementBlock();
        int[] floatBits = elements instanceof IntArrayBlock ints ? ints.getRawValues() : null;
        long[] doubleBits = elements instanceof LongArrayBlock longs ? longs.getRawValues() : null;
        int valuesOffset = elements instanceof IntArrayBlock ints ? ints.getRawValuesOffset() : ((LongArrayBlock) elements).getRawValuesOffset();
        double[] values = new double[positions];
        double[] row = new double[query.length];
        boolean[] nulls = null;
        VectorFunction function = column.function();
        for (int position = 0; position < positions; position++) {
            if (arrays.isNull(position)) {
                if (nulls == null) {
                    nulls = new boolean[positions];
                }
                nulls[position] = true;
                continue;
            }
            int start = offsets[base + position];
            values[position] = function.applyRaw(query, floatBits, doubleBits, valuesOffset + start, offsets[base + position + 1] - start, column.vector().name(), row);
        }
        if (nulls == null) {
            return new LongArrayBlock(positions, java.util.Optional.empty(), doubleBitsOf(values));
        }
        BlockBuilder builder = DOUBLE.createFixedSizeBlockBuilder(positions);
        for (int position = 0; position < positions; position++) {
            if (nulls[position]) {
                builder.appendNull();
            }
            else {
                DOUBLE.writeDouble(builder, values[position]);
            }
        }
        return builder.build();
    }

    private static long[] doubleBitsOf(double[] values)
    {
        long[] bits = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Double.doubleToLongBits(values[i]);
        }
        return bits;
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
