package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.procedures.CleanupOperations;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;

import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.longProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE set_auto_cleanup(enabled => false)}: removes (or sets) Lance's
 * {@code lance.auto_cleanup.*} keys on main and every branch.
 */
public final class SetAutoCleanupTableProcedure
        implements LanceTableProcedure
{
    private static final String ENABLED = "enabled";
    private static final String INTERVAL = "interval";
    private static final String OLDER_THAN = "older_than";

    private final CleanupOperations cleanups;

    @Inject
    public SetAutoCleanupTableProcedure(CleanupOperations cleanups)
    {
        this.cleanups = requireNonNull(cleanups, "cleanups is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata("SET_AUTO_CLEANUP", TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                booleanProperty(ENABLED, "false removes the lance.auto_cleanup.* keys; true sets them", false, false),
                longProperty(INTERVAL, "With enabled => true: Lance writers clean up after every this many commits", 20L, false),
                stringProperty(OLDER_THAN, "With enabled => true: the age Lance's cleanup removes versions at", "14days", false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        accessControl.checkCanInsertIntoTable(null, table.schemaTableName());
        accessControl.checkCanDeleteFromTable(null, table.schemaTableName());
        return ImmutableMap.of(
                ENABLED, properties.get(ENABLED).toString(),
                INTERVAL, properties.get(INTERVAL).toString(),
                OLDER_THAN, properties.get(OLDER_THAN).toString());
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        long updated = cleanups.setAutoCleanup(session, handle.table().schemaTableName(), Boolean.parseBoolean(handle.argument(ENABLED)),
                Long.parseLong(handle.argument(INTERVAL)), handle.argument(OLDER_THAN), TableWrites.statementProperties(session, "SET AUTO CLEANUP"));
        return ImmutableMap.of("datasets_updated", updated);
    }
}
