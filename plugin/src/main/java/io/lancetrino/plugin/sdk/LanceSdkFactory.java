package io.lancetrino.plugin.sdk;

import io.lancetrino.split.LanceConfig;

/**
 * The SDK add-on's entry point, found with {@link java.util.ServiceLoader} in the plugin's class loader: the add-on's
 * jar names its implementation in {@code META-INF/services}.
 */
public interface LanceSdkFactory
{
    LanceSdk create(LanceConfig config);
}
