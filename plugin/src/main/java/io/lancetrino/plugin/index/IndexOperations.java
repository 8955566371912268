package io.lancetrino.plugin.index;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LogicalTypes;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.write.TableCommits;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.split.LanceErrorCode;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.lancetrino.split.LanceErrorCode.LANCE_ALREADY_EXISTS;
import static io.lancetrino.split.LanceErrorCode.LANCE_INDEX_BUILD_FAILED;
import static io.lancetrino.split.LanceErrorCode.LANCE_INDEX_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * Creates, drops and optimizes the indexes of a branch. Building runs through the Lance SDK ({@link SdkIndexes}),
 * which commits its own {@code CreateIndex} version; dropping is this connector's own {@code CreateIndex} commit that
 * removes the index's segments, so every Lance engine sees the same change. Index files stay until cleanup.
 */
public final class IndexOperations
{
    private final LanceCatalog catalog;
    private final TableCommits commits;
    private final LanceSdk sdk;

    @Inject
    public IndexOperations(LanceCatalog catalog, TableCommits commits, LanceSdk sdk)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.commits = requireNonNull(commits, "commits is null");
        this.sdk = requireNonNull(sdk, "sdk is null");
    }

    /** Checks a create_index request against the branch as it is now; nothing is written. */
    public IndexSpec checkCreate(ConnectorSession session, SchemaTableName name, String tableRoot, Optional<String> branch, String column, String type, String indexName, String options, boolean replace)
    {
        return check(name, latest(session, name, tableRoot, branch), column, type, indexName, options, replace);
    }

    public Map<String, Long> create(ConnectorSession session, SchemaTableName name, String tableRoot, Optional<String> branch, String column, String type, String indexName, String options, boolean replace)
    {
        TableSnapshot before = latest(session, name, tableRoot, branch);
        IndexSpec spec = check(name, before, column, type, indexName, options, replace);
        int dimension = before.schema().topLevelField(spec.column())
                .flatMap(field -> LogicalTypes.toArrowType(field.logicalType()))
                .map(arrowType -> arrowType instanceof ArrowType.FixedSizeList list ? list.getListSize() : 0)
                .orElse(0);
        sdk.checkAvailable("build %s index %s of table %s".formatted(spec.type().sqlName(), spec.name(), name));
        if (spec.type() == IndexSpec.IndexType.INVERTED) {
            LanceCpuThreads.checkInvertedIndexBuild(spec.name());
        }
        long start = System.nanoTime();
        try {
            sdk.createIndex(before.datasetLocation(), catalog.storageOptions(tableRoot), spec, replace, dimension, VersionSummary.of(before.manifest()).liveRows());
        }
        catch (RuntimeException e) {
            throw new TrinoException(LANCE_INDEX_BUILD_FAILED, "Cannot build %s index %s on column %s of table %s %s; the table is unchanged: %s"
                    .formatted(spec.type().sqlName(), spec.name(), spec.column(), name, before.describe(), e.getMessage()), e);
        }
        return metrics(session, name, tableRoot, branch, spec.name(), System.nanoTime() - start);
    }

    private static IndexSpec check(SchemaTableName name, TableSnapshot snapshot, String column, String type, String indexName, String options, boolean replace)
    {
        Optional<LanceField> field = snapshot.schema().topLevelField(column);
        IndexSpec spec = IndexSpec.parse(name, field, column, type, indexName.isBlank() ? column + "_idx" : indexName, options);
        Optional<IndexSegments> existing = TableIndexes.find(name.toString(), snapshot, spec.name());
        if (existing.isPresent() && !replace) {
            throw new TrinoException(LANCE_ALREADY_EXISTS, "Index %s already exists on table %s %s; drop it first or pass replace => true".formatted(spec.name(), name, snapshot.describe()));
        }
        if (existing.isPresent() && !existing.get().fieldIds().equals(List.of(field.orElseThrow().id()))) {
            // Lance replaces an index only over the same columns
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "create_index on table %s: index %s indexes other columns than %s; drop it first or choose another name"
                    .formatted(name, spec.name(), column));
        }
        return spec;
    }

    public Map<String, Long> optimize(ConnectorSession session, SchemaTableName name, String tableRoot, Optional<String> branch, String indexName)
    {
        TableSnapshot before = latest(session, name, tableRoot, branch);
        IndexSegments index = existing(name, before, indexName);
        long start = System.nanoTime();
        if (index.liveRowsNotCovered() > 0 || hasUncoveredFragments(before, index)) {
            sdk.checkAvailable("optimize index %s of table %s".formatted(indexName, name));
            if (index.kind() == IndexKind.INVERTED) {
                LanceCpuThreads.checkInvertedIndexBuild(indexName);
            }
            try {
                sdk.optimizeIndex(before.datasetLocation(), catalog.storageOptions(tableRoot), indexName);
            }
            catch (RuntimeException e) {
                throw new TrinoException(LANCE_INDEX_BUILD_FAILED, "Cannot optimize index %s of table %s %s; the table is unchanged: %s"
                        .formatted(indexName, name, before.describe(), e.getMessage()), e);
            }
        }
        return metrics(session, name, tableRoot, branch, indexName, System.nanoTime() - start);
    }

    public Map<String, Long> drop(ConnectorSession session, SchemaTableName name, String tableRoot, Optional<String> branch, String indexName)
    {
        try {
            LanceTable table = catalog.openTable(session.getIdentity(), tableRoot, name);
            TableSnapshot snapshot = new RefResolver(table).latest(branch);
            IndexSegments index = existing(name, snapshot, indexName);
            Transaction transaction = TableWrites.transaction(session, snapshot.version(), "DROP INDEX")
                    .setCreateIndex(Transaction.CreateIndex.newBuilder().addAllRemovedIndices(index.segments()))
                    .build();
            commits.committer().commit(table, branch, transaction);
            return ImmutableMap.of("segments_dropped", (long) index.segments().size());
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    private Map<String, Long> metrics(ConnectorSession session, SchemaTableName name, String tableRoot, Optional<String> branch, String indexName, long nanos)
    {
        TableSnapshot after = latest(session, name, tableRoot, branch);
        IndexSegments index = existing(name, after, indexName);
        LanceTable table = catalog.openTable(session.getIdentity(), tableRoot, name);
        return ImmutableMap.of(
                "rows_indexed", index.liveRowsCovered(),
                "rows_not_indexed", index.liveRowsNotCovered(),
                "fragments_covered", index.coveredFragments().getLongCardinality(),
                "index_size_bytes", TableIndexes.sizeBytes(table.fileSystem(), after, index),
                "build_millis", nanos / 1_000_000);
    }

    private static boolean hasUncoveredFragments(TableSnapshot snapshot, IndexSegments index)
    {
        return snapshot.manifest().getFragmentsCount() > index.coveredFragments().getCardinality();
    }

    private static IndexSegments existing(SchemaTableName name, TableSnapshot snapshot, String indexName)
    {
        return TableIndexes.find(name.toString(), snapshot, indexName)
                .orElseThrow(() -> new TrinoException(LANCE_INDEX_NOT_FOUND, "Index %s does not exist on table %s %s; its indexes: %s".formatted(indexName, name, snapshot.describe(),
                        TableIndexes.describe(name.toString(), snapshot).stream().map(IndexSegments::name).toList())));
    }

    private TableSnapshot latest(ConnectorSession session, SchemaTableName name, String tableRoot, Optional<String> branch)
    {
        try {
            return new RefResolver(catalog.openTable(session.getIdentity(), tableRoot, name)).latest(branch);
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }
}
