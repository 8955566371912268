package io.lancetrino.split;

import com.google.inject.Inject;
import io.lancetrino.split.changes.ChangePageSource;
import io.lancetrino.split.changes.LanceChangeSplit;
import io.lancetrino.split.changes.LanceTableChangesHandle;
import io.lancetrino.split.changes.TableChanges;
import io.lancetrino.split.sdk.SdkReads;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceDistanceColumnHandle;
import io.lancetrino.split.search.LanceSearchSplit;
import io.lancetrino.split.search.VectorSearchPageSource;
import io.lancetrino.split.search.VectorTopN;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

public final class LancePageSourceProvider
        implements ConnectorPageSourceProvider
{
    private final LanceTables tables;
    private final SdkReads sdkReads;
    public static final String FILE_READER_PROPERTY = "file_reader";

    private final int batchRows;
    private final LanceFileReaderType fileReader;
    private final FileMetadataCache fileMetadata;

    @Inject
    public LancePageSourceProvider(LanceTables tables, LanceConfig config, SdkReads sdkReads)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.sdkReads = requireNonNull(sdkReads, "sdkReads is null");
        this.batchRows = config.getReadBatchRows();
        this.fileReader = config.getFileReader();
        this.fileMetadata = new FileMetadataCache(config.getFileMetadataCachePages(), config.getPageBufferCacheSize().toBytes());
    }

    @Override
    public ConnectorPageSource createPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit split,
            ConnectorTableHandle table,
            Optional<ConnectorTableCredentials> credentials,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter)
    {
        if (split instanceof LanceChangeSplit change) {
            return changePageSource(session, change, (LanceTableChangesHandle) table, columns);
        }
        if (split instanceof LanceSearchSplit search) {
            return searchPageSource(search, (LanceTableHandle) table, columns);
        }
        LanceSplit lanceSplit = (LanceSplit) split;
        LanceTableHandle handle = (LanceTableHandle) table;
        if (handle.vectorTopN().isPresent() || columns.stream().anyMatch(LanceDistanceColumnHandle.class::isInstance)) {
            // the vectors are read like any column; distances and the split's nearest rows are computed over them
            List<ColumnHandle> read = new ArrayList<>();
            List<VectorSearchPageSource.Output> outputs = outputs(columns, read);
            List<LanceColumnHandle> lanceColumns = read.stream().map(LanceColumnHandle.class::cast).collect(toImmutableList());
            return new VectorSearchPageSource(lancePageSource(session, lanceSplit, handle, lanceColumns, dynamicFilter), outputs, handle.vectorTopN());
        }
        return lancePageSource(session, lanceSplit, handle, columns.stream().map(LanceColumnHandle.class::cast).collect(toImmutableList()), dynamicFilter);
    }

    /**
     * The rows the SDK's search returns; distances the query computes with Trino's functions are computed from the
     * vectors it returns, exactly as the engine would.
     */
    private ConnectorPageSource searchPageSource(LanceSearchSplit split, LanceTableHandle handle, List<ColumnHandle> columns)
    {
        List<ColumnHandle> read = new ArrayList<>();
        List<VectorSearchPageSource.Output> outputs = new ArrayList<>(outputs(columns, read));
        // rows the engine takes in the scan's order (the pushed top-N) are sorted by the distance, computed even when
        // not selected
        Optional<LanceDistanceColumnHandle> order = handle.vectorSearch().flatMap(AnnSearch::order);
        Optional<VectorTopN> sort = order.flatMap(_ -> handle.vectorTopN());
        if (order.isPresent() && !columns.contains(order.get())) {
            outputs.add(new VectorSearchPageSource.Distance(channel(read, order.get().vector()), order.get()));
        }
        ConnectorPageSource search = sdkReads.search(split, handle.vectorSearch(), handle.textSearch(), read, tables.storageOptions(handle.tableRoot()));
        boolean computed = outputs.stream().anyMatch(VectorSearchPageSource.Distance.class::isInstance);
        return computed ? new VectorSearchPageSource(search, outputs, sort, sort.isPresent(), columns.size()) : search;
    }

    /**
     * Each column as an output of a {@link VectorSearchPageSource}: read, or a distance of a vector read; what is read
     * is added to {@code read}, each column once.
     */
    private static List<VectorSearchPageSource.Output> outputs(List<ColumnHandle> columns, List<ColumnHandle> read)
    {
        List<VectorSearchPageSource.Output> outputs = new ArrayList<>();
        for (ColumnHandle column : columns) {
            outputs.add(switch (column) {
                case LanceDistanceColumnHandle distance -> new VectorSearchPageSource.Distance(channel(read, distance.vector()), distance);
                default -> new VectorSearchPageSource.Read(channel(read, column));
            });
        }
        return outputs;
    }

    private static int channel(List<ColumnHandle> read, ColumnHandle column)
    {
        int channel = read.indexOf(column);
        if (channel < 0) {
            read.add(column);
            return read.size() - 1;
        }
        return channel;
    }

    private ConnectorPageSource lancePageSource(ConnectorSession session, LanceSplit lanceSplit, LanceTableHandle handle, List<LanceColumnHandle> lanceColumns, DynamicFilter dynamicFilter)
    {
        TupleDomain<LanceColumnHandle> predicate = handle.constraint()
                .intersect(dynamicFilter.getCurrentPredicate().transformKeys(LanceColumnHandle.class::cast));
        if (predicate.isNone()) {
            return new EmptyPageSource();
        }
        List<ColumnPredicate> predicates = columnPredicates(predicate);
        // the table's own constraint is enforced here (ConnectorMetadata.applyFilter tells the engine so); a dynamic
        // filter only narrows what is read
        List<ColumnPredicate> filters = columnPredicates(handle.constraint());
        return new LancePageSource(lanceSplit, lanceColumns, predicates, filters, sdkReads, tables.fileSystem(session.getIdentity(), handle.tableRoot()), tables.storageOptions(handle.tableRoot()), batchRows, fileReader(session), fileMetadata);
    }

    /** The domains a page source evaluates, each as its own predicate (a predicate keeps state per page source). */
    private static List<ColumnPredicate> columnPredicates(TupleDomain<LanceColumnHandle> domains)
    {
        return domains.getDomains().orElseThrow().entrySet().stream()
                .flatMap(entry -> ColumnPredicate.of(entry.getKey(), entry.getValue()).stream())
                .collect(toImmutableList());
    }

    /**
     * The rows of one change, read as any split of the version it belongs to, with the change columns appended.
     */
    private ConnectorPageSource changePageSource(ConnectorSession session, LanceChangeSplit split, LanceTableChangesHandle handle, List<ColumnHandle> columns)
    {
        List<LanceColumnHandle> dataColumns = new ArrayList<>();
        int[] dataChannel = new int[columns.size()];
        String[] changeColumn = new String[columns.size()];
        for (int column = 0; column < columns.size(); column++) {
            LanceColumnHandle handleOfColumn = (LanceColumnHandle) columns.get(column);
            if (TableChanges.isChangeColumn(handleOfColumn)) {
                dataChannel[column] = -1;
                changeColumn[column] = handleOfColumn.name();
            }
            else {
                dataChannel[column] = dataColumns.size();
                // no file holds a column without field ids: it reads NULL
                dataColumns.add(split.nullFieldIds().contains(handleOfColumn.fieldId())
                        ? new LanceColumnHandle(handleOfColumn.name(), handleOfColumn.fieldId(), List.of(), handleOfColumn.type(), handleOfColumn.nullable())
                        : handleOfColumn);
            }
        }
        LanceSplit rows = split.rows();
        LancePageSource data = new LancePageSource(rows, dataColumns, List.of(), sdkReads, tables.fileSystem(session.getIdentity(), handle.tableRoot()), tables.storageOptions(handle.tableRoot()), batchRows, fileReader(session), fileMetadata);
        return new ChangePageSource(data, split, dataChannel, changeColumn);
    }

    /** The shared cache of data file metadata, for tests. */
    public FileMetadataCache fileMetadataCache()
    {
        return fileMetadata;
    }

    private LanceFileReaderType fileReader(ConnectorSession session)
    {
        try {
            return session.getProperty(FILE_READER_PROPERTY, LanceFileReaderType.class);
        }
        catch (TrinoException e) {
            // sessions made outside the engine (benchmarks, procedures' tests) do not know the connector's properties
            return fileReader;
        }
    }
}
