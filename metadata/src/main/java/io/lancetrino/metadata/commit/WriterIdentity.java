package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.proto.Manifest;

/**
 * How manifests written here name their writer. A library name other than {@code lance} makes Lance skip its
 * version-specific repair logic, which is meant for its own past bugs.
 */
public final class WriterIdentity
{
    public static final String LIBRARY = "lance-trino";
    public static final String VERSION = "0.1.0";

    private WriterIdentity() {}

    public static Manifest.WriterVersion writerVersion()
    {
        return Manifest.WriterVersion.newBuilder().setLibrary(LIBRARY).setVersion(VERSION).build();
    }
}
