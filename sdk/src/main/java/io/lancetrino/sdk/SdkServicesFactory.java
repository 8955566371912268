package io.lancetrino.sdk;

import io.airlift.log.Logger;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.sdk.LanceSdkFactory;
import io.lancetrino.split.JvmRequirements;
import io.lancetrino.split.LanceConfig;

/**
 * The add-on's entry point, named in {@code META-INF/services}. Creating the services loads no native code: the SDK's
 * library loads with the first SDK class that needs it.
 */
public final class SdkServicesFactory
        implements LanceSdkFactory
{
    private static final Logger LOG = Logger.get(SdkServicesFactory.class);

    @Override
    public LanceSdk create(LanceConfig config)
    {
        if (!JvmRequirements.sdkDataExchangeAvailable()) {
            // reads and writes of the Java reader and writer work without it; each feature that needs the SDK says so
            LOG.warn("The JVM runs without %s; the features of the Lance SDK add-on (indexes, searches, the SDK reader and writer, format 2.0 writes) fail until it is added to etc/jvm.config",
                    JvmRequirements.ADD_OPENS);
        }
        return new SdkServices(config);
    }
}
