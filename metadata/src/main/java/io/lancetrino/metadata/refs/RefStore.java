package io.lancetrino.metadata.refs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.fs.ExclusiveCreateUnsupportedException;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.file.FileAlreadyExistsException;
import java.net.URLEncoder;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Reads the tags and branches of a Lance table. Both live under the table root, also for refs on branches.
 */
public final class RefStore
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String JSON = ".json";

    private final TableFileSystem fileSystem;
    private final String tableRoot;

    public RefStore(TableFileSystem fileSystem, String tableRoot)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.tableRoot = requireNonNull(tableRoot, "tableRoot is null");
    }

    public List<TagRef> listTags()
    {
        return listNames("_refs/tags").stream()
                .map(this::getTag)
                .flatMap(Optional::stream)
                .sorted(Comparator.comparing(TagRef::name))
                .collect(ImmutableList.toImmutableList());
    }

    public List<BranchRef> listBranches()
    {
        return listNames("_refs/branches").stream()
                .map(this::getBranch)
                .flatMap(Optional::stream)
                .sorted(Comparator.comparing(BranchRef::name))
                .collect(ImmutableList.toImmutableList());
    }

    public Optional<TagRef> getTag(String name)
    {
        if (!RefNames.isValidTag(name)) {
            return Optional.empty();
        }
        return readJson(tagLocation(name)).map(node -> new TagRef(
                name,
                text(node, "branch"),
                node.path("version").asLong(),
                instant(node.get("createdAt")),
                instant(node.get("updatedAt")),
                node.path("manifestSize").asLong(),
                stringMap(node.get("metadata"))));
    }

    public Optional<BranchRef> getBranch(String name)
    {
        if (!RefNames.isValidBranch(name)) {
            return Optional.empty();
        }
        return readJson(branchLocation(name)).or(() -> readJson(TableFileSystem.join(tableRoot, "_refs/branches/" + name + JSON))).map(node -> new BranchRef(
                name,
                text(node, "parentBranch"),
                node.path("parentVersion").asLong(),
                instant(node.get("createAt")),
                lineage(node.path("identifier").path("version_mapping")),
                node.path("manifestSize").asLong(),
                stringMap(node.get("metadata"))));
    }

    /**
     * Writes a new tag; fails if the tag exists, so two writers never both think they created it.
     */
    public void createTag(TagRef tag)
            throws FileAlreadyExistsException
    {
        createExclusive(tagLocation(tag.name()), toJson(tag));
    }

    /**
     * Replaces a tag's file, as Lance's tag update does (the last writer wins).
     */
    public void replaceTag(TagRef tag)
    {
        try {
            fileSystem.writeFile(tagLocation(tag.name()), toJson(tag));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void deleteTag(String name)
    {
        delete(tagLocation(name));
    }

    /**
     * Writes a new branch ref; fails if the branch exists.
     */
    public void createBranch(BranchRef branch)
            throws FileAlreadyExistsException
    {
        createExclusive(branchLocation(branch.name()), toJson(branch));
    }

    public void deleteBranch(String name)
    {
        delete(branchLocation(name));
        delete(TableFileSystem.join(tableRoot, "_refs/branches/" + name + JSON));
    }

    public String tagLocation(String name)
    {
        return TableFileSystem.join(tableRoot, "_refs/tags/" + name + JSON);
    }

    public String branchLocation(String name)
    {
        return TableFileSystem.join(tableRoot, "_refs/branches/" + encodeBranch(name) + JSON);
    }

    public static String encodeBranch(String name)
    {
        return URLEncoder.encode(name, UTF_8).replace("+", "%20");
    }

    private void createExclusive(String location, byte[] content)
            throws FileAlreadyExistsException
    {
        try {
            fileSystem.createExclusive(location, content);
        }
        catch (FileAlreadyExistsException e) {
            throw e;
        }
        catch (ExclusiveCreateUnsupportedException e) {
            throw new LanceTableException(LanceErrorKind.EXCLUSIVE_CREATE_UNSUPPORTED, "Cannot create ref %s: %s".formatted(location, e.getMessage()), e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void delete(String location)
    {
        try {
            fileSystem.deleteFile(location);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A tag file as Lance writes it: the keys and shapes of its refs code (camelCase, except the identifier's inner field).
     */
    public static byte[] toJson(TagRef tag)
    {
        ObjectNode node = MAPPER.createObjectNode();
        tag.branch().ifPresentOrElse(branch -> node.put("branch", branch), () -> node.putNull("branch"));
        node.put("version", tag.version());
        tag.createdAt().ifPresent(instant -> node.put("createdAt", instant.toString()));
        tag.updatedAt().ifPresent(instant -> node.put("updatedAt", instant.toString()));
        node.put("manifestSize", tag.manifestSize());
        ObjectNode metadata = node.putObject("metadata");
        tag.metadata().forEach(metadata::put);
        return serialize(node);
    }

    public static byte[] toJson(BranchRef branch)
    {
        ObjectNode node = MAPPER.createObjectNode();
        branch.parentBranch().ifPresentOrElse(parent -> node.put("parentBranch", parent), () -> node.putNull("parentBranch"));
        ArrayNode mapping = node.putObject("identifier").putArray("version_mapping");
        for (BranchRef.VersionMapping entry : branch.lineage()) {
            mapping.addArray().add(entry.parentVersion()).add(entry.id());
        }
        node.put("parentVersion", branch.parentVersion());
        node.put("createAt", branch.createdAt().orElseThrow().getEpochSecond());
        node.put("manifestSize", branch.manifestSize());
        ObjectNode metadata = node.putObject("metadata");
        branch.metadata().forEach(metadata::put);
        return serialize(node);
    }

    private static byte[] serialize(ObjectNode node)
    {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(node);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<BranchRef.VersionMapping> lineage(JsonNode mapping)
    {
        ImmutableList.Builder<BranchRef.VersionMapping> lineage = ImmutableList.builder();
        for (JsonNode pair : mapping) {
            if (pair.isArray() && pair.size() == 2) {
                lineage.add(new BranchRef.VersionMapping(pair.get(0).asLong(), pair.get(1).asText()));
            }
        }
        return lineage.build();
    }

    private static Map<String, String> stringMap(JsonNode node)
    {
        ImmutableMap.Builder<String, String> map = ImmutableMap.builder();
        if (node != null && node.isObject()) {
            node.properties().forEach(entry -> map.put(entry.getKey(), entry.getValue().asText()));
        }
        return map.buildKeepingLast();
    }

    /**
     * Ref names in a directory; some object-store adapters show a {@code %2F} in a key as nested directories, so
     * nested files count too, as Lance lists them.
     */
    private List<String> listNames(String directory)
    {
        ImmutableList.Builder<String> names = ImmutableList.builder();
        collectNames(TableFileSystem.join(tableRoot, directory), "", names);
        return names.build();
    }

    private void collectNames(String directory, String prefix, ImmutableList.Builder<String> names)
    {
        try {
            for (FileEntry file : fileSystem.listFiles(directory)) {
                if (file.name().endsWith(JSON)) {
                    names.add(prefix + URLDecoder.decode(file.name().substring(0, file.name().length() - JSON.length()), UTF_8));
                }
            }
            for (String child : fileSystem.listDirectories(directory)) {
                collectNames(TableFileSystem.join(directory, child), prefix + child + "/", names);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Optional<JsonNode> readJson(String location)
    {
        byte[] bytes;
        try {
            bytes = fileSystem.readFile(location);
        }
        catch (FileNotFoundException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return Optional.of(MAPPER.readTree(bytes));
        }
        catch (IOException e) {
            throw new LanceTableException(CORRUPT_MANIFEST, "Corrupt Lance ref file %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    private static Optional<String> text(JsonNode node, String field)
    {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
    }

    private static Optional<Instant> instant(JsonNode value)
    {
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (value.isNumber()) {
            return Optional.of(Instant.ofEpochSecond(value.asLong()));
        }
        try {
            return Optional.of(Instant.parse(value.asText()));
        }
        catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
