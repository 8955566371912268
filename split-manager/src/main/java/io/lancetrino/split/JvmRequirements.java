package io.lancetrino.split;

import io.trino.spi.TrinoException;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

/**
 * What the connector needs of the JVM. Tables read by the Java reader and written by the Java writer need no JVM
 * option; the Lance SDK hands data over as Arrow buffers, and Arrow wraps their memory in direct buffers through
 * {@code java.nio}, which must be opened to the plugin. Each feature that goes through the SDK checks this first, so
 * it fails with the option to add rather than deep inside Arrow.
 */
public final class JvmRequirements
{
    public static final String ADD_OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";

    private JvmRequirements() {}

    public static boolean sdkDataExchangeAvailable()
    {
        return Object.class.getModule().isOpen("java.nio", JvmRequirements.class.getModule());
    }

    /**
     * @param feature what the caller is about to do through the SDK, e.g. "build index v_idx of table s.t"
     */
    public static void checkSdk(String feature)
    {
        if (!sdkDataExchangeAvailable()) {
            throw new TrinoException(CONFIGURATION_INVALID, ("The Lance connector needs the JVM option %s to %s through the Lance SDK (add it to etc/jvm.config and restart Trino): "
                    + "the SDK hands data over as Arrow buffers, which Arrow wraps through java.nio").formatted(ADD_OPENS, feature));
        }
    }
}
