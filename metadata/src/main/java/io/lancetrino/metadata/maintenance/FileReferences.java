package io.lancetrino.metadata.maintenance;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;

/**
 * The mark set: every file that some manifest reaches, through its base paths included, as normalized locations.
 * Index files count by their index's directory, whose content the manifest does not list. Directories are resolved
 * once per manifest, so marking costs one string per file entry.
 */
final class FileReferences
{
    private static final String INDICES = "/_indices/";

    private final Set<String> files = new HashSet<>();
    private final Set<String> indexDirectories = new HashSet<>();

    /**
     * @param datasetLocation the directory of the dataset (main or a branch) the manifest belongs to
     */
    void add(String datasetLocation, ManifestFile manifestFile)
    {
        String dataset = Locations.normalize(datasetLocation);
        files.add(Locations.normalize(manifestFile.location()));
        String transaction = manifestFile.manifest().getTransactionFile();
        if (!transaction.isEmpty()) {
            files.add(dataset + "/_transactions/" + transaction);
        }
        Map<Integer, Base> bases = bases(manifestFile);
        String dataDirectory = dataset + "/data/";
        String deletionDirectory = dataset + "/_deletions/";
        for (DataFragment fragment : manifestFile.manifest().getFragmentsList()) {
            for (DataFile file : fragment.getFilesList()) {
                if (!file.hasBaseId()) {
                    files.add(dataDirectory + file.getPath());
                }
                else {
                    Base base = base(bases, file.getBaseId(), manifestFile);
                    files.add((base.datasetRoot() ? base.root() + "/data/" : base.root() + "/") + file.getPath());
                }
            }
            addDeletionFile(fragment, bases, deletionDirectory, manifestFile);
        }
        manifestFile.indexSection().ifPresent(section -> {
            for (IndexMetadata index : section.getIndicesList()) {
                String root = index.hasBaseId() ? base(bases, index.getBaseId(), manifestFile).root() : dataset;
                ByteBuffer uuid = index.getUuid().getUuid().asReadOnlyByteBuffer();
                indexDirectories.add(root + INDICES + new UUID(uuid.getLong(), uuid.getLong()));
            }
        });
    }

    /**
     * The deletion files of fragments as a version's transaction names them (a compaction's sources, as it read them),
     * which no manifest that is kept may list any more, but which following rows through the compaction reads.
     */
    void addDeletionFiles(String datasetLocation, ManifestFile manifestFile, List<DataFragment> fragments)
    {
        Map<Integer, Base> bases = bases(manifestFile);
        String deletionDirectory = Locations.normalize(datasetLocation) + "/_deletions/";
        fragments.forEach(fragment -> addDeletionFile(fragment, bases, deletionDirectory, manifestFile));
    }

    private static Map<Integer, Base> bases(ManifestFile manifestFile)
    {
        Map<Integer, Base> bases = new HashMap<>();
        for (BasePath base : manifestFile.manifest().getBasePathsList()) {
            bases.put(base.getId(), new Base(Locations.normalize(base.getPath()), base.getIsDatasetRoot()));
        }
        return bases;
    }

    private void addDeletionFile(DataFragment fragment, Map<Integer, Base> bases, String deletionDirectory, ManifestFile manifestFile)
    {
        if (fragment.hasDeletionFile()) {
            String name = FilePaths.deletionFileName(fragment.getId(), fragment.getDeletionFile());
            files.add(fragment.getDeletionFile().hasBaseId()
                    ? base(bases, fragment.getDeletionFile().getBaseId(), manifestFile).root() + "/_deletions/" + name
                    : deletionDirectory + name);
        }
    }

    // a base path with its location normalized once per manifest
    private record Base(String root, boolean datasetRoot) {}

    private static Base base(Map<Integer, Base> bases, int id, ManifestFile manifestFile)
    {
        Base base = bases.get(id);
        if (base == null) {
            throw new LanceTableException(CORRUPT_MANIFEST,
                    "Manifest %s refers to base path id %s, which it does not define".formatted(manifestFile.location(), id));
        }
        return base;
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
}
