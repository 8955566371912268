package io.lancetrino.index;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;

import static java.util.Objects.requireNonNull;

/**
 * The files of one index segment, {@code _indices/<uuid>/}: how a reader opens them. The caller adapts its file
 * system; locations must be distinct per directory, because {@link IndexCache} keys what it holds by file location.
 */
public interface IndexFiles
{
    /** The file {@code fileName} of the index directory; no I/O happens until the file is read. */
    TrinoInputFile open(String fileName);

    static IndexFiles of(TrinoFileSystem fileSystem, Location directory)
    {
        requireNonNull(fileSystem, "fileSystem is null");
        requireNonNull(directory, "directory is null");
        return fileName -> fileSystem.newInputFile(directory.appendPath(fileName));
    }
}
