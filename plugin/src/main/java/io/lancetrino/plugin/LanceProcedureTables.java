package io.lancetrino.plugin;

import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.plugin.write.TableCommits;
import io.lancetrino.procedures.ProcedureTables;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.security.ConnectorIdentity;

import java.util.List;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

/**
 * The catalog's tables as procedures see them.
 */
public final class LanceProcedureTables
        implements ProcedureTables
{
    private final LanceCatalog catalog;
    private final TableCommits commits;

    @Inject
    public LanceProcedureTables(LanceCatalog catalog, TableCommits commits)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.commits = requireNonNull(commits, "commits is null");
    }

    @Override
    public Optional<LanceTable> open(ConnectorIdentity identity, SchemaTableName name)
    {
        return catalog.openTable(identity, name);
    }

    @Override
    public LanceTable locate(ConnectorIdentity identity, SchemaTableName name)
    {
        return catalog.openTable(identity, catalog.tableRoot(name), name);
    }

    @Override
    public List<LanceColumnHandle> columns(SchemaTableName name, TableSnapshot snapshot)
    {
        return catalog.columns(name, snapshot);
    }

    @Override
    public boolean schemaExists(ConnectorIdentity identity, String schema)
    {
        return catalog.schemaExists(identity, schema);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorIdentity identity)
    {
        return catalog.listSchemas(identity).stream()
                .flatMap(schema -> catalog.listTables(identity, schema).stream())
                .collect(toImmutableList());
    }

    @Override
    public boolean isInWarehouse(String location)
    {
        return catalog.isInWarehouse(location);
    }

    @Override
    public TableCommitter committer()
    {
        return commits.committer();
    }
}
