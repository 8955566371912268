package io.lancetrino.split;

import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.security.ConnectorIdentity;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Opens tables by root location, sharing one cache of parsed manifests per catalog.
 */
public final class LanceTables
{
    private final LanceFileSystems fileSystems;
    private final ManifestCache manifestCache;

    @Inject
    public LanceTables(LanceFileSystems fileSystems, LanceConfig config)
    {
        this.fileSystems = requireNonNull(fileSystems, "fileSystems is null");
        this.manifestCache = new ManifestCache(config.getManifestCacheSize().toBytes());
    }

    public LanceTable open(ConnectorIdentity identity, String root, String displayName)
    {
        return new LanceTable(fileSystem(identity, root), root, displayName, manifestCache);
    }

    public boolean isRecipient()
    {
        return fileSystems.isRecipient();
    }

    public Map<String, String> storageOptions(String location)
    {
        return fileSystems.storageOptions(location);
    }

    public TableFileSystem fileSystem(ConnectorIdentity identity, String location)
    {
        return fileSystems.forLocation(identity, location);
    }
}
