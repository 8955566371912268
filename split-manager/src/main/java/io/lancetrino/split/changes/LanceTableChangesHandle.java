package io.lancetrino.split.changes;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * What {@code table_changes} reads: the versions of one lineage, resolved at analysis so every split describes the
 * same history.
 *
 * @param versions the start version (whose changes are not reported) followed by each later version of the end
 * version's lineage up to the end, oldest first; each version's changes are measured against the one before it
 * @param columns the end version's columns followed by the change columns, as the function returns them
 */
public record LanceTableChangesHandle(
        SchemaTableName schemaTableName,
        String tableRoot,
        List<VersionRef> versions,
        List<LanceColumnHandle> columns)
        implements ConnectorTableHandle
{
    public LanceTableChangesHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(tableRoot, "tableRoot is null");
        versions = ImmutableList.copyOf(versions);
        columns = ImmutableList.copyOf(columns);
        checkArgument(!versions.isEmpty(), "versions is empty");
    }

    /**
     * One version of one branch ({@code branch} empty for main).
     */
    public record VersionRef(Optional<String> branch, long version)
    {
        public VersionRef
        {
            requireNonNull(branch, "branch is null");
        }

        public static VersionRef of(TableSnapshot snapshot)
        {
            return new VersionRef(snapshot.branch(), snapshot.version());
        }

        @Override
        public String toString()
        {
            return TableSnapshot.describe(branch, version);
        }
    }

    @JsonIgnore
    public VersionRef start()
    {
        return versions.getFirst();
    }

    @JsonIgnore
    public VersionRef end()
    {
        return versions.getLast();
    }

    @Override
    public String toString()
    {
        return "%s changes after %s through %s".formatted(schemaTableName, start(), end());
    }
}
