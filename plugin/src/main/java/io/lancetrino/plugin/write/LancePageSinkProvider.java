package io.lancetrino.plugin.write;

import com.google.inject.Inject;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.split.LanceFileWriterType;
import io.lancetrino.split.LanceTables;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.type.TypeManager;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

public final class LancePageSinkProvider
        implements ConnectorPageSinkProvider
{
    private final LanceTables tables;
    private final TypeManager typeManager;
    private final LanceSdk sdk;

    public static final String FILE_WRITER_PROPERTY = "file_writer";

    @Inject
    public LancePageSinkProvider(LanceTables tables, TypeManager typeManager, LanceSdk sdk)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.typeManager = requireNonNull(typeManager, "typeManager is null");
        this.sdk = requireNonNull(sdk, "sdk is null");
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorOutputTableHandle handle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        return pageSink(session, (LanceWritableTableHandle) handle);
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle handle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        return pageSink(session, (LanceWritableTableHandle) handle);
    }

    @Override
    public ConnectorMergeSink createMergeSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorMergeTableHandle handle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        LanceWritableTableHandle insert = ((LanceMergeTableHandle) handle).insert();
        return new LanceMergeSink(fileSink(session, insert), insert.fields().size(), InsertedKeysCollector.forTable(insert.fields()));
    }

    private ConnectorPageSink pageSink(ConnectorSession session, LanceWritableTableHandle handle)
    {
        return new LancePageSink(fileSink(session, handle), InsertedKeysCollector.forTable(handle.fields()));
    }

    private LanceFileSink fileSink(ConnectorSession session, LanceWritableTableHandle handle)
    {
        return LanceFileSink.create(
                tables.fileSystem(session.getIdentity(), handle.tableRoot()),
                tables.storageOptions(handle.tableRoot()),
                handle.datasetLocation(),
                handle.fields(),
                typeManager,
                handle.fileFormatVersion(),
                handle.maxRowsPerFile(),
                session.getProperty(FILE_WRITER_PROPERTY, LanceFileWriterType.class),
                session.getQueryId(),
                sdk);
    }
}
