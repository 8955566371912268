package io.lancetrino.split.fs;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Object stores and HDFS through trino-filesystem; exclusive creation is the store's put-if-absent.
 */
public final class TrinoTableFileSystem
        implements TableFileSystem
{
    private final TrinoFileSystem fileSystem;

    public TrinoTableFileSystem(TrinoFileSystem fileSystem)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
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
        fileSystem.newOutputFile(Location.of(location)).createExclusive(data);
    }

    @Override
    public void writeFile(String location, byte[] data)
            throws IOException
    {
        fileSystem.newOutputFile(Location.of(location)).createOrOverwrite(data);
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
