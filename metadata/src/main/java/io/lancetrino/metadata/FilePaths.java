package io.lancetrino.metadata;

import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.IndexMetadata;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.UUID;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;

/**
 * Where the files of a snapshot live. A file with a {@code base_id} resolves against {@code base_paths[base_id]}: a
 * dataset-root base gets {@code data/} or {@code _deletions/} appended, any other base is used as is.
 */
public final class FilePaths
{
    private FilePaths() {}

    public static String dataFile(TableSnapshot snapshot, DataFragment fragment, DataFile file)
    {
        if (!file.hasBaseId()) {
            return TableFileSystem.join(snapshot.datasetLocation(), "data/" + file.getPath());
        }
        BasePath base = basePath(snapshot, fragment, file.getBaseId(), file.getPath());
        String directory = base.getIsDatasetRoot() ? TableFileSystem.join(base.getPath(), "data") : base.getPath();
        return TableFileSystem.join(directory, file.getPath());
    }

    public static Optional<String> deletionFile(TableSnapshot snapshot, DataFragment fragment)
    {
        if (!fragment.hasDeletionFile()) {
            return Optional.empty();
        }
        DeletionFile deletion = fragment.getDeletionFile();
        String name = deletionFileName(fragment.getId(), deletion);
        if (!deletion.hasBaseId()) {
            return Optional.of(TableFileSystem.join(snapshot.datasetLocation(), "_deletions/" + name));
        }
        BasePath base = basePath(snapshot, fragment, deletion.getBaseId(), name);
        if (!base.getIsDatasetRoot()) {
            throw new LanceTableException(CORRUPT_MANIFEST, "Table %s, %s, fragment %s: deletion file %s refers to base path %s (%s), which is not a dataset root"
                    .formatted(snapshot.tableRoot(), snapshot.describe(), fragment.getId(), name, base.getId(), base.getPath()));
        }
        return Optional.of(TableFileSystem.join(TableFileSystem.join(base.getPath(), "_deletions"), name));
    }

    /**
     * {@code {fragment_id}-{read_version}-{id}.{arrow|bin}}, numbers printed unsigned.
     */
    public static String deletionFileName(long fragmentId, DeletionFile deletion)
    {
        return "%s-%s-%s.%s".formatted(
                Long.toUnsignedString(fragmentId),
                Long.toUnsignedString(deletion.getReadVersion()),
                Long.toUnsignedString(deletion.getId()),
                deletion.getFileType() == DeletionFile.DeletionFileType.BITMAP ? "bin" : "arrow");
    }

    /**
     * The directory of an index's files: {@code _indices/<uuid>/} of its base, or of the snapshot's dataset.
     */
    public static String indexDirectory(TableSnapshot snapshot, IndexMetadata index)
    {
        String root = snapshot.datasetLocation();
        if (index.hasBaseId()) {
            root = snapshot.manifest().getBasePathsList().stream()
                    .filter(base -> base.getId() == index.getBaseId())
                    .findFirst()
                    .orElseThrow(() -> new LanceTableException(CORRUPT_MANIFEST, "Table %s, %s: index %s refers to base path id %s, which the manifest %s does not define"
                            .formatted(snapshot.tableRoot(), snapshot.describe(), index.getName(), index.getBaseId(), snapshot.manifestFile().location())))
                    .getPath();
        }
        ByteBuffer uuid = index.getUuid().getUuid().asReadOnlyByteBuffer();
        return TableFileSystem.join(root, "_indices/" + new UUID(uuid.getLong(), uuid.getLong()));
    }

    public static BasePath basePath(TableSnapshot snapshot, DataFragment fragment, int baseId, String path)
    {
        return snapshot.manifest().getBasePathsList().stream()
                .filter(base -> base.getId() == baseId)
                .findFirst()
                .orElseThrow(() -> new LanceTableException(CORRUPT_MANIFEST, "Table %s, %s, fragment %s: file %s refers to base path id %s, which the manifest %s does not define"
                        .formatted(snapshot.tableRoot(), snapshot.describe(), fragment.getId(), path, baseId, snapshot.manifestFile().location())));
    }
}
