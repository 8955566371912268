package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.plugin.index.IndexOperations;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;

import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE drop_index(name => 'id_idx', branch => 'main')}: a new version without the index; its
 * files stay for the versions that still list it, until cleanup.
 */
public final class DropIndexTableProcedure
        implements LanceTableProcedure
{
    private final IndexOperations indexes;
    private final BranchOperations branches;

    @Inject
    public DropIndexTableProcedure(IndexOperations indexes, BranchOperations branches)
    {
        this.indexes = requireNonNull(indexes, "indexes is null");
        this.branches = requireNonNull(branches, "branches is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata("DROP_INDEX", TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                stringProperty(IndexProcedures.NAME, "Index to drop", null, false),
                stringProperty(IndexProcedures.BRANCH, "Branch to drop it from", RefResolver.MAIN, false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        String branch = IndexProcedures.checkBranch(session, branches, accessControl, table, properties, "drop_index");
        String name = IndexProcedures.required(table, properties, IndexProcedures.NAME, "drop_index");
        return ImmutableMap.of(IndexProcedures.NAME, name, IndexProcedures.BRANCH, branch);
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        LanceTableHandle table = handle.table();
        return indexes.drop(session, table.schemaTableName(), table.tableRoot(), RefResolver.branch(handle.argument(IndexProcedures.BRANCH)), handle.argument(IndexProcedures.NAME));
    }
}
