package io.lancetrino.plugin;

import io.trino.plugin.base.security.ReadOnlyAccessControl;
import io.trino.spi.connector.ConnectorSecurityContext;
import io.trino.spi.connector.SchemaRoutineName;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.security.AccessDeniedException;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A recipient catalog reads what a sharing server allows and nothing else: every write is refused before it starts,
 * with the reason, as Trino's read-only catalogs do. Table functions (table_changes) read, so they are allowed.
 */
final class RecipientAccessControl
        extends ReadOnlyAccessControl
{
    private static final String REASON = "the catalog reads tables shared with it (lance.sharing.profile) and cannot change them";

    @Override
    public boolean canExecuteFunction(ConnectorSecurityContext context, SchemaRoutineName function)
    {
        return true;
    }

    @Override
    public void checkCanInsertIntoTable(ConnectorSecurityContext context, SchemaTableName tableName, Optional<String> branch)
    {
        AccessDeniedException.denyInsertTable(tableName.toString(), REASON);
    }

    @Override
    public void checkCanDeleteFromTable(ConnectorSecurityContext context, SchemaTableName tableName, Optional<String> branch)
    {
        AccessDeniedException.denyDeleteTable(tableName.toString(), REASON);
    }

    @Override
    public void checkCanUpdateTableColumns(ConnectorSecurityContext context, SchemaTableName tableName, Optional<String> branch, Set<String> updatedColumns)
    {
        AccessDeniedException.denyUpdateTableColumns(tableName.toString(), updatedColumns, REASON);
    }

    @Override
    public void checkCanCreateTable(ConnectorSecurityContext context, SchemaTableName tableName, Map<String, Object> properties)
    {
        AccessDeniedException.denyCreateTable(tableName.toString(), REASON);
    }

    @Override
    public void checkCanDropTable(ConnectorSecurityContext context, SchemaTableName tableName)
    {
        AccessDeniedException.denyDropTable(tableName.toString(), REASON);
    }

    @Override
    public void checkCanAddColumn(ConnectorSecurityContext context, SchemaTableName tableName)
    {
        AccessDeniedException.denyAddColumn(tableName.toString(), REASON);
    }

    @Override
    public void checkCanCreateSchema(ConnectorSecurityContext context, String schemaName, Map<String, Object> properties)
    {
        AccessDeniedException.denyCreateSchema(schemaName, REASON);
    }

    @Override
    public void checkCanCreateBranch(ConnectorSecurityContext context, SchemaTableName tableName, String branchName)
    {
        throw new AccessDeniedException("Cannot create branch %s in table %s: %s".formatted(branchName, tableName, REASON));
    }

    @Override
    public void checkCanExecuteProcedure(ConnectorSecurityContext context, SchemaRoutineName procedure)
    {
        AccessDeniedException.denyExecuteProcedure(procedure.toString(), REASON);
    }

    @Override
    public void checkCanExecuteTableProcedure(ConnectorSecurityContext context, SchemaTableName tableName, String procedure)
    {
        AccessDeniedException.denyExecuteTableProcedure(tableName.toString(), procedure + ": " + REASON);
    }
}
