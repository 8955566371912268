package io.lancetrino.metadata.commit;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Data files named after the write that produced them ({@code <uuid>_<writer id>.lance}), so that when an engine
 * retries parts of a write (Trino's fault-tolerant execution), the files of attempts whose output the commit never
 * received can be found and removed once the commit has succeeded.
 */
public final class WriterAttemptFiles
{
    private static final String EXTENSION = ".lance";

    private WriterAttemptFiles() {}

    public static String name(String uniquePart, String writerId)
    {
        return uniquePart + "_" + writerId + EXTENSION;
    }

    public static boolean writtenBy(String name, String writerId)
    {
        return name.endsWith("_" + writerId + EXTENSION);
    }

    /**
     * Deletes the files directly in {@code dataDirectory} that the writer wrote and the committed version does not
     * reference.
     *
     * @param referenced the file names (relative to the data directory) the commit took
     * @return the names removed
     */
    public static List<String> removeUnreferenced(TableFileSystem fileSystem, String dataDirectory, String writerId, Set<String> referenced)
            throws IOException
    {
        ImmutableList.Builder<String> removed = ImmutableList.builder();
        for (FileEntry file : fileSystem.listFiles(dataDirectory)) {
            if (writtenBy(file.name(), writerId) && !referenced.contains(file.name())) {
                fileSystem.deleteFile(TableFileSystem.join(dataDirectory, file.name()));
                removed.add(file.name());
            }
        }
        return removed.build();
    }
}
