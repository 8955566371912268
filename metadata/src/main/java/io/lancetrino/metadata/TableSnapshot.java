package io.lancetrino.metadata;

import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.schema.LanceSchema;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One version of one branch of a table: the manifest and the directory it belongs to ({@code datasetLocation} is the
 * table root for main and {@code {root}/tree/{branch}} for a branch).
 */
public record TableSnapshot(String tableRoot, Optional<String> branch, String datasetLocation, ManifestFile manifestFile, LanceSchema schema)
{
    public TableSnapshot
    {
        requireNonNull(tableRoot, "tableRoot is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(datasetLocation, "datasetLocation is null");
        requireNonNull(manifestFile, "manifestFile is null");
        requireNonNull(schema, "schema is null");
    }

    public long version()
    {
        return manifestFile.version();
    }

    public Manifest manifest()
    {
        return manifestFile.manifest();
    }

    /**
     * How the snapshot is named in messages: {@code 'main' version 3} or {@code branch 'dev' version 5}.
     */
    public String describe()
    {
        return describe(branch, version());
    }

    public static String describe(Optional<String> branch, long version)
    {
        return branch.map(name -> "branch '" + name + "'").orElse("main") + " version " + version;
    }
}
