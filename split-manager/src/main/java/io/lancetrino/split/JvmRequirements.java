package io.lancetrino.plugin;

import io.trino.spi.TrinoException;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

/**
 * What the connector needs of the JVM, checked when a catalog starts rather than at the first query: Arrow reads the
 * memory address of direct buffers through {@code java.nio}, which must be opened to the plugin's class loader.
 */
public final class JvmRequirements
{
    static final String ADD_OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";

    private JvmRequirements() {}

    public static void check(String catalogName)
    {
        if (!Object.class.getModule().isOpen("java.nio", JvmRequirements.class.getModule())) {
            throw new TrinoException(CONFIGURATION_INVALID, ("Catalog %s: the Lance connector needs the JVM option %s (add it to etc/jvm.config and restart Trino): "
                    + "Arrow, which the connector reads and writes Lance data with, reads the memory address of direct buffers").formatted(catalogName, ADD_OPENS));
        }
    }
}
