package io.lancetrino.metadata.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;

/**
 * The file operations the table layer needs. Locations are absolute paths or URIs; directories have no trailing slash.
 * Implementations: local disk in this module, every other store through trino-filesystem in the plugin.
 */
public interface TableFileSystem
{
    /**
     * @throws FileNotFoundException if the file does not exist
     */
    byte[] readFile(String location)
            throws IOException;

    boolean exists(String location)
            throws IOException;

    /**
     * Size and modification time of a file, or empty if it does not exist.
     */
    java.util.Optional<FileEntry> stat(String location)
            throws IOException;

    /**
     * Files directly inside the directory (not recursive); empty if the directory does not exist.
     */
    List<FileEntry> listFiles(String directory)
            throws IOException;

    /**
     * Names of the directories directly inside the directory; empty if it does not exist.
     */
    List<String> listDirectories(String directory)
            throws IOException;

    /**
     * Writes the whole file atomically, only if no file exists at that location.
     *
     * @throws FileAlreadyExistsException if the location already holds a file
     */
    void createExclusive(String location, byte[] data)
            throws IOException;

    /**
     * Fails unless {@link #createExclusive} is a real put-if-absent below this directory, which every commit relies
     * on; statements call it before they write anything, so a store without it leaves tables unchanged.
     *
     * @throws ExclusiveCreateUnsupportedException if creation is not exclusive there
     */
    default void verifyExclusiveCreate(String directory)
            throws IOException
    {
    }

    /**
     * Writes the whole file, replacing what was there.
     */
    void writeFile(String location, byte[] data)
            throws IOException;

    /**
     * A stream that writes a new file, for data files too large to hold in memory; the file is complete once the stream
     * is closed.
     */
    OutputStream newOutputStream(String location)
            throws IOException;

    void deleteFile(String location)
            throws IOException;

    /**
     * Copies a file byte for byte, streaming; the target must not exist yet.
     *
     * @throws FileNotFoundException if the source does not exist
     */
    void copyFile(String source, String target)
            throws IOException;

    /**
     * @throws FileNotFoundException if the file does not exist
     */
    long length(String location)
            throws IOException;

    /**
     * Creates the directory and its parents; a no-op where directories are implicit.
     */
    void createDirectory(String location)
            throws IOException;

    /**
     * Deletes the directory with everything below it.
     */
    void deleteDirectory(String location)
            throws IOException;

    static String join(String directory, String child)
    {
        return directory.endsWith("/") ? directory + child : directory + "/" + child;
    }
}
