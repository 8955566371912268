package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * A procedure on one existing index of a branch: {@code ALTER TABLE t EXECUTE <procedure>(name => 'id_idx',
 * branch => 'main')}.
 */
abstract class NamedIndexTableProcedure
        implements LanceTableProcedure
{
    private final String procedure;
    private final String nameDescription;
    private final BranchOperations branches;

    NamedIndexTableProcedure(String procedure, String nameDescription, BranchOperations branches)
    {
        this.procedure = requireNonNull(procedure, "procedure is null");
        this.nameDescription = requireNonNull(nameDescription, "nameDescription is null");
        this.branches = requireNonNull(branches, "branches is null");
    }

    abstract Map<String, Long> run(ConnectorSession session, SchemaTableName table, String tableRoot, Optional<String> branch, String indexName);

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata(procedure.toUpperCase(Locale.ROOT), TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                stringProperty(IndexProcedures.NAME, nameDescription, null, false),
                stringProperty(IndexProcedures.BRANCH, "Branch whose index it is", RefResolver.MAIN, false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        String branch = IndexProcedures.checkBranch(session, branches, accessControl, table, properties, procedure);
        String name = IndexProcedures.required(table, properties, IndexProcedures.NAME, procedure);
        return ImmutableMap.of(IndexProcedures.NAME, name, IndexProcedures.BRANCH, branch);
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        LanceTableHandle table = handle.table();
        return run(session, table.schemaTableName(), table.tableRoot(), RefResolver.branch(handle.argument(IndexProcedures.BRANCH)), handle.argument(IndexProcedures.NAME));
    }
}
