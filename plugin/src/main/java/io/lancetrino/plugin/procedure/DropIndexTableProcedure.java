package io.lancetrino.plugin.procedure;

import com.google.inject.Inject;
import io.lancetrino.plugin.index.IndexOperations;
import io.lancetrino.procedures.BranchOperations;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE drop_index(name => 'id_idx', branch => 'main')}: a new version without the index; its
 * files stay for the versions that still list it, until cleanup.
 */
public final class DropIndexTableProcedure
        extends NamedIndexTableProcedure
{
    private final IndexOperations indexes;

    @Inject
    public DropIndexTableProcedure(IndexOperations indexes, BranchOperations branches)
    {
        super("drop_index", "Index to drop", branches);
        this.indexes = requireNonNull(indexes, "indexes is null");
    }

    @Override
    Map<String, Long> run(ConnectorSession session, SchemaTableName table, String tableRoot, Optional<String> branch, String indexName)
    {
        return indexes.drop(session, table, tableRoot, branch, indexName);
    }
}
