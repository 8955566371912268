package io.lancetrino.metadata.schema;

import io.lancetrino.metadata.TableSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Numbers distinct schemas in the order they first appear; a schema that returns after a change gets its old number,
 * as Iceberg reuses a schema id for an identical schema. The system table {@code t$schemas} and the sharing server's
 * {@code schemaId} both number schemas this way, so the two agree.
 */
public final class SchemaVersions
{
    public record SchemaVersion(long id, String columns, long firstVersion, long lastVersion) {}

    private final Map<String, Long> ids = new LinkedHashMap<>();
    private final List<long[]> ranges = new ArrayList<>();

    public long add(TableSnapshot snapshot)
    {
        String identity = SchemaIdentity.of(snapshot.schema());
        Long id = ids.get(identity);
        if (id == null) {
            id = (long) ids.size() + 1;
            ids.put(identity, id);
            ranges.add(new long[] {snapshot.version(), snapshot.version()});
        }
        long[] range = ranges.get((int) (id - 1));
        range[0] = Math.min(range[0], snapshot.version());
        range[1] = Math.max(range[1], snapshot.version());
        return id;
    }

    public List<SchemaVersion> versions()
    {
        List<SchemaVersion> versions = new ArrayList<>();
        int index = 0;
        for (String identity : ids.keySet()) {
            long[] range = ranges.get(index++);
            versions.add(new SchemaVersion(index, identity, range[0], range[1]));
        }
        return versions;
    }
}
