package io.lancetrino.metadata.maintenance;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.fs.FileEntry;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static io.lancetrino.metadata.LanceErrorKind.UNSUPPORTED_FEATURE;

/**
 * Reads every manifest of a dataset straight from one listing of {@code _versions/}, bypassing the manifest cache and
 * schema decoding that queries need: cleanup reads each manifest once and keeps only the file names it reaches.
 */
final class ManifestScanner
{
    private ManifestScanner() {}

    record VersionFile(long version, String location) {}

    static List<VersionFile> list(LanceTable table, Optional<String> dataset)
    {
        String directory = table.versionsDirectory(dataset);
        TreeMap<Long, VersionFile> versions = new TreeMap<>();
        try {
            for (FileEntry entry : table.fileSystem().listFiles(directory)) {
                OptionalLong version = ManifestNaming.versionOf(entry.name());
                if (version.isPresent()) {
                    VersionFile file = new VersionFile(version.getAsLong(), directory + "/" + entry.name());
                    // the V2 name wins when a version has both, as readers resolve it
                    versions.merge(version.getAsLong(), file, (old, added) -> ManifestNaming.namingOf(entry.name()).orElse(null) == ManifestNaming.V2 ? added : old);
                }
            }
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot list %s of table %s: %s".formatted(directory, table.displayName(), e.getMessage()), e);
        }
        return ImmutableList.copyOf(versions.values());
    }

    /**
     * @return empty when the manifest was removed meanwhile (by another cleanup)
     */
    static Optional<ManifestFile> read(LanceTable table, VersionFile file)
    {
        ManifestFile manifest;
        try {
            manifest = ManifestFile.parse(file.location(), table.fileSystem().readFile(file.location()));
        }
        catch (FileNotFoundException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot read manifest %s of table %s: %s".formatted(file.location(), table.displayName(), e.getMessage()), e);
        }
        // a feature this connector does not know may name files it would not recognize as in use
        List<String> unknown = FeatureFlags.unknownReaderFlags(manifest.manifest().getReaderFeatureFlags());
        if (!unknown.isEmpty()) {
            throw new LanceTableException(UNSUPPORTED_FEATURE, "Cannot clean up table %s: manifest %s uses reader features this connector does not know: %s"
                    .formatted(table.displayName(), file.location(), String.join(", ", unknown)));
        }
        return Optional.of(manifest);
    }
}
