package io.lancetrino.filesystem;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.fs.ExclusiveCreateUnsupportedException;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Object stores and HDFS through trino-filesystem; exclusive creation is the store's put-if-absent.
 */
public final class TrinoTableFileSystem
        implements TableFileSystem
{
    private final TrinoFileSystem fileSystem;
    // stores (scheme and authority) whose exclusive creation was seen to work, shared by the catalog's file systems
    private final Set<String> verifiedStores;

    public TrinoTableFileSystem(TrinoFileSystem fileSystem, Set<String> verifiedStores)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.verifiedStores = requireNonNull(verifiedStores, "verifiedStores is null");
    }

    /** A data file for ranged reads, as the Java file reader needs. */
    public TrinoInputFile newInputFile(String location)
    {
        return fileSystem.newInputFile(Location.of(location));
    }

    @Override
    public byte[] readFile(String location)
            throws IOException
    {
        TrinoInputFile file = fileSystem.newInputFile(Location.of(location));
        try (var input = file.newStream()) {
            return input.readAllBytes();
        }
        catch (java.nio.file.NoSuchFileException e) {
            throw new FileNotFoundException(location);
        }
    }

    @Override
    public boolean exists(String location)
            throws IOException
    {
        return fileSystem.newInputFile(Location.of(location)).exists();
    }

    @Override
    public java.util.Optional<FileEntry> stat(String location)
            throws IOException
    {
        TrinoInputFile file = fileSystem.newInputFile(Location.of(location));
        try {
            return java.util.Optional.of(new FileEntry(Location.of(location).fileName(), file.length(), file.lastModified().toEpochMilli()));
        }
        catch (FileNotFoundException | java.nio.file.NoSuchFileException e) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public List<FileEntry> listFiles(String directory)
            throws IOException
    {
        Location base = Location.of(directory);
        ImmutableList.Builder<FileEntry> files = ImmutableList.builder();
        FileIterator iterator = fileSystem.listFiles(base);
        String prefix = base.toString().endsWith("/") ? base.toString() : base + "/";
        while (iterator.hasNext()) {
            var entry = iterator.next();
            String relative = entry.location().toString().substring(prefix.length());
            if (!relative.contains("/")) {
                files.add(new FileEntry(relative, entry.length(), entry.lastModified().toEpochMilli()));
            }
        }
        return files.build();
    }

    @Override
    public List<String> listDirectories(String directory)
            throws IOException
    {
        Location base = Location.of(directory);
        String prefix = base.toString().endsWith("/") ? base.toString() : base + "/";
        return fileSystem.listDirectories(base).stream()
                .map(location -> location.toString().substring(prefix.length()))
                .map(name -> name.endsWith("/") ? name.substring(0, name.length() - 1) : name)
                .collect(ImmutableList.toImmutableList());
    }

    @Override
    public void createExclusive(String location, byte[] data)
            throws IOException
    {
        Location target = Location.of(location);
        verifyExclusiveCreate(target.parentDirectory().toString());
        tryCreateExclusive(target, data);
    }

    /**
     * Creates a probe file twice: the first creation must succeed and the second must be refused. A store that rejects
     * conditional writes fails the first, one that ignores the condition (older S3-compatible stores) the second.
     */
    @Override
    public void verifyExclusiveCreate(String directory)
            throws IOException
    {
        String store = store(directory);
        if (verifiedStores.contains(store)) {
            return;
        }
        Location probe = Location.of(directory).appendPath("_lance_exclusive_create_probe_" + UUID.randomUUID());
        byte[] content = "put-if-absent probe".getBytes(UTF_8);
        try {
            try {
                tryCreateExclusive(probe, content);
            }
            catch (ExclusiveCreateUnsupportedException e) {
                throw e;
            }
            catch (IOException e) {
                throw unsupported(store, "a conditional create (If-None-Match: *) failed: " + e.getMessage(), e);
            }
            try {
                tryCreateExclusive(probe, content);
            }
            catch (FileAlreadyExistsException _) {
                verifiedStores.add(store);
                return;
            }
            throw unsupported(store, "a second conditional create of the same file succeeded, so the store ignores the condition", null);
        }
        finally {
            try {
                fileSystem.deleteFile(probe);
            }
            catch (IOException | RuntimeException _) {
                // a leftover probe is harmless: no Lance reader looks at it
            }
        }
    }

    private void tryCreateExclusive(Location location, byte[] data)
            throws IOException
    {
        try {
            fileSystem.newOutputFile(location).createExclusive(data);
        }
        catch (UnsupportedOperationException e) {
            throw unsupported(store(location.toString()), "the file system does not implement it", e);
        }
    }

    private static ExclusiveCreateUnsupportedException unsupported(String store, String reason, Throwable cause)
    {
        return new ExclusiveCreateUnsupportedException(
                "%s cannot create files exclusively (put-if-absent), which Lance commits need so that concurrent writers never replace each other's versions: %s. Use a store with conditional writes (S3 or S3-compatible with If-None-Match: *, GCS, Azure Blob Storage) or a local warehouse"
                        .formatted(store, reason), cause);
    }

    private static String store(String location)
    {
        int schemeEnd = location.indexOf("://");
        if (schemeEnd < 0) {
            return location;
        }
        int authorityEnd = location.indexOf('/', schemeEnd + 3);
        return authorityEnd < 0 ? location : location.substring(0, authorityEnd);
    }

    @Override
    public void writeFile(String location, byte[] data)
            throws IOException
    {
        fileSystem.newOutputFile(Location.of(location)).createOrOverwrite(data);
    }

    @Override
    public OutputStream newOutputStream(String location)
            throws IOException
    {
        return fileSystem.newOutputFile(Location.of(location)).create();
    }

    @Override
    public void deleteFile(String location)
            throws IOException
    {
        fileSystem.deleteFile(Location.of(location));
    }

    @Override
    public void copyFile(String source, String target)
            throws IOException
    {
        try (var input = fileSystem.newInputFile(Location.of(source)).newStream();
                var output = fileSystem.newOutputFile(Location.of(target)).create()) {
            input.transferTo(output);
        }
        catch (java.nio.file.NoSuchFileException e) {
            throw new FileNotFoundException(source);
        }
    }

    @Override
    public long length(String location)
            throws IOException
    {
        try {
            return fileSystem.newInputFile(Location.of(location)).length();
        }
        catch (java.nio.file.NoSuchFileException e) {
            throw new FileNotFoundException(location);
        }
    }

    @Override
    public void createDirectory(String location)
            throws IOException
    {
        fileSystem.createDirectory(Location.of(location));
    }

    @Override
    public void deleteDirectory(String location)
            throws IOException
    {
        fileSystem.deleteDirectory(Location.of(location));
    }
}
