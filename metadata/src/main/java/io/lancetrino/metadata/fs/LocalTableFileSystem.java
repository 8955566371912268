package io.lancetrino.metadata.fs;

import com.google.common.collect.ImmutableList;

import java.io.FileNotFoundException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.UUID;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * Local disk. Exclusive creation writes a staging file completely and hard-links it to the final name, which fails if
 * the name exists, so readers never see a partial manifest and a concurrent writer cannot replace one.
 */
public class LocalTableFileSystem
        implements TableFileSystem
{
    public static Path toPath(String location)
    {
        if (location.startsWith("file:")) {
            return Path.of(URI.create(location));
        }
        if (location.startsWith("local://")) {
            return Path.of(location.substring("local://".length()));
        }
        return Path.of(location);
    }

    @Override
    public byte[] readFile(String location)
            throws IOException
    {
        try {
            return Files.readAllBytes(toPath(location));
        }
        catch (NoSuchFileException e) {
            throw new FileNotFoundException(location);
        }
    }

    @Override
    public boolean exists(String location)
    {
        return Files.exists(toPath(location));
    }

    @Override
    public java.util.Optional<FileEntry> stat(String location)
            throws IOException
    {
        Path path = toPath(location);
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            return java.util.Optional.of(new FileEntry(path.getFileName().toString(), attributes.size(), attributes.lastModifiedTime().toMillis()));
        }
        catch (NoSuchFileException e) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public List<FileEntry> listFiles(String directory)
            throws IOException
    {
        Path dir = toPath(directory);
        if (!Files.isDirectory(dir)) {
            return ImmutableList.of();
        }
        ImmutableList.Builder<FileEntry> files = ImmutableList.builder();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path path : stream) {
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(path, BasicFileAttributes.class);
                }
                catch (NoSuchFileException e) {
                    continue; // removed while listing
                }
                if (attributes.isRegularFile()) {
                    files.add(new FileEntry(path.getFileName().toString(), attributes.size(), attributes.lastModifiedTime().toMillis()));
                }
            }
        }
        return files.build();
    }

    @Override
    public List<String> listDirectories(String directory)
            throws IOException
    {
        Path dir = toPath(directory);
        if (!Files.isDirectory(dir)) {
            return ImmutableList.of();
        }
        ImmutableList.Builder<String> names = ImmutableList.builder();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path path : stream) {
                names.add(path.getFileName().toString());
            }
        }
        return names.build();
    }

    @Override
    public void createExclusive(String location, byte[] data)
            throws IOException
    {
        Path target = toPath(location);
        Files.createDirectories(target.getParent());
        Path staging = target.resolveSibling(".tmp-" + target.getFileName() + "-" + UUID.randomUUID());
        try {
            Files.write(staging, data, CREATE_NEW, WRITE);
            Files.createLink(target, staging);
        }
        finally {
            Files.deleteIfExists(staging);
        }
    }

    @Override
    public void writeFile(String location, byte[] data)
            throws IOException
    {
        Path target = toPath(location);
        Files.createDirectories(target.getParent());
        Files.write(target, data);
    }

    @Override
    public OutputStream newOutputStream(String location)
            throws IOException
    {
        Path target = toPath(location);
        Files.createDirectories(target.getParent());
        return new BufferedOutputStream(Files.newOutputStream(target), 64 * 1024);
    }

    @Override
    public void deleteFile(String location)
            throws IOException
    {
        Files.deleteIfExists(toPath(location));
    }

    @Override
    public void copyFile(String source, String target)
            throws IOException
    {
        Path to = toPath(target);
        Files.createDirectories(to.getParent());
        try {
            Files.copy(toPath(source), to);
        }
        catch (NoSuchFileException e) {
            throw new FileNotFoundException(source);
        }
    }

    @Override
    public long length(String location)
            throws IOException
    {
        try {
            return Files.size(toPath(location));
        }
        catch (NoSuchFileException e) {
            throw new FileNotFoundException(location);
        }
    }

    @Override
    public void createDirectory(String location)
            throws IOException
    {
        Files.createDirectories(toPath(location));
    }

    @Override
    public void deleteDirectory(String location)
            throws IOException
    {
        Path root = toPath(location);
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
