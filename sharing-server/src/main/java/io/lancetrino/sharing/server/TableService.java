package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Throwables;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.VersionChanges;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.refs.TagRef;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.SchemaVersions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The answers of the table requests: version, versions, refs, metadata, query and changes.
 */
public final class TableService
{
    public static final int DEFAULT_MAX_FILES = 1000;
    public static final int MAX_MAX_FILES = 10000;
    private static final String PAGE_TOKEN = "pageToken";
    private static final String REFRESH_TOKEN = "refreshToken";

    private final ObjectMapper mapper = new ObjectMapper();
    private final FileRegistry files;
    private final UrlSigner signer;
    private final Warehouses warehouses;
    private final Tokens tokens;
    private final long urlLifetimeMillis;
    private final Clock clock;
    private final Cache<SchemaIdKey, Long> schemaIds = CacheBuilder.newBuilder().maximumSize(10_000).build();

    public TableService(FileRegistry files, UrlSigner signer, Warehouses warehouses, long urlLifetimeSeconds, Clock clock)
    {
        this.warehouses = requireNonNull(warehouses, "warehouses is null");
        this.files = requireNonNull(files, "files is null");
        this.signer = requireNonNull(signer, "signer is null");
        this.tokens = new Tokens(signer);
        this.urlLifetimeMillis = urlLifetimeSeconds * 1000;
        this.clock = requireNonNull(clock, "clock is null");
    }

    public TableSnapshot resolve(SharedTable table, Selectors selectors)
    {
        if (selectors.tag().isPresent()) {
            return table.tag(selectors.tag().get());
        }
        Optional<String> branch = table.branch(selectors.branch());
        if (selectors.version().isPresent()) {
            return table.version(branch, selectors.version().getAsLong());
        }
        if (selectors.timestamp().isPresent()) {
            return table.atOrBefore(branch, selectors.timestamp().get());
        }
        return table.latest(branch);
    }

    public long version(SharedTable table, Optional<String> branch, Optional<String> tag, Optional<Instant> startingTimestamp)
    {
        if (tag.isPresent()) {
            if (branch.isPresent() || startingTimestamp.isPresent()) {
                throw SharingException.invalidParameter("A tag cannot be combined with branch or startingTimestamp");
            }
            return table.tag(tag.get()).version();
        }
        Optional<String> resolved = table.branch(branch);
        if (startingTimestamp.isPresent()) {
            return table.atOrAfter(resolved, startingTimestamp.get()).version();
        }
        return table.latest(resolved).version();
    }

    public ObjectNode versions(SharedTable table, Optional<String> branch)
    {
        Optional<String> resolved = table.branch(branch);
        ObjectNode result = mapper.createObjectNode();
        ArrayNode items = result.putArray("items");
        for (long version : table.allowedVersions(resolved)) {
            TableSnapshot snapshot = table.table().snapshot(resolved, version);
            items.addObject().put("version", version).put("timestamp", RefResolver.commitTime(snapshot).toString());
        }
        return result;
    }

    public ObjectNode refs(SharedTable table)
    {
        ObjectNode result = mapper.createObjectNode();
        ArrayNode items = result.putArray("items");
        // a ref whose name the protocol cannot carry is not listed
        for (TagRef tag : table.allowedTags()) {
            if (Names.normalize(tag.name(), true).isEmpty()) {
                continue;
            }
            ObjectNode item = items.addObject().put("type", "tag").put("name", tag.name());
            Optional<String> branch = RefResolver.branch(tag.branch());
            item.put("branch", branch.orElse(null));
            item.put("version", tag.version());
        }
        for (BranchRef branch : table.allowedBranches()) {
            List<Long> versions = Names.normalizeBranch(branch.name()).isPresent() ? table.allowedVersions(Optional.of(branch.name())) : List.of();
            if (versions.isEmpty()) {
                continue;
            }
            items.addObject()
                    .put("type", "branch")
                    .put("name", branch.name())
                    .put("parentBranch", RefResolver.branch(branch.parentBranch()).orElse(null))
                    .put("parentVersion", branch.parentVersion())
                    .put("version", versions.getLast());
        }
        return result;
    }

    public List<JsonNode> metadata(SharedTable table, Selectors selectors, Capabilities capabilities)
    {
        TableSnapshot snapshot = resolve(table, selectors);
        checkFeatures(snapshot, capabilities);
        return ImmutableList.of(protocolLine(snapshot), metaDataLine(table, snapshot));
    }

