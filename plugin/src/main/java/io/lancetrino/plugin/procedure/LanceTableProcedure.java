package io.lancetrino.plugin.procedure;

import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;

/**
 * One {@code ALTER TABLE t EXECUTE name(...)} procedure, run on the coordinator: arguments and access are checked at
 * analysis, and its figures come back as metric rows.
 */
public interface LanceTableProcedure
{
    TableProcedureMetadata metadata();

    /**
     * Checks the arguments and the caller's access; what it returns is what {@link #execute} gets.
     */
    Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties);

    Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle);
}
