package io.lancetrino.metadata.deletion;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;

/**
 * Reads a fragment's deleted rows and writes new deletion files, in the format Lance picks for their size.
 */
public final class DeletionFiles
{
    private DeletionFiles() {}

    /**
     * The rows deleted in the fragment as the snapshot sees it; empty when it has no deletion file.
     */
    public static RoaringBitmap read(TableFileSystem fileSystem, TableSnapshot snapshot, DataFragment fragment)
    {
        Optional<String> location = FilePaths.deletionFile(snapshot, fragment);
        if (location.isEmpty()) {
            return new RoaringBitmap();
        }
        try {
            return DeletionVectors.read(location.get(), fileSystem.readFile(location.get()), DeletionVectors.isBitmapLocation(location.get()));
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot read deletion file %s: %s".formatted(location.get(), e.getMessage()), e);
        }
    }

    /**
     * Writes the rows as a new deletion file in the dataset's own {@code _deletions/}; parents' files are never changed.
     */
    public static DeletionFile write(TableFileSystem fileSystem, String datasetLocation, long fragmentId, long readVersion, RoaringBitmap rows)
    {
        boolean bitmap = DeletionVectors.useBitmap(rows);
        DeletionFile deletion = DeletionFile.newBuilder()
                .setFileType(bitmap ? DeletionFile.DeletionFileType.BITMAP : DeletionFile.DeletionFileType.ARROW_ARRAY)
                .setReadVersion(readVersion)
                .setId(ThreadLocalRandom.current().nextLong())
                .setNumDeletedRows(rows.getLongCardinality())
                .build();
        String location = TableFileSystem.join(datasetLocation, "_deletions/" + FilePaths.deletionFileName(fragmentId, deletion));
        try {
            fileSystem.writeFile(location, bitmap ? DeletionVectors.writeBitmap(rows) : DeletionVectors.writeArrow(rows));
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot write deletion file %s: %s".formatted(location, e.getMessage()), e);
        }
        return deletion;
    }
}