    public record QueryRequest(Selectors selectors, OptionalLong limitHint, int maxFiles, Optional<String> pageToken, boolean includeRefreshToken, Optional<String> refreshToken)
    {
        public QueryRequest
        {
            requireNonNull(selectors, "selectors is null");
            requireNonNull(limitHint, "limitHint is null");
            requireNonNull(pageToken, "pageToken is null");
            requireNonNull(refreshToken, "refreshToken is null");
        }

        public static QueryRequest parse(JsonNode body)
        {
            if (body == null || body.isNull() || body.isMissingNode()) {
                body = new ObjectMapper().createObjectNode();
            }
            if (!body.isObject()) {
                throw SharingException.invalidParameter("The query body must be a JSON object");
            }
            Selectors selectors = new Selectors(
                    body.hasNonNull("version") ? Selectors.parseVersion(body.get("version").asText()) : OptionalLong.empty(),
                    Selectors.parseTimestamp(text(body, "timestamp")),
                    Optional.ofNullable(text(body, "tag")),
                    Optional.ofNullable(text(body, "branch")));
            OptionalLong limitHint = OptionalLong.empty();
            if (body.hasNonNull("limitHint")) {
                if (!body.get("limitHint").canConvertToLong() || body.get("limitHint").asLong() < 0) {
                    throw SharingException.invalidParameter("limitHint must be a non-negative number");
                }
                limitHint = OptionalLong.of(body.get("limitHint").asLong());
            }
            int maxFiles = DEFAULT_MAX_FILES;
            if (body.hasNonNull("maxFiles")) {
                JsonNode value = body.get("maxFiles");
                if (!value.canConvertToInt() || value.asInt() < 1 || value.asInt() > MAX_MAX_FILES) {
                    throw SharingException.invalidParameter("maxFiles must be between 1 and " + MAX_MAX_FILES);
                }
                maxFiles = value.asInt();
            }
            boolean includeRefreshToken = body.path("includeRefreshToken").asBoolean(false);
            return new QueryRequest(selectors, limitHint, maxFiles, Optional.ofNullable(text(body, PAGE_TOKEN)), includeRefreshToken, Optional.ofNullable(text(body, REFRESH_TOKEN)));
        }

