package io.lancetrino.procedures;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnSchema;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.security.AccessDeniedException;

import java.util.List;
import java.util.Optional;

import static io.lancetrino.procedures.LanceTableOperations.open;
import static io.lancetrino.procedures.LanceTableOperations.resolve;
import static io.lancetrino.procedures.LanceTableOperations.translated;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * Row filters and column masks for the paths that read or copy a table's rows without the engine: table functions,
 * clones and merges. The engine applies filters and masks only to table scans it plans, and hands a connector none of
 * them (its {@code InjectedConnectorAccessControl} fails with {@code NOT_SUPPORTED} where one exists), so these paths
 * refuse a user to whom any applies, rather than apply some rules and not others.
 */
public final class RowSecurity
{
    private final ProcedureTables tables;

    @Inject
    public RowSecurity(ProcedureTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    /**
     * Refuses {@code operation} on the version {@code ref} of table {@code name} (the head of main when empty) when a
     * row filter or column mask applies to the session's user there.
     */
    public void checkUnrestricted(ConnectorSession session, ConnectorAccessControl accessControl, SchemaTableName name, Optional<String> ref, String operation, String reason)
    {
        LanceTable table = open(tables, session, name);
        List<LanceColumnHandle> columns = tables.columns(name, translated(() -> resolve(table, ref)));
        checkUnrestricted(session, accessControl, name, columns, operation, reason);
    }

    /**
     * Refuses {@code operation} on table {@code name} when a row filter applies to the session's user there, or a
     * column mask on any of {@code columns}; {@code reason} says why the operation cannot apply them.
     */
    public static void checkUnrestricted(ConnectorSession session, ConnectorAccessControl accessControl, SchemaTableName name, List<LanceColumnHandle> columns, String operation, String reason)
    {
        if (isRestricted(accessControl, name, columns)) {
            throw new AccessDeniedException("Cannot %s table %s: row filters or column masks apply to user %s on it, and %s"
                    .formatted(operation, name, session.getUser(), reason));
        }
    }

    private static boolean isRestricted(ConnectorAccessControl accessControl, SchemaTableName name, List<LanceColumnHandle> columns)
    {
        List<ColumnSchema> schemas = columns.stream()
                .map(column -> ColumnSchema.builder().setName(column.name()).setType(column.type()).build())
                .collect(ImmutableList.toImmutableList());
        try {
            return !accessControl.getRowFilters(null, name).isEmpty() || !accessControl.getColumnMasks(null, name, schemas).isEmpty();
        }
        catch (TrinoException e) {
            // the engine's answer when a filter or mask exists: it does not hand them to connectors
            if (e.getErrorCode().equals(NOT_SUPPORTED.toErrorCode())) {
                return true;
            }
            throw e;
        }
    }
}
