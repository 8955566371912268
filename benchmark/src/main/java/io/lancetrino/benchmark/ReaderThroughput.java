package io.lancetrino.benchmark;

import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.sdk.LanceSdks;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceFileReaderType;
import io.lancetrino.split.LancePageSourceProvider;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.LanceTables;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static io.lancetrino.benchmark.Measurements.median;
import static io.trino.testing.TestingConnectorSession.SESSION;

/**
 * Rows per second of the Lance SDK's own dataset scan against this connector's page source over the same table and
 * columns, both without Trino's engine above them, both using every core.
 */
public final class ReaderThroughput
{
    private ReaderThroughput() {}

    public record Result(String table, long rows, double sdkRowsPerSecond, double pageSourceRowsPerSecond, int pageSourceSplits)
    {
        public double pageSourceShare()
        {
            return pageSourceRowsPerSecond / sdkRowsPerSecond;
        }
    }

    public static Result measure(Path tableRoot, String table, int runs, LanceConfig config)
            throws Exception
    {
        return measure(tableRoot, table, List.of(), runs, config);
    }

    /**
     * Reads only {@code columns} (all when empty) in both scans.
     */
    public static Result measure(Path tableRoot, String table, List<String> columns, int runs, LanceConfig config)
            throws Exception
    {
        List<Double> sdk = new ArrayList<>();
        List<Double> pageSource = new ArrayList<>();
        long sdkRows = 0;
        long pageSourceRows = 0;
        int splits = 0;
        // alternate, as for queries; the first pair warms up the file cache and the JIT
        for (int run = 0; run <= runs; run++) {
            long start = System.nanoTime();
            sdkRows = sdkScan(tableRoot, columns, config);
            double sdkSeconds = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            PageSourceScan scan = pageSourceScan(tableRoot, columns, config);
            double pageSourceSeconds = (System.nanoTime() - start) / 1e9;
            pageSourceRows = scan.rows();
            splits = scan.splits();
            if (run > 0) {
                sdk.add(sdkRows / sdkSeconds);
                pageSource.add(pageSourceRows / pageSourceSeconds);
            }
        }
        if (sdkRows != pageSourceRows) {
            throw new IllegalStateException("The SDK scan of %s returned %s rows, the page source %s".formatted(tableRoot, sdkRows, pageSourceRows));
        }
        return new Result(table, sdkRows, median(sdk), median(pageSource), splits);
    }

    private static long sdkScan(Path tableRoot, List<String> columns, LanceConfig config)
            throws Exception
    {
        long rows = 0;
        ScanOptions.Builder options = new ScanOptions.Builder().batchSize(config.getReadBatchRows());
        if (!columns.isEmpty()) {
            options.columns(columns);
        }
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open().allocator(allocator).uri(tableRoot.toString()).build();
                LanceScanner scanner = dataset.newScan(options.build());
                ArrowReader reader = scanner.scanBatches()) {
            while (reader.loadNextBatch()) {
                rows += reader.getVectorSchemaRoot().getRowCount();
            }
        }
        return rows;
    }

    private record PageSourceScan(long rows, int splits) {}

    private static PageSourceScan pageSourceScan(Path tableRoot, List<String> columnNames, LanceConfig config)
            throws Exception
    {
        LanceTables tables = Measurements.localTables(config);
        LanceTable table = tables.open(SESSION.getIdentity(), tableRoot.toString(), tableRoot.getFileName().toString());
        TableSnapshot snapshot = table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow());
        SchemaTableName name = new SchemaTableName("bench", tableRoot.getFileName().toString());
        LanceTableHandle handle = LanceTableHandle.of(name, snapshot);
        List<ColumnHandle> columns = LanceCatalog.columns(name, snapshot, TESTING_TYPE_MANAGER).stream()
                .filter(column -> columnNames.isEmpty() || columnNames.contains(column.name()))
                .collect(ImmutableList.toImmutableList());
        List<ConnectorSplit> splits = splits(new LanceSplitManager(tables, config), handle);
        LanceSdk sdk = LanceSdks.load(config);
        LancePageSourceProvider provider = new LancePageSourceProvider(tables, config, sdk);
        AtomicInteger next = new AtomicInteger();
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Long>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                futures.add(executor.submit(() -> {
                    long rows = 0;
                    for (int index = next.getAndIncrement(); index < splits.size(); index = next.getAndIncrement()) {
                        try (ConnectorPageSource source = provider.createPageSource(null, SESSION, splits.get(index), handle, Optional.empty(), columns, DynamicFilter.EMPTY)) {
                            for (SourcePage page = source.getNextSourcePage(); page != null; page = source.getNextSourcePage()) {
                                // a reader that decodes lazily must still decode every column it returns
                                for (int channel = 0; channel < page.getChannelCount(); channel++) {
                                    page.getBlock(channel);
                                }
                                rows += page.getPositionCount();
                            }
                        }
                    }
                    return rows;
                }));
            }
            long rows = 0;
            for (Future<Long> future : futures) {
                rows += future.get();
            }
            return new PageSourceScan(rows, splits.size());
        }
        finally {
            executor.shutdownNow();
            sdk.close();
        }
    }

    /**
     * The connector's configuration with the reader settings of the catalog properties given to the benchmark.
     */
    public static LanceConfig config(java.util.Map<String, String> properties)
    {
        LanceConfig config = new LanceConfig();
        java.util.Optional.ofNullable(properties.get("lance.read-batch-rows")).map(Integer::parseInt).ifPresent(config::setReadBatchRows);
        java.util.Optional.ofNullable(properties.get("lance.max-split-rows")).map(Integer::parseInt).ifPresent(config::setMaxSplitRows);
        java.util.Optional.ofNullable(properties.get("lance.file-reader")).map(value -> LanceFileReaderType.valueOf(value.toUpperCase(java.util.Locale.ENGLISH))).ifPresent(config::setFileReader);
        return config;
    }

    static List<ConnectorSplit> splits(LanceSplitManager splitManager, LanceTableHandle handle)
            throws Exception
    {
        List<ConnectorSplit> splits = new ArrayList<>();
        try (ConnectorSplitSource source = splitManager.getSplits(null, SESSION, handle, java.util.Set.of(), Constraint.alwaysTrue())) {
            while (!source.isFinished()) {
                splits.addAll(source.getNextBatch(10_000, io.trino.spi.connector.DynamicFilterSnapshot.EMPTY).get());
            }
        }
        return splits;
    }
}
