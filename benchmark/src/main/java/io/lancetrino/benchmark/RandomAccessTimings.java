package io.lancetrino.benchmark;

import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.sdk.LanceSdks;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.split.IndexedRows;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceFileReaderType;
import io.lancetrino.split.LancePageSourceProvider;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.LanceTables;
import io.trino.Session;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import org.roaringbitmap.RoaringBitmap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static io.lancetrino.benchmark.Measurements.median;
import static io.trino.testing.TestingConnectorSession.SESSION;
import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static java.lang.Math.toIntExact;

/**
 * Single-row lookups by row address, as a scalar index lookup hands rows to the page source: a few hundred random rows
 * of lineitem, each read alone with every column through the connector's page source (a split of one row), by the Java
 * reader and by the Lance SDK's file reader, over the files the Java writer wrote and over a copy the SDK writer wrote.
 * One thread, after a pass that warms the page cache, the JIT and the file metadata cache.
 */
public final class RandomAccessTimings
{
    static final String SDK_COPY = "random_access_sdk_files";

    private RandomAccessTimings() {}

    /**
     * @param files which writer wrote the files: {@code java} or {@code sdk}
     * @param reader which reader read them: {@code java} or {@code sdk}
     */
    public record Lookups(String files, String reader, int lookups, double medianMicros, double p90Micros) {}

    public static List<Lookups> measure(BenchmarkEnvironment environment, int lookups, long seed)
            throws Exception
    {
        Session sdkWriter = Session.builder(BenchmarkEnvironment.session("lance"))
                .setCatalogSessionProperty("lance", "file_writer", "sdk")
                .build();
        environment.runner().execute(sdkWriter, "DROP TABLE IF EXISTS " + SDK_COPY);
        environment.runner().execute(sdkWriter, "CREATE TABLE %s AS SELECT * FROM lineitem".formatted(SDK_COPY));
        try {
            ImmutableList.Builder<Lookups> results = ImmutableList.builder();
            for (String files : List.of("java", "sdk")) {
                Path table = environment.lanceTable(BenchmarkEnvironment.SCHEMA, files.equals("java") ? "lineitem" : SDK_COPY);
                for (LanceFileReaderType reader : List.of(LanceFileReaderType.JAVA, LanceFileReaderType.SDK)) {
                    results.add(lookups(table, files, reader, lookups, seed));
                }
            }
            return results.build();
        }
        finally {
            environment.runner().execute(sdkWriter, "DROP TABLE IF EXISTS " + SDK_COPY);
        }
    }

    private static Lookups lookups(Path tableRoot, String files, LanceFileReaderType readerType, int lookups, long seed)
            throws Exception
    {
        LanceConfig config = new LanceConfig().setFileReader(readerType);
        LanceTables tables = Measurements.localTables(config);
        LanceTable table = tables.open(SESSION.getIdentity(), tableRoot.toString(), tableRoot.getFileName().toString());
        TableSnapshot snapshot = table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow());
        SchemaTableName name = new SchemaTableName("bench", tableRoot.getFileName().toString());
        LanceTableHandle handle = LanceTableHandle.of(name, snapshot);
        List<ColumnHandle> columns = ImmutableList.copyOf(LanceCatalog.columns(name, snapshot, TESTING_TYPE_MANAGER));
        List<ConnectorSplit> fragments = ReaderThroughput.splits(new LanceSplitManager(tables, config), handle);
        List<Double> micros;
        try (LanceSdk sdk = LanceSdks.load(config)) {
            LancePageSourceProvider provider = new LancePageSourceProvider(tables, config, sdk);

            // the same rows for every writer and reader: positions in the table's row order, drawn from one seed
            Random random = new Random(seed);
            long totalRows = fragments.stream().mapToLong(split -> ((LanceSplit) split).endRow() - ((LanceSplit) split).startRow()).sum();
            List<LanceSplit> rows = new ArrayList<>();
            for (int lookup = 0; lookup < lookups; lookup++) {
                rows.add(oneRow(fragments, Math.floorMod(random.nextLong(), totalRows)));
            }
            micros = new ArrayList<>();
            for (int pass = 0; pass < 2; pass++) {
                for (LanceSplit row : rows) {
                    long start = System.nanoTime();
                    int read = 0;
                    try (ConnectorPageSource source = provider.createPageSource(null, SESSION, row, handle, Optional.empty(), columns, DynamicFilter.EMPTY)) {
                        for (SourcePage page = source.getNextSourcePage(); page != null; page = source.getNextSourcePage()) {
                            for (int channel = 0; channel < page.getChannelCount(); channel++) {
                                page.getBlock(channel);
                            }
                            read += page.getPositionCount();
                        }
                    }
                    if (read != 1) {
                        throw new IllegalStateException("A lookup of row %s of fragment %s returned %s rows".formatted(row.startRow(), row.fragmentId(), read));
                    }
                    if (pass == 1) {
                        micros.add((System.nanoTime() - start) / 1e3);
                    }
                }
            }
        }
        micros.sort(Double::compare);
        return new Lookups(files, readerType.name().toLowerCase(java.util.Locale.ROOT), lookups, median(micros), micros.get((int) Math.floor(0.9 * (micros.size() - 1))));
    }

    /**
     * A split of the one row at {@code position} of the table (in the order of its fragment splits), as a scalar index
     * lookup hands it to the page source: the row's address, which the Java reader answers by the chunks that hold it.
     */
    private static LanceSplit oneRow(List<ConnectorSplit> fragments, long position)
    {
        long remaining = position;
        for (ConnectorSplit split : fragments) {
            LanceSplit fragment = (LanceSplit) split;
            long rows = fragment.endRow() - fragment.startRow();
            if (remaining < rows) {
                long row = fragment.startRow() + remaining;
                return fragment.withIndexedRows(row, row + 1, IndexedRows.of(List.of("row_address"), RoaringBitmap.bitmapOf(toIntExact(row)), rows - 1));
            }
            remaining -= rows;
        }
        throw new IllegalArgumentException("Row %s is beyond the table".formatted(position));
    }
}
