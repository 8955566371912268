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
 * {@code ALTER TABLE t EXECUTE optimize_indexes(name => 'id_idx', branch => 'main')}: indexes the rows written since
 * the index was built (Lance's optimize: a delta segment over the uncovered fragments, merged into the index).
 */
public final class OptimizeIndexesTableProcedure
        extends NamedIndexTableProcedure
{
    private final IndexOperations indexes;

    @Inject
    public OptimizeIndexesTableProcedure(IndexOperations indexes, BranchOperations branches)
    {
        super("optimize_indexes", "Index to bring up to date", branches);
        this.indexes = requireNonNull(indexes, "indexes is null");
    }

    @Override
    Map<String, Long> run(ConnectorSession session, SchemaTableName table, String tableRoot, Optional<String> branch, String indexName)
    {
        return indexes.optimize(session, table, tableRoot, branch, indexName);
    }
}
