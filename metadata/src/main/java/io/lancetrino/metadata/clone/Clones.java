package io.lancetrino.metadata.clone;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static io.lancetrino.metadata.LanceErrorKind.ALREADY_EXISTS;
import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Shallow and deep clones of one version of a table into a new table, as Lance makes them: a {@code Clone}
 * transaction and a first manifest with the source's version number. A shallow clone writes only metadata and reads
 * the source's files through a base path; a deep clone copies the files the version reads, byte for byte.
 */
public final class Clones
{
    private final TableCommitter committer;

    public Clones(TableCommitter committer)
    {
        this.committer = requireNonNull(committer, "committer is null");
    }

    /**
     * @param pinId recorded in the clone's config when the caller pins the source (see {@link ClonePins})
     */
    public ManifestFile shallow(TableSnapshot source, LanceTable target, Optional<String> pinId)
    {
        checkAbsent(target);
        Manifest manifest = ClonedManifests.shallow(source.manifest(), source.branch(), source.datasetLocation(), Optional.empty());
        if (pinId.isPresent()) {
            manifest = manifest.toBuilder().putConfig(ClonePins.CLONE_PIN_CONFIG_KEY, pinId.get()).build();
        }
        return committer.createDataset(target.fileSystem(), target.root(), manifest,
                ClonedManifests.shallowIndices(source.manifestFile().indexSection(), manifest), transaction(source, true));
    }

    /**
     * Copies the data, deletion and index files of the version into the target, then commits its first manifest;
     * a failure part way leaves only unreferenced files in the target directory, which a retry overwrites.
     */
    public ManifestFile deep(TableSnapshot source, TableFileSystem sourceFiles, LanceTable target)
    {
        checkAbsent(target);
        for (DataFragment fragment : source.manifest().getFragmentsList()) {
            for (DataFile file : fragment.getFilesList()) {
                copy(sourceFiles, FilePaths.dataFile(source, fragment, file), target, "data/" + file.getPath());
            }
            Optional<String> deletion = FilePaths.deletionFile(source, fragment);
            if (deletion.isPresent()) {
                copy(sourceFiles, deletion.get(), target, "_deletions/" + FilePaths.deletionFileName(fragment.getId(), fragment.getDeletionFile()));
            }
        }
        Optional<IndexSection> indices = source.manifestFile().indexSection();
        for (IndexMetadata index : indices.map(IndexSection::getIndicesList).orElse(List.of())) {
            copyIndex(source, sourceFiles, index, target);
        }
        Manifest manifest = ClonedManifests.deep(source.manifest());
        return committer.createDataset(target.fileSystem(), target.root(), manifest, ClonedManifests.deepIndices(indices), transaction(source, false));
    }

    private static Transaction transaction(TableSnapshot source, boolean shallow)
    {
        Transaction.Clone.Builder clone = Transaction.Clone.newBuilder()
                .setIsShallow(shallow)
                .setRefVersion(source.version())
                .setRefPath(source.datasetLocation());
        source.branch().ifPresent(clone::setRefName);
        return Transaction.newBuilder()
                .setReadVersion(source.version())
                .setUuid(UUID.randomUUID().toString())
                .setClone(clone)
                .build();
    }

    private static void checkAbsent(LanceTable target)
    {
        if (target.latestVersion(Optional.empty()).isPresent()) {
            throw new LanceTableException(ALREADY_EXISTS, "Table %s already exists at %s".formatted(target.displayName(), target.root()));
        }
    }

    private static void copyIndex(TableSnapshot source, TableFileSystem sourceFiles, IndexMetadata index, LanceTable target)
    {
        String indexDirectory = FilePaths.indexDirectory(source, index);
        String name = indexDirectory.substring(indexDirectory.lastIndexOf('/') + 1);
        try {
            for (FileEntry file : sourceFiles.listFiles(indexDirectory)) {
                copy(sourceFiles, TableFileSystem.join(indexDirectory, file.name()), target, "_indices/" + name + "/" + file.name());
            }
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot list index files %s of %s: %s".formatted(indexDirectory, source.describe(), e.getMessage()), e);
        }
    }

    private static void copy(TableFileSystem sourceFiles, String from, LanceTable target, String relativePath)
    {
        String to = TableFileSystem.join(target.root(), relativePath);
        try {
            try {
                sourceFiles.copyFile(from, to);
            }
            catch (FileAlreadyExistsException e) {
                // left by an earlier attempt that failed before its commit
                target.fileSystem().deleteFile(to);
                sourceFiles.copyFile(from, to);
            }
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot copy %s to %s for a deep clone: %s".formatted(from, to, e.getMessage()), e);
        }
    }
}
