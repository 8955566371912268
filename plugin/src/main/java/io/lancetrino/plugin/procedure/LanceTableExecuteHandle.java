package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorTableExecuteHandle;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE <procedure>(...)} with its arguments, checked at analysis and kept as text so the handle
 * stays a plain value whatever the procedure.
 */
public record LanceTableExecuteHandle(LanceTableHandle table, String procedure, Map<String, String> arguments)
        implements ConnectorTableExecuteHandle
{
    public LanceTableExecuteHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(procedure, "procedure is null");
        arguments = ImmutableMap.copyOf(requireNonNull(arguments, "arguments is null"));
    }

    public String argument(String name)
    {
        String value = arguments.get(name);
        if (value == null) {
            throw new IllegalStateException("Table procedure %s has no argument %s".formatted(procedure, name));
        }
        return value;
    }
}
