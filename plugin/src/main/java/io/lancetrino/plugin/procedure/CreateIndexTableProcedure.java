package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.plugin.index.IndexOperations;
import io.lancetrino.plugin.index.IndexSpec;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;

import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE create_index(column => 'id', index_type => 'btree', name => 'id_idx', options => '{}',
 * branch => 'main', replace => false)}: builds a Lance index of the branch's rows, as every Lance engine reads it.
 */
public final class CreateIndexTableProcedure
        implements LanceTableProcedure
{
    static final String COLUMN = "column";
    static final String INDEX_TYPE = "index_type";
    static final String NAME = "name";
    static final String OPTIONS = "options";
    static final String REPLACE = "replace";

    private final IndexOperations indexes;
    private final BranchOperations branches;

    @Inject
    public CreateIndexTableProcedure(IndexOperations indexes, BranchOperations branches)
    {
        this.indexes = requireNonNull(indexes, "indexes is null");
        this.branches = requireNonNull(branches, "branches is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata("CREATE_INDEX", TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                stringProperty(COLUMN, "Column to index", null, false),
                stringProperty(INDEX_TYPE, "btree, bitmap, label_list, ngram, zonemap, inverted, ivf_flat, ivf_pq, ivf_sq or ivf_hnsw_sq", null, false),
                stringProperty(NAME, "Index name; <column>_idx by default", "", false),
                stringProperty(OPTIONS, "Build options as a JSON object", "{}", false),
                stringProperty(IndexProcedures.BRANCH, "Branch whose rows are indexed", RefResolver.MAIN, false),
                booleanProperty(REPLACE, "Replace an index of the same name", false, false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        String branch = IndexProcedures.checkBranch(session, branches, accessControl, table, properties, "create_index");
        String column = IndexProcedures.required(table, properties, COLUMN, "create_index");
        String type = IndexProcedures.required(table, properties, INDEX_TYPE, "create_index");
        boolean replace = (Boolean) properties.get(REPLACE);
        IndexSpec spec = indexes.checkCreate(session, table.schemaTableName(), table.tableRoot(), RefResolver.branch(branch), column, type,
                (String) properties.get(NAME), (String) properties.get(OPTIONS), replace);
        return ImmutableMap.of(
                COLUMN, column,
                INDEX_TYPE, type,
                NAME, spec.name(),
                OPTIONS, (String) properties.get(OPTIONS),
                IndexProcedures.BRANCH, branch,
                REPLACE, String.valueOf(replace));
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        LanceTableHandle table = handle.table();
        return indexes.create(session, table.schemaTableName(), table.tableRoot(), RefResolver.branch(handle.argument(IndexProcedures.BRANCH)),
                handle.argument(COLUMN), handle.argument(INDEX_TYPE), handle.argument(NAME), handle.argument(OPTIONS), Boolean.parseBoolean(handle.argument(REPLACE)));
    }
}
