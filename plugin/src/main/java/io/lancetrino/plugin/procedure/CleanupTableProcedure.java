package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.procedures.CleanupOperations;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE cleanup(retention_threshold => '7d', dry_run => false)}: versions older than the
 * threshold and files nothing retained reads are removed, across main, every branch, tag and known clone.
 */
public final class CleanupTableProcedure
        implements LanceTableProcedure
{
    public static final String NAME = "CLEANUP";
    private static final String RETENTION_THRESHOLD = "retention_threshold";
    private static final String DRY_RUN = "dry_run";

    private final CleanupOperations cleanups;

    @Inject
    public CleanupTableProcedure(CleanupOperations cleanups)
    {
        this.cleanups = requireNonNull(cleanups, "cleanups is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata(NAME, TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                stringProperty(RETENTION_THRESHOLD, "Versions committed and unreferenced files written longer ago than this are removed", CleanupOperations.DEFAULT_RETENTION, false),
                booleanProperty(DRY_RUN, "Report what would be removed without removing anything", false, false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        if (table.branch().isPresent()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cleanup runs on a whole table, all branches included, not on branch '%s'; run it on %s"
                    .formatted(table.branch().get(), table.schemaTableName()));
        }
        String threshold = (String) properties.get(RETENTION_THRESHOLD);
        cleanups.retention(session, table.schemaTableName(), threshold);
        accessControl.checkCanInsertIntoTable(null, table.schemaTableName());
        accessControl.checkCanDeleteFromTable(null, table.schemaTableName());
        return ImmutableMap.of(RETENTION_THRESHOLD, threshold, DRY_RUN, properties.get(DRY_RUN).toString());
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        return cleanups.cleanup(session, handle.table().schemaTableName(),
                cleanups.retention(session, handle.table().schemaTableName(), handle.argument(RETENTION_THRESHOLD)),
                Boolean.parseBoolean(handle.argument(DRY_RUN))).metrics();
    }
}