        private static String text(JsonNode body, String key)
        {
            JsonNode value = body.get(key);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isTextual()) {
                throw SharingException.invalidParameter(key + " must be a string");
            }
            return value.asText();
        }
    }

    /**
     * @param urlDeadline epoch milliseconds no URL may outlive (the recipient's expiration)
     */
    public List<JsonNode> query(SharedTable table, QueryRequest request, Capabilities capabilities, String baseUrl, long urlDeadline)
    {
        String tableKey = table.share() + "/" + table.schema() + "/" + table.name();
        String binding = request.selectors().canonical() + ";limit=" + (request.limitHint().isPresent() ? request.limitHint().getAsLong() : "");
        TableSnapshot snapshot;
        int offset = 0;
        long rows = 0;
        if (request.pageToken().isPresent()) {
            JsonNode page = tokens.decode(request.pageToken().get(), PAGE_TOKEN);
            if (!page.path("table").asText().equals(tableKey) || !page.path("binding").asText().equals(binding)) {
                throw SharingException.invalidParameter("The pageToken belongs to another table or other query parameters");
            }
            snapshot = pinned(table, page);
            offset = page.path("offset").asInt();
            rows = page.path("rows").asLong();
        }
        else if (request.refreshToken().isPresent()) {
            JsonNode refresh = tokens.decode(request.refreshToken().get(), REFRESH_TOKEN);
            if (!refresh.path("table").asText().equals(tableKey) || !refresh.path("binding").asText().equals(request.selectors().canonical())) {
                throw SharingException.invalidParameter("The refreshToken belongs to another table or other query parameters");
            }
            snapshot = pinned(table, refresh);
        }
        else {
            snapshot = resolve(table, request.selectors());
        }
        checkFeatures(snapshot, capabilities);

        long expires = urlExpiration(urlDeadline);
        List<JsonNode> lines = new ArrayList<>();
        lines.add(protocolLine(snapshot));
        lines.add(metaDataLine(table, snapshot));
        List<DataFragment> fragments = snapshot.manifest().getFragmentsList();
        int index = offset;
        int added = 0;
        boolean limitReached = request.limitHint().isPresent() && rows >= request.limitHint().getAsLong();
        while (index < fragments.size() && added < request.maxFiles() && !limitReached) {
            DataFragment fragment = fragments.get(index++);
            ObjectNode line = mapper.createObjectNode();
            line.set("fragment", fragment(table, snapshot, fragment, baseUrl, expires));
            lines.add(line);
            added++;
            rows += fragment.getPhysicalRows() - VersionSummary.deletedRows(fragment);
            limitReached = request.limitHint().isPresent() && rows >= request.limitHint().getAsLong();
        }
        ObjectNode end = mapper.createObjectNode();
        ObjectNode action = end.putObject("endStreamAction");
        if (index < fragments.size() && !limitReached) {
            ObjectNode page = pin(tableKey, binding, snapshot).put("kind", PAGE_TOKEN).put("offset", index).put("rows", rows);
            action.put("nextPageToken", tokens.encode(page));
        }
        if (request.includeRefreshToken() || request.refreshToken().isPresent()) {
            action.put("refreshToken", tokens.encode(pin(tableKey, request.selectors().canonical(), snapshot).put("kind", REFRESH_TOKEN)));
        }
        action.put("minUrlExpirationTimestamp", expires);
        lines.add(end);
        return lines;
    }

    private long urlExpiration(long urlDeadline)
    {
        return Math.min(clock.millis() + urlLifetimeMillis, urlDeadline);
    }

    private ObjectNode pin(String tableKey, String binding, TableSnapshot snapshot)
    {
        ObjectNode payload = mapper.createObjectNode()
                .put("table", tableKey)
                .put("binding", binding)
                .put("version", snapshot.version());
        payload.put("branch", snapshot.branch().orElse(null));
        return payload;
    }

    // the version a token pinned, still subject to what the share allows now
    private static TableSnapshot pinned(SharedTable table, JsonNode token)
    {
        Optional<String> branch = token.hasNonNull("branch") ? Optional.of(token.get("branch").asText()) : Optional.empty();
        return table.version(branch, token.path("version").asLong());
    }

    public List<JsonNode> changes(SharedTable table, OptionalLong startingVersion, OptionalLong endingVersion, Optional<String> branch, Capabilities capabilities, String baseUrl, long urlDeadline)
    {
        if (startingVersion.isEmpty()) {
            throw SharingException.invalidParameter("startingVersion is required");
        }
        long start = startingVersion.getAsLong();
        Optional<String> resolved = table.branch(branch);
        TableSnapshot ending = endingVersion.isPresent() ? table.version(resolved, endingVersion.getAsLong()) : table.latest(resolved);
        if (start > ending.version()) {
            throw SharingException.invalidParameter("startingVersion %s is after the ending version %s".formatted(start, ending.version()));
        }
        if (table.beforeStart(start)) {
            throw SharingException.notFound("Version %s not found: the share starts at a later version".formatted(start));
        }
        List<TableSnapshot> snapshots = table.allowedVersions(resolved).stream()
                .filter(version -> version >= start && version <= ending.version())
                .map(version -> table.table().snapshot(resolved, version))
                .collect(ImmutableList.toImmutableList());
        for (TableSnapshot snapshot : snapshots) {
            checkFeatures(snapshot, capabilities);
        }
        checkFeatures(ending, capabilities);

        long expires = urlExpiration(urlDeadline);
        List<JsonNode> lines = new ArrayList<>();
        lines.add(protocolLine(ending));
        lines.add(metaDataLine(table, ending));
        for (TableSnapshot snapshot : snapshots) {
            lines.add(versionLine(table, snapshot, baseUrl, expires));
        }
        return lines;
    }

    private ObjectNode versionLine(SharedTable table, TableSnapshot snapshot, String baseUrl, long expires)
    {
        Optional<Transaction> transaction = Transactions.read(table.table().fileSystem(), snapshot);
        // a previous manifest that was cleaned up leaves nothing to compare with: the whole version counts as added
        Manifest previous = VersionChanges.previousManifest(table.table(), snapshot).orElse(Manifest.getDefaultInstance());
        VersionChanges changes = VersionChanges.between(previous, snapshot.manifest(), transaction.map(Transaction::hasOverwrite).orElse(false));
        Map<Long, DataFragment> fragments = snapshot.manifest().getFragmentsList().stream()
                .collect(Collectors.toMap(DataFragment::getId, Function.identity(), (first, second) -> first));

        ObjectNode line = mapper.createObjectNode();
        ObjectNode version = line.putObject("version")
                .put("version", snapshot.version())
                .put("timestamp", RefResolver.commitTime(snapshot).toString());
        version.put("operation", transaction.map(Transactions::operationName).orElse(null));
        ArrayNode added = version.putArray("addedFragments");
        ArrayNode removed = version.putArray("removedFragmentIds");
        ArrayNode deletions = version.putArray("deletionChanges");
        for (VersionChanges.Change change : changes.changes()) {
            switch (change) {
                case VersionChanges.FragmentAdded fragment -> added.add(fragment(table, snapshot, fragments.get(fragment.fragmentId()), baseUrl, expires));
                case VersionChanges.FragmentRemoved fragment -> removed.add(fragment.fragmentId());
                case VersionChanges.DataFilesChanged fragment -> {
                    // a fragment whose data files changed (a column added in place) is shipped as replaced
                    removed.add(fragment.fragmentId());
                    added.add(fragment(table, snapshot, fragments.get(fragment.fragmentId()), baseUrl, expires));
                }
                case VersionChanges.DeletionsChanged deletion -> {
                    ObjectNode item = deletions.addObject()
                            .put("fragmentId", deletion.fragmentId())
                            .put("deletedRowsBefore", deletion.deletedBefore())
                            .put("deletedRowsAfter", deletion.deletedAfter());
                    DataFragment fragment = fragments.get(deletion.fragmentId());
                    Optional<String> location = fragment == null ? Optional.empty() : FilePaths.deletionFile(snapshot, fragment);
                    if (location.isPresent()) {
                        item.set("deletionFile", file(table, location.get(), 0, baseUrl, expires));
                    }
                    else {
                        item.putNull("deletionFile");
                    }
                }
                default -> {}
            }
        }
        return line;
    }

    private ObjectNode protocolLine(TableSnapshot snapshot)
    {
        ObjectNode line = mapper.createObjectNode();
        ObjectNode protocol = line.putObject("protocol").put("responseFormat", Capabilities.RESPONSE_FORMAT);
        ArrayNode features = protocol.putArray("readerFeatures");
        requiredFeatures(snapshot).forEach(features::add);
        return line;
    }

    private ObjectNode metaDataLine(SharedTable table, TableSnapshot snapshot)
    {
        Manifest manifest = snapshot.manifest();
        VersionSummary summary = VersionSummary.of(manifest);
        Optional<Transaction> transaction = Transactions.read(table.table().fileSystem(), snapshot);
        ObjectNode line = mapper.createObjectNode();
        ObjectNode metaData = line.putObject("metaData").put("version", snapshot.version());
        metaData.put("branch", snapshot.branch().orElse(null));
        metaData.put("timestamp", RefResolver.commitTime(snapshot).toString());
        metaData.put("schemaId", schemaId(table, snapshot));
        ArrayNode schema = metaData.putArray("schema");
        snapshot.schema().fields().forEach(field -> addField(schema, field));
        metaData.put("manifest", Base64.getEncoder().encodeToString(manifest.toBuilder().clearFragments().clearBasePaths().build().toByteArray()));
        transaction.ifPresent(value -> metaData.put("transaction", Base64.getEncoder().encodeToString(value.toByteArray())));
        metaData.put("operation", transaction.map(Transactions::operationName).orElse(null));
        metaData.put("numFragments", summary.fragments());
        metaData.put("numRows", summary.liveRows());
        return line;
    }

    private static void addField(ArrayNode schema, LanceField field)
    {
        schema.addObject()
                .put("name", field.name())
                .put("id", field.id())
                .put("parentId", field.parentId())
                .put("logicalType", field.logicalType())
                .put("nullable", field.nullable());
        field.children().forEach(child -> addField(schema, child));
    }

    // as t$schemas numbers them: over the snapshot's branch, up to the snapshot. Every answer carries it, and counting
    // reads every earlier version, so it is kept per version and per first version (a cleanup renumbers)
    private long schemaId(SharedTable table, TableSnapshot snapshot)
    {
        List<Long> versions = table.table().listVersions(snapshot.branch());
        long first = versions.isEmpty() ? snapshot.version() : versions.getFirst();
        SchemaIdKey key = new SchemaIdKey(table.table().root(), snapshot.branch(), first, snapshot.version());
        try {
            return schemaIds.get(key, () -> countSchemas(table, snapshot, versions));
        }
        catch (ExecutionException | UncheckedExecutionException e) {
            Throwables.throwIfUnchecked(e.getCause());
            throw new IllegalStateException(e.getCause());
        }
    }

    private static long countSchemas(SharedTable table, TableSnapshot snapshot, List<Long> versions)
    {
        SchemaVersions schemas = new SchemaVersions();
        long id = 0;
        for (long version : versions) {
            if (version > snapshot.version()) {
                break;
            }
            id = schemas.add(version == snapshot.version() ? snapshot : table.table().snapshot(snapshot.branch(), version));
        }
        return id == 0 ? schemas.add(snapshot) : id;
    }

    private record SchemaIdKey(String root, Optional<String> branch, long firstVersion, long version) {}

    private ObjectNode fragment(SharedTable table, TableSnapshot snapshot, DataFragment fragment, String baseUrl, long expires)
    {
        DataFragment.Builder shipped = fragment.toBuilder();
        ObjectNode result = mapper.createObjectNode();
        StringBuilder identity = new StringBuilder("fragment");
        List<ObjectNode> dataFiles = new ArrayList<>();
        for (int i = 0; i < fragment.getFilesCount(); i++) {
            DataFile file = fragment.getFiles(i);
            String location = FilePaths.dataFile(snapshot, fragment, file);
            ObjectNode shared = file(table, location, file.getFileSizeBytes(), baseUrl, expires);
            dataFiles.add(shared);
            shipped.setFiles(i, file.toBuilder().setPath(shared.get("id").asText()).clearBaseId());
            identity.append('\n').append(location);
        }
        Optional<String> deletion = FilePaths.deletionFile(snapshot, fragment);
        if (fragment.hasDeletionFile()) {
            shipped.setDeletionFile(fragment.getDeletionFile().toBuilder().clearBaseId());
        }
        identity.append('\n').append(deletion.orElse(""));
        result.put("id", FileRegistry.hash(identity.toString()))
                .put("fragmentId", fragment.getId())
                .put("physicalRows", fragment.getPhysicalRows())
                .put("deletedRows", VersionSummary.deletedRows(fragment))
                .put("fragment", Base64.getEncoder().encodeToString(shipped.build().toByteArray()));
        ArrayNode filesNode = result.putArray("files");
        dataFiles.forEach(filesNode::add);
        if (deletion.isPresent()) {
            result.set("deletionFile", file(table, deletion.get(), 0, baseUrl, expires));
        }
        result.put("expirationTimestamp", expires);
        return result;
    }

    /**
     * @param recordedSize the size the manifest records (data files, when the writer recorded it), or 0: then the file
     * is looked up, so a query does not look up every data file it answers with
     */
    private ObjectNode file(SharedTable table, String location, long recordedSize, String baseUrl, long expires)
    {
        long size = recordedSize;
        if (size <= 0) {
            try {
                size = table.table().fileSystem().length(location);
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot read the size of a file of table " + table.share() + "." + table.schema() + "." + table.name(), e);
            }
        }
        Optional<URI> preSigned = warehouses.preSignedUrl(location, Math.max(1000, expires - clock.millis()));
        if (preSigned.isPresent()) {
            // the store serves it; the id only has to be stable
            return mapper.createObjectNode().put("id", FileRegistry.fileId(location)).put("url", preSigned.get().toString()).put("size", size);
        }
        String fileId = FileRegistry.fileId(location);
        files.register(table.share(), table.schema(), table.name(), fileId, new FileRegistry.SharedFile(location, size));
        String range = "0-" + size;
        String signature = signer.sign(UrlSigner.fileUrlText(table.share(), table.schema(), table.name(), fileId, range, expires));
        String url = "%s/files/%s/%s/%s/%s?range=%s&expires=%s&sig=%s".formatted(
                baseUrl, encode(table.share()), encode(table.schema()), encode(table.name()), fileId, range, expires, signature);
        return mapper.createObjectNode().put("id", fileId).put("url", url).put("size", size);
    }

    public static String encode(String segment)
    {
        return URLEncoder.encode(segment, UTF_8).replace("+", "%20");
    }

    /**
     * What a client must handle to read a version (PROTOCOL.md, Capabilities).
     */
    public static Set<String> requiredFeatures(TableSnapshot snapshot)
    {
        Manifest manifest = snapshot.manifest();
        Set<String> features = new TreeSet<>();
        if ((manifest.getReaderFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
            features.add(Capabilities.STABLE_ROW_IDS);
        }
        for (DataFragment fragment : manifest.getFragmentsList()) {
            if (fragment.hasDeletionFile()) {
                features.add(Capabilities.DELETION_FILES);
                if (fragment.getDeletionFile().hasBaseId()) {
                    features.add(Capabilities.BASE_PATHS);
                }
            }
            for (DataFile file : fragment.getFilesList()) {
                if (file.hasBaseId()) {
                    features.add(Capabilities.BASE_PATHS);
                }
                if (file.getFileMajorVersion() >= 2) {
                    features.add(Capabilities.V2_FILES);
                }
            }
        }
        return ImmutableSet.copyOf(features);
    }

    private static void checkFeatures(TableSnapshot snapshot, Capabilities capabilities)
    {
        capabilities.checkSupports(requiredFeatures(snapshot), "Version " + snapshot.version());
    }
}
