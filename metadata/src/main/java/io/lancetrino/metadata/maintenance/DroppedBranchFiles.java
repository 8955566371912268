package io.lancetrino.metadata.maintenance;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.maintenance.DatasetFiles.StoredFile;

import java.io.FileNotFoundException;
import java.io.IOException;

import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;

/**
 * Removes what a dropped branch wrote, except files that main or another branch still reads (after a merge or a
 * fast-forward their manifests name files in the branch's directory through a base path).
 */
public final class DroppedBranchFiles
{
    private DroppedBranchFiles() {}

    /**
     * @param location the dropped branch's directory; its ref must already be gone
     * @return the number of files deleted
     */
    public static long delete(LanceTable table, String location)
    {
        FileReferences live = new FileReferences();
        TableCleanup.markEverything(live, table);
        TableFileSystem fileSystem = table.fileSystem();
        long deleted = 0;
        try {
            for (StoredFile file : DatasetFiles.list(fileSystem, location)) {
                if (!live.contains(file.normalized())) {
                    try {
                        fileSystem.deleteFile(file.location());
                        deleted++;
                    }
                    catch (FileNotFoundException _) {
                        // deleted meanwhile
                    }
                }
            }
            removeEmptyDirectories(fileSystem, location);
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot delete the files of dropped branch directory %s of table %s: %s"
                    .formatted(location, table.displayName(), e.getMessage()), e);
        }
        return deleted;
    }

    private static boolean removeEmptyDirectories(TableFileSystem fileSystem, String directory)
            throws IOException
    {
        boolean empty = fileSystem.listFiles(directory).isEmpty();
        for (String child : fileSystem.listDirectories(directory)) {
            empty &= removeEmptyDirectories(fileSystem, TableFileSystem.join(directory, child));
        }
        if (empty) {
            fileSystem.deleteDirectory(directory);
        }
        return empty;
    }
}
