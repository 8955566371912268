package io.lancetrino.split.sdk;

import io.trino.spi.TrinoException;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

/**
 * The Lance SDK add-on: the connector's SDK code and the Lance SDK's native library, shipped as a zip of its own that
 * is unzipped into the plugin's directory. The connector runs without it; the features that need it fail naming it.
 */
public final class SdkAddOn
{
    public static final String ZIP_NAME = "trino-lance-sdk-<version>.zip";

    private SdkAddOn() {}

    /** @param feature what needed the SDK, e.g. "build btree index id_idx of table s.t" */
    public static TrinoException missing(String feature)
    {
        return new TrinoException(CONFIGURATION_INVALID, ("The Lance connector needs its SDK add-on to %s, and the add-on is not installed: " +
                "unzip %s into the plugin directory of the lance connector (beside trino-lance's jars) on every node and restart Trino").formatted(feature, ZIP_NAME));
    }
}
