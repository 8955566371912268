package io.lancetrino.plugin.sdk;

import io.airlift.log.Logger;
import io.lancetrino.split.LanceConfig;

import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * Finds the SDK add-on when it is installed beside the plugin's jars; loading its factory loads no native code.
 */
public final class LanceSdks
{
    private static final Logger log = Logger.get(LanceSdks.class);

    private LanceSdks() {}

    public static LanceSdk load(LanceConfig config)
    {
        Iterator<LanceSdkFactory> factories = ServiceLoader.load(LanceSdkFactory.class, LanceSdkFactory.class.getClassLoader()).iterator();
        if (!factories.hasNext()) {
            log.info("The Lance SDK add-on is not installed: index builds, searches, the SDK reader and writer, and files of format 2.0 are unavailable");
            return new MissingLanceSdk();
        }
        return factories.next().create(config);
    }
}
