package io.lancetrino.plugin;

import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorTableExecuteHandle;

import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE merge_branch(...)} with its arguments, checked at analysis.
 *
 * @param source a ref of the table, or {@code schema.table} of a shallow clone of it
 */
public record LanceTableExecuteHandle(LanceTableHandle table, String procedure, String source, String target, String onConflict, boolean dryRun)
        implements ConnectorTableExecuteHandle
{
    public LanceTableExecuteHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(procedure, "procedure is null");
        requireNonNull(source, "source is null");
        requireNonNull(target, "target is null");
        requireNonNull(onConflict, "onConflict is null");
    }
}
