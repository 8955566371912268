package io.lancetrino.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.refs.RefStore;
import io.lancetrino.metadata.schema.LanceSchema;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static io.lancetrino.metadata.LanceErrorKind.UNSUPPORTED_FEATURE;
import static io.lancetrino.metadata.LanceErrorKind.VERSION_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * A Lance table at a root directory: its versions on main and on every branch, their manifests, and its refs.
 */
public final class LanceTable
{
    public static final String VERSIONS_DIR = "_versions";
    private static final String HINT_FILE = "latest_version_hint.json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final TableFileSystem fileSystem;
    private final String root;
    private final String displayName;
    private final ManifestCache manifestCache;

    public LanceTable(TableFileSystem fileSystem, String root, String displayName, ManifestCache manifestCache)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.root = stripSlash(requireNonNull(root, "root is null"));
        this.displayName = requireNonNull(displayName, "displayName is null");
        this.manifestCache = requireNonNull(manifestCache, "manifestCache is null");
    }

    public String root()
    {
        return root;
    }

    public String displayName()
    {
        return displayName;
    }

    public TableFileSystem fileSystem()
    {
        return fileSystem;
    }

    public RefStore refs()
    {
        return new RefStore(fileSystem, root);
    }

    /**
     * A directory is a Lance table only if it holds {@code _versions/} with at least one version. The version hint,
     * when its manifest exists, answers without listing {@code _versions/}, which grows with every commit.
     */
    public static boolean isTable(TableFileSystem fileSystem, String location)
    {
        String versions = TableFileSystem.join(stripSlash(location), VERSIONS_DIR);
        try {
            OptionalLong hinted = readHint(fileSystem, versions);
            if (hinted.isPresent() && findManifest(fileSystem, versions, hinted.getAsLong()).isPresent()) {
                return true;
            }
            return fileSystem.listFiles(versions).stream()
                    .anyMatch(file -> ManifestNaming.versionOf(file.name()).isPresent());
        }
        catch (IOException e) {
            return false;
        }
    }

    public String datasetLocation(Optional<String> branch)
    {
        return branch.map(name -> TableFileSystem.join(root, "tree/" + name)).orElse(root);
    }

    public List<Long> listVersions(Optional<String> branch)
    {
        return listVersionFiles(branch).stream()
                .map(file -> ManifestNaming.versionOf(file.name()).orElseThrow())
                .sorted()
                .collect(ImmutableList.toImmutableList());
    }

    /**
     * Every manifest of main or of a branch from one listing of {@code _versions/}, by version; where a version has both
     * names the V2 name wins, as {@link #snapshot} resolves it.
     */
    public SortedMap<Long, String> manifestLocations(Optional<String> branch)
    {
        String versions = versionsDirectory(branch);
        SortedMap<Long, String> locations = new TreeMap<>();
        for (FileEntry file : listVersionFiles(branch)) {
            String location = TableFileSystem.join(versions, file.name());
            boolean v2 = ManifestNaming.namingOf(file.name()).orElseThrow() == ManifestNaming.V2;
            locations.merge(ManifestNaming.versionOf(file.name()).orElseThrow(), location, (existing, added) -> v2 ? added : existing);
        }
        return locations;
    }

    /**
     * Main (empty) and every branch: the datasets that make up the table.
     */
    public List<Optional<String>> datasets()
    {
        ImmutableList.Builder<Optional<String>> datasets = ImmutableList.builder();
        datasets.add(Optional.empty());
        refs().listBranches().forEach(branch -> datasets.add(Optional.of(branch.name())));
        return datasets.build();
    }

    /**
     * The newest version: the hint file is trusted only when its manifest exists and the next one does not, so a stale
     * or missing hint falls back to listing {@code _versions/}.
     */
    public OptionalLong latestVersion(Optional<String> branch)
    {
        String versions = versionsDirectory(branch);
        OptionalLong hinted = readHint(fileSystem, versions);
        if (hinted.isPresent()) {
            long version = hinted.getAsLong();
            if (manifestLocation(branch, version).isPresent() && manifestLocation(branch, version + 1).isEmpty()) {
                return hinted;
            }
        }
        return listVersionFiles(branch).stream()
                .mapToLong(file -> ManifestNaming.versionOf(file.name()).orElseThrow())
                .max();
    }

    public TableSnapshot snapshot(Optional<String> branch, long version)
    {
        ManifestEntry entry = manifestEntry(branch, version).orElseThrow(() -> new LanceTableException(VERSION_NOT_FOUND,
                "Table %s has no %s (no manifest in %s)".formatted(displayName, TableSnapshot.describe(branch, version), versionsDirectory(branch))));
        String location = entry.location();
        ManifestFile manifest = readManifest(entry.cacheKey(), location);
        if (manifest.version() != version) {
            throw new LanceTableException(LanceErrorKind.CORRUPT_MANIFEST,
                    "Corrupt Lance manifest %s: it records version %s, expected %s".formatted(location, manifest.version(), version));
        }
        checkReadable(manifest);
        return new TableSnapshot(root, branch, datasetLocation(branch), manifest, LanceSchema.fromManifest(manifest.manifest()));
    }

    private ManifestFile readManifest(String cacheKey, String location)
    {
        return manifestCache.get(cacheKey, () -> {
            try {
                return ManifestFile.parse(location, fileSystem.readFile(location));
            }
            catch (FileNotFoundException e) {
                throw new LanceTableException(VERSION_NOT_FOUND, "Manifest %s of table %s does not exist".formatted(location, displayName), e);
            }
            catch (IOException e) {
                throw new LanceTableException(FILESYSTEM_ERROR, "Cannot read manifest %s of table %s: %s".formatted(location, displayName, e.getMessage()), e);
            }
        });
    }

    /**
     * The size of the snapshot's manifest file, which Lance's refs record.
     */
    public long manifestSize(TableSnapshot snapshot)
    {
        String location = snapshot.manifestFile().location();
        try {
            return fileSystem.length(location);
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot read manifest %s of table %s: %s".formatted(location, displayName, e.getMessage()), e);
        }
    }

    /**
     * The manifest of a version: the V2 name is tried first, then the V1 name.
     */
    public Optional<String> manifestLocation(Optional<String> branch, long version)
    {
        return manifestEntry(branch, version).map(ManifestEntry::location);
    }

    /**
     * A manifest file with what identifies its content: a dropped and re-created table reuses manifest names.
     */
    record ManifestEntry(String location, long length, long lastModifiedMillis)
    {
        String cacheKey()
        {
            return location + "#" + length + "#" + lastModifiedMillis;
        }
    }

    private Optional<ManifestEntry> manifestEntry(Optional<String> branch, long version)
    {
        String versions = versionsDirectory(branch);
        try {
            return findManifest(fileSystem, versions, version);
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot read %s of table %s: %s".formatted(versions, displayName, e.getMessage()), e);
        }
    }

    // the V2 name first, then the V1 name
    private static Optional<ManifestEntry> findManifest(TableFileSystem fileSystem, String versions, long version)
            throws IOException
    {
        for (ManifestNaming naming : List.of(ManifestNaming.V2, ManifestNaming.V1)) {
            String location = TableFileSystem.join(versions, naming.fileName(version));
            Optional<FileEntry> entry = fileSystem.stat(location);
            if (entry.isPresent()) {
                return Optional.of(new ManifestEntry(location, entry.get().length(), entry.get().lastModifiedMillis()));
            }
        }
        return Optional.empty();
    }

    public String versionsDirectory(Optional<String> branch)
    {
        return TableFileSystem.join(datasetLocation(branch), VERSIONS_DIR);
    }

    private void checkReadable(ManifestFile file)
    {
        List<String> unknown = FeatureFlags.unknownReaderFlags(file.manifest().getReaderFeatureFlags());
        if (!unknown.isEmpty()) {
            throw new LanceTableException(UNSUPPORTED_FEATURE, "Table %s version %s needs reader features this connector does not support: %s (manifest %s)"
                    .formatted(displayName, file.version(), String.join(", ", unknown), file.location()));
        }
    }

    private List<FileEntry> listVersionFiles(Optional<String> branch)
    {
        String versions = versionsDirectory(branch);
        try {
            return fileSystem.listFiles(versions).stream()
                    .filter(file -> ManifestNaming.versionOf(file.name()).isPresent())
                    .collect(ImmutableList.toImmutableList());
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot list %s of table %s: %s".formatted(versions, displayName, e.getMessage()), e);
        }
    }

    private static OptionalLong readHint(TableFileSystem fileSystem, String versions)
    {
        try {
            JsonNode hint = MAPPER.readTree(fileSystem.readFile(TableFileSystem.join(versions, HINT_FILE)));
            JsonNode version = hint.get("version");
            return version != null && version.canConvertToLong() ? OptionalLong.of(version.asLong()) : OptionalLong.empty();
        }
        catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static String stripSlash(String location)
    {
        return location.endsWith("/") && location.length() > 1 ? location.substring(0, location.length() - 1) : location;
    }
}
