package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.metrics.Metrics;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Planned splits, handed out after Trino has waited up to {@code waitTimeoutMillis} for the dynamic filters of a
 * join, so that the page sources start with the build side's keys and decode the other columns only where they match.
 */
final class LanceSplitSource
        implements ConnectorSplitSource
{
    private final List<ConnectorSplit> splits;
    private final long waitTimeoutMillis;
    private final Metrics metrics;
    private int next;

    LanceSplitSource(List<ConnectorSplit> splits, long waitTimeoutMillis)
    {
        this(splits, waitTimeoutMillis, Metrics.EMPTY);
    }

    LanceSplitSource(List<ConnectorSplit> splits, long waitTimeoutMillis, Metrics metrics)
    {
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.splits = ImmutableList.copyOf(requireNonNull(splits, "splits is null"));
        this.waitTimeoutMillis = waitTimeoutMillis;
    }

    @Override
    public synchronized CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilter)
    {
        if (dynamicFilter.currentPredicate().isNone()) {
            // the join's build side is empty: no row of this table can match
            next = splits.size();
            return CompletableFuture.completedFuture(ImmutableList.of());
        }
        int end = Math.min(splits.size(), next + maxSize);
        List<ConnectorSplit> batch = splits.subList(next, end);
        next = end;
        return CompletableFuture.completedFuture(batch);
    }

    @Override
    public synchronized boolean isFinished()
    {
        return next >= splits.size();
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return waitTimeoutMillis;
    }

    /** What planning did, such as which scalar indexes answered; EXPLAIN ANALYZE VERBOSE shows it. */
    @Override
    public Metrics getMetrics()
    {
        return metrics;
    }

    @Override
    public void close() {}
}
