package io.lancetrino.metadata.maintenance;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestFile;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static io.lancetrino.metadata.LanceErrorKind.UNSUPPORTED_FEATURE;

/**
 * Reads every manifest of a dataset from one listing of {@code _versions/}, bypassing the manifest cache and
 * schema decoding that queries need: cleanup reads each manifest once and keeps only the file names it reaches.
 */
final class ManifestScanner
{
    private ManifestScanner() {}

    record VersionFile(long version, String location) {}

    static List<VersionFile> list(LanceTable table, Optional<String> dataset)
    {
        return table.manifestLocations(dataset).entrySet().stream()
                .map(entry -> new VersionFile(entry.getKey(), entry.getValue()))
                .collect(ImmutableList.toImmutableList());
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
