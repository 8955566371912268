package io.lancetrino.sdk;

import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceSearchSplit;
import io.lancetrino.split.search.SearchResultColumnHandle;
import io.lancetrino.split.search.TextSearch;
import io.lancetrino.split.search.VectorMetric;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.arrow.ArrowBlocks;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static java.util.Objects.requireNonNull;

/**
 * The rows of one vector or text search, run by the Lance SDK over the whole version on the first call: the table's
 * columns by name, {@code _distance} converted to the units of Trino's function for the metric, {@code _score} as
 * Lance computes it.
 */
final class SdkSearchPageSource
        implements ConnectorPageSource
{
    private static final String LANCE_DISTANCE = "_distance";
    private static final String LANCE_SCORE = "_score";
    private static final String LANCE_ROW_ADDRESS = "_rowaddr";

    private final LanceSearchSplit split;
    private final Optional<AnnSearch> vectorSearch;
    private final Optional<TextSearch> textSearch;
    private final List<ColumnHandle> columns;
    private final SdkSearches searches;
    private final Map<String, String> storageOptions;
    private final BufferAllocator allocator;
    private final Queue<Page> pages = new ArrayDeque<>();
    private boolean searched;
    private long rows;
    private long searchNanos;
    private Map<String, Long> sdkStatistics = ImmutableMap.of();

    SdkSearchPageSource(LanceSearchSplit split, Optional<AnnSearch> vectorSearch, Optional<TextSearch> textSearch, List<ColumnHandle> columns, SdkSearches searches, Map<String, String> storageOptions, BufferAllocator allocator)
    {
        this.split = requireNonNull(split, "split is null");
        this.vectorSearch = requireNonNull(vectorSearch, "vectorSearch is null");
        this.textSearch = requireNonNull(textSearch, "textSearch is null");
        if (vectorSearch.isPresent() == textSearch.isPresent()) {
            throw new IllegalArgumentException("exactly one search expected");
        }
        this.columns = List.copyOf(columns);
        this.searches = requireNonNull(searches, "searches is null");
        this.storageOptions = ImmutableMap.copyOf(storageOptions);
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (!searched) {
            searched = true;
            search();
        }
        Page page = pages.poll();
        return page == null ? null : SourcePage.create(page);
    }

    private void search()
    {
        Set<String> names = new LinkedHashSet<>();
        boolean rowAddress = false;
        for (ColumnHandle column : columns) {
            if (column instanceof LanceColumnHandle lance) {
                if (lance.isRowAddress()) {
                    rowAddress = true;
                }
                else {
                    names.add(lance.name());
                }
            }
        }
        long start = System.nanoTime();
        try {
            if (vectorSearch.isPresent()) {
                sdkStatistics = searches.vectorSearch(split.dataset(), storageOptions, allocator, vectorSearch.get(), List.copyOf(names), rowAddress, this::collect);
            }
            else {
                sdkStatistics = searches.textSearch(split.dataset(), storageOptions, allocator, textSearch.get(), List.copyOf(names), rowAddress, this::collect);
            }
        }
        catch (TrinoException e) {
            throw e;
        }
        catch (Exception e) {
            throw new TrinoException(LanceErrorCode.LANCE_SEARCH_FAILED, "Table %s: the Lance SDK failed the %s: %s".formatted(split.table(), vectorSearch.map(Object::toString).orElseGet(() -> textSearch.orElseThrow().toString()), e.getMessage()), e);
        }
        finally {
            searchNanos = System.nanoTime() - start;
        }
    }

    private void collect(ArrowReader reader)
    {
        try {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                int count = root.getRowCount();
                if (count == 0) {
                    continue;
                }
                Block[] blocks = new Block[columns.size()];
                for (int channel = 0; channel < columns.size(); channel++) {
                    blocks[channel] = switch (columns.get(channel)) {
                        case LanceColumnHandle column when column.isRowAddress() -> rowAddresses((UInt8Vector) root.getVector(LANCE_ROW_ADDRESS), count);
                        case LanceColumnHandle column -> ArrowBlocks.toBlock(column.type(), root.getVector(column.name()), reader);
                        case SearchResultColumnHandle result when result.name().equals(SearchResultColumnHandle.DISTANCE) -> doubles(root.getVector(LANCE_DISTANCE), count, vectorSearch.orElseThrow().metric());
                        case SearchResultColumnHandle _ -> doubles(root.getVector(LANCE_SCORE), count, null);
                        default -> throw new IllegalArgumentException("not a column of a search: " + columns.get(channel));
                    };
                }
                rows += count;
                pages.add(new Page(count, blocks));
            }
        }
        catch (IOException e) {
            throw new TrinoException(LanceErrorCode.LANCE_SEARCH_FAILED, "Table %s: reading the results of a search failed: %s".formatted(split.table(), e.getMessage()), e);
        }
    }

    private static Block rowAddresses(UInt8Vector vector, int count)
    {
        BlockBuilder builder = BIGINT.createFixedSizeBlockBuilder(count);
        for (int i = 0; i < count; i++) {
            BIGINT.writeLong(builder, vector.getObjectNoOverflow(i).longValueExact());
        }
        return builder.build();
    }

    /** Lance's float distances or scores as doubles, distances in the units of Trino's function for the metric. */
    private static Block doubles(FieldVector vector, int count, VectorMetric metric)
    {
        FloatingPointVector values = (FloatingPointVector) vector;
        BlockBuilder builder = DOUBLE.createFixedSizeBlockBuilder(count);
        for (int i = 0; i < count; i++) {
            if (vector.isNull(i)) {
                builder.appendNull();
                continue;
            }
            double value = values.getValueAsDouble(i);
            DOUBLE.writeDouble(builder, metric == null ? value : metric.toTrino(value));
        }
        return builder.build();
    }

    @Override
    public boolean isFinished()
    {
        return searched && pages.isEmpty();
    }

    @Override
    public long getCompletedBytes()
    {
        return 0;
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(rows);
    }

    @Override
    public long getReadTimeNanos()
    {
        return searchNanos;
    }

    @Override
    public long getMemoryUsage()
    {
        return allocator.getAllocatedMemory();
    }

    /** The search as planned, and what it returned, for {@code EXPLAIN ANALYZE VERBOSE}. */
    @Override
    public Metrics getMetrics()
    {
        ImmutableMap.Builder<String, io.trino.spi.metrics.Metric<?>> metrics = ImmutableMap.builder();
        metrics.put("searchRowsReturned", new LongCount(rows));
        metrics.put("searchMillis", new LongCount(searchNanos / 1_000_000));
        vectorSearch.ifPresent(search -> {
            search.indexName().ifPresent(index -> metrics.put("vectorIndex:" + index, new LongCount(1)));
            search.nprobes().ifPresent(nprobes -> metrics.put("vectorNprobes", new LongCount(nprobes)));
            search.refineFactor().ifPresent(factor -> metrics.put("vectorRowsRefined", new LongCount((long) factor * search.k())));
        });
        textSearch.ifPresent(search -> search.indexNames().forEach(index -> metrics.put("textIndex:" + index, new LongCount(1))));
        // the SDK's own counts: partitions loaded, index comparisons, rows scanned flat, bytes read
        sdkStatistics.forEach((name, value) -> metrics.put("sdk:" + name, new LongCount(value)));
        return new Metrics(metrics.buildKeepingLast());
    }

    @Override
    public void close()
    {
        pages.clear();
        allocator.close();
    }
}
