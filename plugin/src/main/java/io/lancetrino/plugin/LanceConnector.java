package io.lancetrino.plugin;

import com.google.inject.Inject;
import io.airlift.bootstrap.LifeCycleManager;
import io.lancetrino.plugin.changes.TableChangesFunction;
import io.lancetrino.plugin.procedure.LanceTableProcedures;
import io.lancetrino.plugin.write.LancePageSinkProvider;
import io.lancetrino.plugin.write.SchemaChanges;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.procedures.LanceProcedures;
import io.lancetrino.split.LancePageSourceProvider;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.split.LanceSplitManager;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorMetadata;
import io.lancetrino.plugin.search.TextSearchFunction;
import io.lancetrino.plugin.search.VectorSearchFunction;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorTableFunction;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorCapabilities;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.transaction.IsolationLevel;

import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

public final class LanceConnector
        implements Connector
{
    private final LifeCycleManager lifeCycleManager;
    private final LanceCatalog catalog;
    private final LanceSplitManager splitManager;
    private final LancePageSourceProvider pageSourceProvider;
    private final LancePageSinkProvider pageSinkProvider;
    private final TableWrites writes;
    private final SchemaChanges schemaChanges;
    private final BranchOperations branches;
    private final LanceTableProcedures tableProcedures;
    private final LanceProcedures procedures;
    private final LanceSessionProperties sessionProperties;
    private final TableChangesFunction tableChanges;
    private final VectorSearchFunction vectorSearch;
    private final TextSearchFunction textSearch;
    private final LanceSdk sdk;

    @Inject
    public LanceConnector(
            LifeCycleManager lifeCycleManager,
            LanceCatalog catalog,
            LanceSplitManager splitManager,
            LancePageSourceProvider pageSourceProvider,
            LancePageSinkProvider pageSinkProvider,
            TableWrites writes,
            SchemaChanges schemaChanges,
            BranchOperations branches,
            LanceTableProcedures tableProcedures,
            LanceProcedures procedures,
            LanceSessionProperties sessionProperties,
            TableChangesFunction tableChanges,
            VectorSearchFunction vectorSearch,
            TextSearchFunction textSearch,
            LanceSdk sdk)
    {
        this.sdk = requireNonNull(sdk, "sdk is null");
        this.tableChanges = requireNonNull(tableChanges, "tableChanges is null");
        this.vectorSearch = requireNonNull(vectorSearch, "vectorSearch is null");
        this.textSearch = requireNonNull(textSearch, "textSearch is null");
        this.sessionProperties = requireNonNull(sessionProperties, "sessionProperties is null");
        this.branches = requireNonNull(branches, "branches is null");
        this.tableProcedures = requireNonNull(tableProcedures, "tableProcedures is null");
        this.procedures = requireNonNull(procedures, "procedures is null");
        this.schemaChanges = requireNonNull(schemaChanges, "schemaChanges is null");
        this.pageSinkProvider = requireNonNull(pageSinkProvider, "pageSinkProvider is null");
        this.writes = requireNonNull(writes, "writes is null");
        this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.splitManager = requireNonNull(splitManager, "splitManager is null");
        this.pageSourceProvider = requireNonNull(pageSourceProvider, "pageSourceProvider is null");
    }

    @Override
    public ConnectorAccessControl getAccessControl()
    {
        if (catalog.isRecipient()) {
            return new RecipientAccessControl();
        }
        // none of its own: the engine's access control decides alone
        throw new UnsupportedOperationException();
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit)
    {
        return LanceTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction)
    {
        return new ClassLoaderSafeConnectorMetadata(new LanceMetadata(catalog, writes, schemaChanges, branches, tableProcedures), getClass().getClassLoader());
    }

    @Override
    public ConnectorSplitManager getSplitManager()
    {
        return splitManager;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider()
    {
        return pageSourceProvider;
    }

    @Override
    public ConnectorPageSinkProvider getPageSinkProvider()
    {
        return pageSinkProvider;
    }

    @Override
    public List<PropertyMetadata<?>> getTableProperties()
    {
        return LanceTableProperties.properties();
    }

    @Override
    public List<PropertyMetadata<?>> getColumnProperties()
    {
        return LanceColumnProperties.properties();
    }

    @Override
    public List<PropertyMetadata<?>> getSessionProperties()
    {
        return sessionProperties.properties();
    }

    @Override
    public List<PropertyMetadata<?>> getBranchProperties()
    {
        return LanceBranchProperties.properties();
    }

    @Override
    public Set<ConnectorTableFunction> getTableFunctions()
    {
        ClassLoader classLoader = getClass().getClassLoader();
        return Set.of(
                new ClassLoaderSafeConnectorTableFunction(tableChanges, classLoader),
                new ClassLoaderSafeConnectorTableFunction(vectorSearch, classLoader),
                new ClassLoaderSafeConnectorTableFunction(textSearch, classLoader));
    }

    @Override
    public Set<Procedure> getProcedures()
    {
        return procedures.procedures();
    }

    @Override
    public Set<TableProcedureMetadata> getTableProcedures()
    {
        return tableProcedures.metadata();
    }

    @Override
    public Set<ConnectorCapabilities> getCapabilities()
    {
        // Lance fields carry nullability; the engine enforces it on writes
        return Set.of(ConnectorCapabilities.NOT_NULL_COLUMN_CONSTRAINT);
    }

    @Override
    public void shutdown()
    {
        lifeCycleManager.stop();
        sdk.close();
    }
}
