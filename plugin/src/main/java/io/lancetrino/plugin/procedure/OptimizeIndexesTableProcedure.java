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
 * {@code ALTER TABLE t EXECUTE optimize_indexes(name => 'id_idx', branch => 'main')}: indexes the rows written since the
 * index was built (Lance's optimize: a delta segment over the uncovered fragments, merged into the index).
 */
public final class OptimizeIndexesTableProcedure
        implements LanceTableProcedure
{
    private final IndexOperations indexes;
    private final BranchOperations branches;

    @Inject
    public OptimizeIndexesTableProcedure(IndexOperations indexes, BranchOperations branches)
    {
        this.indexes = requireNonNull(indexes, "indexes is null");
        this.branches = requireNonNull(branches, "branches is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata("OPTIMIZE_INDEXES", TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                stringProperty(IndexProcedures.NAME, "Index to bring up to date", null, false),
                stringProperty(IndexProcedures.BRANCH, "Branch whose index it is", RefResolver.MAIN, false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        String branch = IndexProcedures.checkBranch(session, branches, accessControl, table, properties, "optimize_indexes");
        String name = IndexProcedures.required(table, properties, IndexProcedures.NAME, "optimize_indexes");
        return ImmutableMap.of(IndexProcedures.NAME, name, IndexProcedures.BRANCH, branch);
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        LanceTableHandle table = handle.table();
        return indexes.optimize(session, table.schemaTableName(), table.tableRoot(), RefResolver.branch(handle.argument(IndexProcedures.BRANCH)), handle.argument(IndexProcedures.NAME));
    }
}
