package io.lancetrino.metadata.clone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The clone pins of one table: {@code _refs/clones/<id>.json} with the clone's location and the version it reads.
 */
public final class ClonePins
{
    public static final String CLONE_PIN_CONFIG_KEY = "lance.clone.source_pin_id";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String DIRECTORY = "_refs/clones";

    private final TableFileSystem fileSystem;
    private final String tableRoot;

    public ClonePins(TableFileSystem fileSystem, String tableRoot)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.tableRoot = requireNonNull(tableRoot, "tableRoot is null");
    }

    public void write(ClonePin pin)
            throws IOException
    {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("clonePath", pin.cloneLocation());
        pin.sourceBranch().ifPresentOrElse(branch -> node.put("branch", branch), () -> node.putNull("branch"));
        node.put("version", pin.sourceVersion());
        node.put("createdAt", pin.createdAt().toString());
        fileSystem.createExclusive(location(pin.id()), MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(node));
    }

    public List<ClonePin> list()
    {
        ImmutableList.Builder<ClonePin> pins = ImmutableList.builder();
        try {
            for (FileEntry file : fileSystem.listFiles(TableFileSystem.join(tableRoot, DIRECTORY))) {
                if (!file.name().endsWith(".json")) {
                    continue;
                }
                String id = file.name().substring(0, file.name().length() - ".json".length());
                JsonNode node = MAPPER.readTree(fileSystem.readFile(location(id)));
                JsonNode branch = node.get("branch");
                pins.add(new ClonePin(
                        id,
                        node.path("clonePath").asText(),
                        branch == null || branch.isNull() ? Optional.empty() : Optional.of(branch.asText()),
                        node.path("version").asLong(),
                        Instant.parse(node.path("createdAt").asText())));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pins.build();
    }

    public void delete(String id)
            throws IOException
    {
        fileSystem.deleteFile(location(id));
    }

    private String location(String id)
    {
        return TableFileSystem.join(tableRoot, DIRECTORY + "/" + id + ".json");
    }
}
