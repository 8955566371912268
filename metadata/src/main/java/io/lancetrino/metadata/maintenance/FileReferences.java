package io.lancetrino.metadata.maintenance;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;

import java.util.HashSet;
import java.util.Set;

/**
 * The mark set: every file that some manifest reaches, through its base paths included, as normalized locations.
 * Index files count by their index's directory, whose content the manifest does not list.
 */
final class FileReferences
{
    private static final String INDICES = "/_indices/";

    private final Set<String> files = new HashSet<>();
    private final Set<String> indexDirectories = new HashSet<>();

    void add(TableSnapshot snapshot)
    {
        String dataset = snapshot.datasetLocation();
        files.add(Locations.normalize(snapshot.manifestFile().location()));
        String transaction = snapshot.manifest().getTransactionFile();
        if (!transaction.isEmpty()) {
            files.add(Locations.normalize(TableFileSystem.join(dataset, "_transactions/" + transaction)));
        }
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            for (DataFile file : fragment.getFilesList()) {
                files.add(Locations.normalize(FilePaths.dataFile(snapshot, fragment, file)));
            }
            FilePaths.deletionFile(snapshot, fragment).ifPresent(location -> files.add(Locations.normalize(location)));
        }
        snapshot.manifestFile().indexSection().ifPresent(section -> {
            for (IndexMetadata index : section.getIndicesList()) {
                indexDirectories.add(Locations.normalize(FilePaths.indexDirectory(snapshot, index)));
            }
        });
    }

    boolean contains(String normalizedLocation)
    {
        if (files.contains(normalizedLocation)) {
            return true;
        }
        int indices = normalizedLocation.lastIndexOf(INDICES);
        if (indices < 0) {
            return false;
        }
        int end = normalizedLocation.indexOf('/', indices + INDICES.length());
        return end > 0 && indexDirectories.contains(normalizedLocation.substring(0, end));
    }

    int size()
    {
        return files.size();
    }
}
