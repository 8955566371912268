package io.lancetrino.plugin;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.plugin.system.LanceSystemTables;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

public final class LanceMetadata
        implements ConnectorMetadata
{
    private final LanceCatalog catalog;

    public LanceMetadata(LanceCatalog catalog)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        return catalog.listSchemas(session.getIdentity());
    }

    @Override
    public boolean schemaExists(ConnectorSession session, String schemaName)
    {
        return catalog.schemaExists(session.getIdentity(), schemaName);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        List<String> schemas = schemaName.map(List::of).orElseGet(() -> listSchemaNames(session));
        return schemas.stream()
                .flatMap(schema -> catalog.listTables(session.getIdentity(), schema).stream())
                .collect(toImmutableList());
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent()) {
            throw new io.trino.spi.TrinoException(io.trino.spi.StandardErrorCode.NOT_SUPPORTED, "Read table with start version is not supported");
        }
        if (tableName.getTableName().contains("$")) {
            return null;
        }
        Optional<LanceTable> table = catalog.openTable(session.getIdentity(), tableName);
        if (table.isEmpty()) {
            return null;
        }
        try {
            RefResolver resolver = new RefResolver(table.get());
            TableSnapshot snapshot = endVersion
                    .map(version -> TableVersions.resolve(session, resolver, version))
                    .orElseGet(() -> resolver.latest(Optional.empty()));
            return LanceTableHandle.of(tableName, snapshot);
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        TableSnapshot snapshot = snapshot(session, handle);
        List<ColumnMetadata> columns = LanceCatalog.columns(handle.schemaTableName(), snapshot).stream()
                .map(column -> column.toColumnMetadata(snapshot.schema().field(column.fieldId()).flatMap(LanceField::comment)))
                .collect(toImmutableList());
        return new ConnectorTableMetadata(handle.schemaTableName(), columns, ImmutableMap.of(), tableComment(snapshot));
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        ImmutableMap.Builder<String, ColumnHandle> columns = ImmutableMap.builder();
        for (LanceColumnHandle column : LanceCatalog.columns(handle.schemaTableName(), snapshot(session, handle))) {
            columns.put(column.name(), column);
        }
        return columns.buildKeepingLast();
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        LanceColumnHandle column = (LanceColumnHandle) columnHandle;
        return column.toColumnMetadata(Optional.empty());
    }

    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        TableSnapshot snapshot = snapshot(session, (LanceTableHandle) tableHandle);
        long rows = VersionSummary.of(snapshot.manifest()).liveRows();
        return TableStatistics.builder().setRowCount(Estimate.of(rows)).build();
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle tableHandle, long limit)
    {
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        if (handle.limit().isPresent() && handle.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }

    @Override
    public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName)
    {
        return LanceSystemTables.resolve(catalog, session, tableName);
    }

    private TableSnapshot snapshot(ConnectorSession session, LanceTableHandle handle)
    {
        try {
            return catalog.openTable(session.getIdentity(), handle.tableRoot(), handle.schemaTableName())
                    .snapshot(handle.branch(), handle.version());
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    private static Optional<String> tableComment(TableSnapshot snapshot)
    {
        String comment = snapshot.manifest().getTableMetadataMap().get("comment");
        if (comment == null && snapshot.manifest().containsSchemaMetadata("comment")) {
            comment = snapshot.manifest().getSchemaMetadataMap().get("comment").toStringUtf8();
        }
        return Optional.ofNullable(comment);
    }
}
