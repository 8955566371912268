package io.lancetrino.split.fs;

import com.google.inject.Inject;
import io.lancetrino.filesystem.TrinoTableFileSystem;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.sharing.recipient.SharedLocation;
import io.lancetrino.sharing.recipient.SharingClient;
import io.lancetrino.sharing.recipient.SharingFileSystem;
import io.lancetrino.sharing.recipient.SharingProfile;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalInputFile;
import io.trino.spi.security.ConnectorIdentity;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Local paths go to the local file system directly: trino-filesystem's local implementation is jailed under one root
 * and cannot create a file exclusively, which commits need. Every other scheme goes through trino-filesystem.
 */
public final class LanceFileSystems
{
    private static final TableFileSystem LOCAL = new LocalTableFileSystem();

    private final TrinoFileSystemFactory fileSystemFactory;
    private final ObjectStoreOptions objectStoreOptions;
    private final Set<String> verifiedStores = ConcurrentHashMap.newKeySet();

    private final Optional<SharingFileSystem> shares;

    @Inject
    public LanceFileSystems(TrinoFileSystemFactory fileSystemFactory, ObjectStoreOptions objectStoreOptions, LanceConfig config)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
        this.objectStoreOptions = requireNonNull(objectStoreOptions, "objectStoreOptions is null");
        this.shares = config.getSharingProfile().map(profile -> new SharingFileSystem(new SharingClient(SharingProfile.read(profile))));
    }

    /**
     * Whether the catalog reads the shares of a sharing profile rather than a warehouse.
     */
    public boolean isRecipient()
    {
        return shares.isPresent();
    }

    /**
     * The storage options the Lance SDK needs to open a data file at this location.
     */
    public Map<String, String> storageOptions(String location)
    {
        return objectStoreOptions.forLocation(location);
    }

    public TableFileSystem forLocation(ConnectorIdentity identity, String location)
    {
        if (SharedLocation.isShared(location)) {
            // only a recipient catalog may reach a share, and only its own
            return shares.orElseThrow(() -> new IllegalArgumentException("Not a location of this catalog: " + location));
        }
        if (isLocal(location)) {
            return LOCAL;
        }
        return new TrinoTableFileSystem(fileSystemFactory.create(identity), verifiedStores);
    }

    public static boolean isLocal(String location)
    {
        return location.startsWith("/") || location.startsWith("file:") || location.startsWith("local:");
    }

    /**
     * A data file as trino-filesystem input for the Java file reader, or empty when the table's file system cannot
     * give one (then the SDK reads the file). Local files are opened directly, as everything local is.
     */
    public static Optional<TrinoInputFile> inputFile(TableFileSystem fileSystem, String location)
    {
        if (isLocal(location)) {
            return Optional.of(new LocalInputFile(LocalTableFileSystem.toPath(location).toFile()));
        }
        if (fileSystem instanceof SharingFileSystem sharingFileSystem) {
            return Optional.of(sharingFileSystem.newInputFile(location));
        }
        if (fileSystem instanceof TrinoTableFileSystem trinoFileSystem) {
            return Optional.of(trinoFileSystem.newInputFile(location));
        }
        return Optional.empty();
    }

    /**
     * The location the Lance SDK opens data files with: a plain path for local files.
     */
    public static String nativeLocation(String location)
    {
        return isLocal(location) ? LocalTableFileSystem.toPath(location).toString() : location;
    }
}
