package io.lancetrino.sharing.recipient;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.Maps;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefStore;
import io.lancetrino.metadata.refs.TagRef;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.lancetrino.sharing.recipient.SharedLocation.ROOT;
import static io.lancetrino.sharing.recipient.SharedLocation.TABLE_SUFFIX;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The shares of one recipient as a read-only tree of Lance tables (layout in {@link SharedLocation}): listings come
 * from the sharing server, a version's manifest is rebuilt from its query answer, and files are read through the
 * signed URLs that answer carried, queried again when they are about to expire or are refused.
 */
public final class SharingFileSystem
        implements TableFileSystem
{
    private static final String VERSIONS = "_versions";
    private static final String TAGS = "_refs/tags";
    private static final String BRANCHES = "_refs/branches";
    private static final String JSON = ".json";

    private static final int DOWNLOAD_CHUNK = 8 << 20;

    private final SharingClient client;
    private Path downloads;
    private final Cache<VersionKey, SharedVersion> versions = CacheBuilder.newBuilder()
            .maximumSize(256)
            .build();

    // the last version listing of each table and branch: a version in it needs no new listing to be found
    private final Cache<Dataset, Map<String, FileEntry>> listedVersions = CacheBuilder.newBuilder()
            .maximumSize(1024)
            .build();

    private record VersionKey(SharedTable table, Optional<String> branch, long version) {}

    private record Dataset(SharedTable table, Optional<String> branch) {}

    public SharingFileSystem(SharingClient client)
    {
        this.client = requireNonNull(client, "client is null");
    }

    public SharingClient client()
    {
        return client;
    }

    @Override
    public byte[] readFile(String location)
            throws IOException
    {
        SharedLocation shared = parse(location);
        String path = shared.path();
        if (path.startsWith(VERSIONS + "/")) {
            long version = manifestVersion(location, path);
            return version(shared.table(), shared.branch(), version, false).manifestFile();
        }
        if (shared.sharedVersion().isPresent()) {
            SignedFile file = signedFile(location, shared, false);
            return read(location, shared, 0, Math.toIntExact(file.size()));
        }
        return refFile(location, shared).orElseThrow(() -> new FileNotFoundException(location));
    }

    @Override
    public boolean exists(String location)
            throws IOException
    {
        return stat(location).isPresent();
    }

    @Override
    public Optional<FileEntry> stat(String location)
            throws IOException
    {
        Optional<SharedLocation> parsed = SharedLocation.parse(location);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        SharedLocation shared = parsed.get();
        String path = shared.path();
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (path.startsWith(VERSIONS + "/")) {
            OptionalLong version = ManifestNaming.versionOf(name);
            if (version.isEmpty()) {
                return Optional.empty();
            }
            Map<String, FileEntry> listed = listedVersions.getIfPresent(new Dataset(shared.table(), shared.branch()));
            if (listed != null && listed.containsKey(name)) {
                return Optional.of(listed.get(name));
            }
            return listVersions(shared).stream().filter(entry -> entry.name().equals(name)).findFirst();
        }
        if (shared.sharedVersion().isPresent()) {
            try {
                return Optional.of(new FileEntry(name, signedFile(location, shared, false).size(), 0));
            }
            catch (FileNotFoundException e) {
                return Optional.empty();
            }
        }
        return refFile(location, shared).map(bytes -> new FileEntry(name, bytes.length, 0));
    }

    @Override
    public List<FileEntry> listFiles(String directory)
            throws IOException
    {
        Optional<SharedLocation> parsed = SharedLocation.parse(directory);
        if (parsed.isEmpty()) {
            return ImmutableList.of();
        }
        SharedLocation shared = parsed.get();
        try {
            return switch (shared.path()) {
                case VERSIONS -> listVersions(shared);
                case TAGS -> shared.branch().isPresent() ? ImmutableList.of() : client.refs(shared.table()).stream()
                        .filter(SharingClient.RefEntry::isTag)
                        .map(ref -> new FileEntry(ref.name() + JSON, 0, 0))
                        .collect(ImmutableList.toImmutableList());
                case BRANCHES -> shared.branch().isPresent() ? ImmutableList.of() : client.refs(shared.table()).stream()
                        .filter(ref -> !ref.isTag())
                        .map(ref -> new FileEntry(RefStore.encodeBranch(ref.name()) + JSON, 0, 0))
                        .collect(ImmutableList.toImmutableList());
                default -> ImmutableList.of();
            };
        }
        catch (FileNotFoundException e) {
            // a table that is no longer shared lists as empty, as a deleted directory would
            return ImmutableList.of();
        }
    }

    @Override
    public List<String> listDirectories(String directory)
            throws IOException
    {
        String trimmed = directory.endsWith("/") ? directory.substring(0, directory.length() - 1) : directory;
        if (trimmed.equals(ROOT)) {
            ImmutableList.Builder<String> schemas = ImmutableList.builder();
            for (String share : client.listShares()) {
                for (String schema : client.listSchemas(share)) {
                    schemas.add(SharedLocation.schemaName(share, schema));
                }
            }
            return schemas.build();
        }
        if (trimmed.startsWith(ROOT + "/") && trimmed.indexOf('/', ROOT.length() + 1) < 0) {
            Optional<String[]> schema = SharedLocation.splitSchemaName(trimmed.substring(ROOT.length() + 1));
            if (schema.isEmpty()) {
                return ImmutableList.of();
            }
            try {
                return client.listTables(schema.get()[0], schema.get()[1]).stream()
                        .map(table -> table + TABLE_SUFFIX)
                        .collect(ImmutableList.toImmutableList());
            }
            catch (FileNotFoundException e) {
                return ImmutableList.of();
            }
        }
        return ImmutableList.of();
    }

    @Override
    public long length(String location)
            throws IOException
    {
        return stat(location).orElseThrow(() -> new FileNotFoundException(location)).length();
    }

    /**
     * A local copy of a shared data file, for the Lance SDK, which cannot read through signed URLs: kept in a
     * temporary directory until the JVM exits, fetched once per file.
     */
    public synchronized Path localCopy(String location)
            throws IOException
    {
        SharedLocation shared = parse(location);
        SignedFile file = signedFile(location, shared, false);
        if (downloads == null) {
            downloads = Files.createTempDirectory("lance-sharing-");
            downloads.toFile().deleteOnExit();
        }
        Path target = downloads.resolve(shared.sharedFile().replace('/', '_'));
        if (Files.exists(target) && Files.size(target) == file.size()) {
            return target;
        }
        Path partial = Files.createTempFile(downloads, "download-", ".part");
        try (OutputStream out = Files.newOutputStream(partial)) {
            for (long position = 0; position < file.size(); position += DOWNLOAD_CHUNK) {
                out.write(read(location, shared, position, (int) Math.min(DOWNLOAD_CHUNK, file.size() - position)));
            }
        }
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        target.toFile().deleteOnExit();
        return target;
    }

    public SharedInputFile newInputFile(String location)
    {
        return new SharedInputFile(this, location);
    }

    /**
     * A byte range of a shared file: a refused URL (expired, or unknown to a restarted server) is replaced by querying
     * its version again, once.
     */
    byte[] read(String location, SharedLocation shared, long position, int length)
            throws IOException
    {
        try {
            return client.read(signedFile(location, shared, false), position, length);
        }
        catch (FileNotFoundException e) {
            return client.read(signedFile(location, shared, true), position, length);
        }
    }

    SignedFile signedFile(String location, SharedLocation shared, boolean refresh)
            throws IOException
    {
        long version = shared.sharedVersion().orElseThrow(() -> new FileNotFoundException(location));
        return version(shared.table(), shared.branch(), version, refresh).file(shared.sharedFile())
                .orElseThrow(() -> new FileNotFoundException("%s is not a file of %s version %s".formatted(location, shared.table(), version)));
    }

    private SharedVersion version(SharedTable table, Optional<String> branch, long version, boolean refresh)
            throws IOException
    {
        VersionKey key = new VersionKey(table, branch, version);
        SharedVersion cached = versions.getIfPresent(key);
        if (cached != null && !refresh && cached.isFresh(System.currentTimeMillis())) {
            return cached;
        }
        SharedVersion fetched = client.query(table, branch, version);
        versions.put(key, fetched);
        return fetched;
    }

    private List<FileEntry> listVersions(SharedLocation shared)
            throws IOException
    {
        try {
            List<FileEntry> entries = client.versions(shared.table(), shared.branch()).stream()
                    .map(entry -> new FileEntry(ManifestNaming.V2.fileName(entry.version()), 0, entry.timestampMillis()))
                    .collect(ImmutableList.toImmutableList());
            listedVersions.put(new Dataset(shared.table(), shared.branch()), Maps.uniqueIndex(entries, FileEntry::name));
            return entries;
        }
        catch (FileNotFoundException e) {
            return ImmutableList.of();
        }
    }

    private Optional<byte[]> refFile(String location, SharedLocation shared)
            throws IOException
    {
        String path = shared.path();
        if (shared.branch().isPresent() || !path.endsWith(JSON)) {
            return Optional.empty();
        }
        boolean tag = path.startsWith(TAGS + "/");
        if (!tag && !path.startsWith(BRANCHES + "/")) {
            return Optional.empty();
        }
        String encoded = path.substring(path.lastIndexOf('/') + 1, path.length() - JSON.length());
        String name = tag ? encoded : URLDecoder.decode(encoded, UTF_8);
        List<SharingClient.RefEntry> refs;
        try {
            refs = client.refs(shared.table());
        }
        catch (FileNotFoundException e) {
            return Optional.empty();
        }
        return refs.stream()
                .filter(ref -> ref.isTag() == tag && ref.name().equals(name))
                .findFirst()
                .map(ref -> tag
                        ? RefStore.toJson(new TagRef(ref.name(), ref.branch(), ref.version(), Optional.empty(), Optional.empty(), 0, Map.of()))
                        : RefStore.toJson(new BranchRef(ref.name(), ref.parentBranch(), ref.parentVersion(), Optional.of(Instant.EPOCH), ImmutableList.of(), 0, Map.of())));
    }

    private static SharedLocation parse(String location)
            throws FileNotFoundException
    {
        return SharedLocation.parse(location).orElseThrow(() -> new FileNotFoundException(location));
    }

    private static long manifestVersion(String location, String path)
            throws FileNotFoundException
    {
        return ManifestNaming.versionOf(path.substring(path.lastIndexOf('/') + 1)).orElseThrow(() -> new FileNotFoundException(location));
    }

    // a recipient reads; the catalog's access control refuses writes before they get here
    @Override
    public void createExclusive(String location, byte[] data)
            throws IOException
    {
        throw readOnly(location);
    }

    @Override
    public void writeFile(String location, byte[] data)
            throws IOException
    {
        throw readOnly(location);
    }

    @Override
    public OutputStream newOutputStream(String location)
            throws IOException
    {
        throw readOnly(location);
    }

    @Override
    public void deleteFile(String location)
            throws IOException
    {
        throw readOnly(location);
    }

    @Override
    public void copyFile(String source, String target)
            throws IOException
    {
        throw readOnly(target);
    }

    @Override
    public void createDirectory(String location)
            throws IOException
    {
        throw readOnly(location);
    }

    @Override
    public void deleteDirectory(String location)
            throws IOException
    {
        throw readOnly(location);
    }

    private static IOException readOnly(String location)
    {
        return new IOException("%s belongs to a share, which a recipient can only read".formatted(location));
    }
}
