package io.lancetrino.sdk;

import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.TextSearch;
import io.lancetrino.split.search.VectorMetric;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.split.JvmRequirements;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.fs.LanceFileSystems;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Session;
import org.lance.index.DistanceType;
import org.lance.ipc.FullTextQuery;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;
import org.lance.ipc.ScanStats;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Vector and text searches run by the Lance SDK. One SDK session per catalog keeps the indexes' centroids, codebooks
 * and graphs cached between queries (opening a dataset in it costs well under a millisecond); it is created on the
 * first search, so scans that never search never load it. The SDK's synchronous scanner is used: its asynchronous one
 * completes from a native thread, which cannot load a plugin's classes.
 */
final class SdkSearches
        implements AutoCloseable
{
    private final long indexCacheBytes;
    private final long metadataCacheBytes;
    private Session session;

    SdkSearches(long indexCacheBytes, long metadataCacheBytes)
    {
        this.indexCacheBytes = indexCacheBytes;
        this.metadataCacheBytes = metadataCacheBytes;
    }

    private synchronized Session session()
    {
        if (session == null) {
            session = Session.create(indexCacheBytes, metadataCacheBytes);
        }
        return session;
    }

    /** The columns of the search's top k, with {@code _distance} (and {@code _rowaddr} when asked), batch by batch. */
    public Map<String, Long> vectorSearch(LanceSplit.DatasetVersion version, Map<String, String> storageOptions, BufferAllocator allocator, AnnSearch search, List<String> columns, boolean rowAddress, Consumer<ArrowReader> results)
            throws Exception
    {
        Query.Builder query = new Query.Builder()
                .setColumn(search.vector().name())
                .setKey(search.queryVector())
                .setK(search.k())
                .setDistanceType(distanceType(search.metric()));
        search.nprobes().ifPresent(query::setNprobes);
        search.refineFactor().ifPresent(query::setRefineFactor);
        search.ef().ifPresent(query::setEf);
        if (search.indexName().isEmpty()) {
            query.setUseIndex(false);
        }
        ScanOptions.Builder options = options(columns, "_distance", rowAddress, search.filter()).nearest(query.build());
        return scan(version, storageOptions, allocator, options.build(), results);
    }

    /** The columns of the search's best k rows, with {@code _score} (and {@code _rowaddr} when asked). */
    public Map<String, Long> textSearch(LanceSplit.DatasetVersion version, Map<String, String> storageOptions, BufferAllocator allocator, TextSearch search, List<String> columns, boolean rowAddress, Consumer<ArrowReader> results)
            throws Exception
    {
        FullTextQuery query;
        if (search.phrase()) {
            query = FullTextQuery.phrase(search.query(), search.columns().getFirst());
        }
        else if (search.columns().size() == 1) {
            query = FullTextQuery.match(search.query(), search.columns().getFirst());
        }
        else {
            query = FullTextQuery.multiMatch(search.query(), search.columns());
        }
        ScanOptions.Builder options = options(columns, "_score", rowAddress, search.filter()).fullTextQuery(query).limit(search.k());
        return scan(version, storageOptions, allocator, options.build(), results);
    }

    /** Runs the scan and hands its batches to {@code results}; returns the SDK's statistics of the scan. */
    private Map<String, Long> scan(LanceSplit.DatasetVersion version, Map<String, String> storageOptions, BufferAllocator allocator, ScanOptions options, Consumer<ArrowReader> results)
            throws Exception
    {
        requireNonNull(results, "results is null");
        JvmRequirements.checkSdk("search %s".formatted(version.location()));
        try (Dataset dataset = Dataset.open()
                .allocator(allocator)
                .uri(LanceFileSystems.nativeLocation(version.location()))
                .readOptions(new ReadOptions.Builder().setVersion(version.version()).setStorageOptions(storageOptions).build())
                .session(session())
                .build();
                LanceScanner scanner = dataset.newScan(options)) {
            try (ArrowReader reader = scanner.scanBatches()) {
                results.accept(reader);
            }
            return scanner.getStats().map(SdkSearches::statistics).orElse(ImmutableMap.of());
        }
    }

    private static Map<String, Long> statistics(ScanStats stats)
    {
        ImmutableMap.Builder<String, Long> counts = ImmutableMap.builder();
        counts.put("indicesLoaded", stats.getIndicesLoaded());
        counts.put("partsLoaded", stats.getPartsLoaded());
        counts.put("indexComparisons", stats.getIndexComparisons());
        counts.put("bytesRead", stats.getBytesRead());
        counts.put("iops", stats.getIops());
        counts.putAll(stats.getAllCounts());
        return counts.buildKeepingLast();
    }

    /**
     * What every search scans: the columns asked for and the score column (naming it keeps the SDK from warning, per
     * search, that it adds it unasked), the filter applied before the top k, with the SDK's statistics.
     */
    private static ScanOptions.Builder options(List<String> columns, String scoreColumn, boolean rowAddress, Optional<String> filter)
    {
        ScanOptions.Builder options = new ScanOptions.Builder()
                .columns(ImmutableList.<String>builder().addAll(columns).add(scoreColumn).build())
                .withRowAddress(rowAddress)
                .prefilter(true)
                .collectStats(true);
        filter.ifPresent(options::filter);
        return options;
    }

    private static DistanceType distanceType(VectorMetric metric)
    {
        return switch (metric) {
            case L2 -> DistanceType.L2;
            case COSINE -> DistanceType.Cosine;
            case DOT -> DistanceType.Dot;
        };
    }

    @Override
    public synchronized void close()
    {
        if (session != null) {
            session.close();
            session = null;
        }
    }
}
