package io.lancetrino.split.fs;

import com.google.inject.Inject;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.security.ConnectorIdentity;

import static java.util.Objects.requireNonNull;

/**
 * Local paths go to the local file system directly: trino-filesystem's local implementation is jailed under one root
 * and cannot create a file exclusively, which commits need. Every other scheme goes through trino-filesystem.
 */
public final class LanceFileSystems
{
    private static final TableFileSystem LOCAL = new LocalTableFileSystem();

    private final TrinoFileSystemFactory fileSystemFactory;

    @Inject
    public LanceFileSystems(TrinoFileSystemFactory fileSystemFactory)
    {
        this.fileSystemFactory = requireNonNull(fileSystemFactory, "fileSystemFactory is null");
    }

    public TableFileSystem forLocation(ConnectorIdentity identity, String location)
    {
        if (isLocal(location)) {
            return LOCAL;
        }
        return new TrinoTableFileSystem(fileSystemFactory.create(identity));
    }

    public static boolean isLocal(String location)
    {
        return location.startsWith("/") || location.startsWith("file:") || location.startsWith("local:");
    }

    /**
     * The location the Lance SDK opens data files with: a plain path for local files.
     */
    public static String nativeLocation(String location)
    {
        return isLocal(location) ? LocalTableFileSystem.toPath(location).toString() : location;
    }
}
