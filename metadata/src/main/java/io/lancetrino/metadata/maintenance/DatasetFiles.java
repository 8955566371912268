package io.lancetrino.metadata.maintenance;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;

import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The files a dataset (a table's main or one branch directory) holds of its own: {@code _versions/},
 * {@code _transactions/}, {@code data/}, {@code _deletions/} and {@code _indices/<uuid>/}. Nothing under
 * {@code tree/} (other branches) and nothing reached through a base path is listed, so a sweep never deletes into
 * another branch's directory or another dataset.
 */
final class DatasetFiles
{
    private static final String HINT_FILE = "latest_version_hint.json";

    private DatasetFiles() {}

    /**
     * @param version set for a manifest file
     */
    record StoredFile(String location, String normalized, FileKind kind, long length, long lastModifiedMillis, Optional<Long> version)
    {
        StoredFile
        {
            requireNonNull(location, "location is null");
            requireNonNull(normalized, "normalized is null");
            requireNonNull(kind, "kind is null");
            requireNonNull(version, "version is null");
        }
    }

    static ImmutableList<StoredFile> list(TableFileSystem fileSystem, String datasetLocation)
            throws IOException
    {
        ImmutableList.Builder<StoredFile> files = ImmutableList.builder();
        String versions = TableFileSystem.join(datasetLocation, LanceTable.VERSIONS_DIR);
        for (FileEntry entry : fileSystem.listFiles(versions)) {
            if (entry.name().equals(HINT_FILE)) {
                continue;
            }
            OptionalLong parsed = ManifestNaming.versionOf(entry.name());
            Optional<Long> version = parsed.isPresent() ? Optional.of(parsed.getAsLong()) : Optional.empty();
            // anything else in _versions/ (a staging file of a killed commit) is named by no manifest
            files.add(stored(versions, entry, version.isPresent() ? FileKind.MANIFEST : FileKind.ORPHAN, version));
        }
        addDirectory(fileSystem, files, TableFileSystem.join(datasetLocation, "_transactions"), FileKind.TRANSACTION);
        addDirectory(fileSystem, files, TableFileSystem.join(datasetLocation, "data"), FileKind.DATA);
        addDirectory(fileSystem, files, TableFileSystem.join(datasetLocation, "_deletions"), FileKind.DELETION);
        String indices = TableFileSystem.join(datasetLocation, "_indices");
        for (String index : fileSystem.listDirectories(indices)) {
            addTree(fileSystem, files, TableFileSystem.join(indices, index));
        }
        return files.build();
    }

    private static void addDirectory(TableFileSystem fileSystem, ImmutableList.Builder<StoredFile> files, String directory, FileKind kind)
            throws IOException
    {
        for (FileEntry entry : fileSystem.listFiles(directory)) {
            files.add(stored(directory, entry, kind, Optional.empty()));
        }
    }

    private static void addTree(TableFileSystem fileSystem, ImmutableList.Builder<StoredFile> files, String directory)
            throws IOException
    {
        addDirectory(fileSystem, files, directory, FileKind.INDEX);
        for (String child : fileSystem.listDirectories(directory)) {
            addTree(fileSystem, files, TableFileSystem.join(directory, child));
        }
    }

    private static StoredFile stored(String directory, FileEntry entry, FileKind kind, Optional<Long> version)
    {
        String location = TableFileSystem.join(directory, entry.name());
        return new StoredFile(location, Locations.normalize(location), kind, entry.length(), entry.lastModifiedMillis(), version);
    }
}
