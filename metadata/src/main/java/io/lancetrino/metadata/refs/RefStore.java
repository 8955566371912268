package io.lancetrino.metadata.refs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
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
                instant(node.get("createdAt"))));
    }

    public Optional<BranchRef> getBranch(String name)
    {
        if (!RefNames.isValidBranch(name)) {
            return Optional.empty();
        }
        return readJson(branchLocation(name)).map(node -> new BranchRef(
                name,
                text(node, "parentBranch"),
                node.path("parentVersion").asLong(),
                instant(node.get("createAt"))));
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

    private List<String> listNames(String directory)
    {
        try {
            return fileSystem.listFiles(TableFileSystem.join(tableRoot, directory)).stream()
                    .map(FileEntry::name)
                    .filter(name -> name.endsWith(JSON))
                    .map(name -> URLDecoder.decode(name.substring(0, name.length() - JSON.length()), UTF_8))
                    .collect(ImmutableList.toImmutableList());
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
