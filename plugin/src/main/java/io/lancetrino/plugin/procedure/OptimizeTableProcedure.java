package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.CommitResult;
import io.lancetrino.metadata.maintenance.CompactionPlan;
import io.lancetrino.metadata.maintenance.CompactionPlanner;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.plugin.write.LanceFileSink;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.write.LancePageSinkProvider;
import io.lancetrino.plugin.write.TableCommits;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.FileMetadataCache;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceFileReaderType;
import io.lancetrino.split.LanceFileWriterType;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.LancePageSource;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.type.TypeManager;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.trino.spi.StandardErrorCode.BRANCH_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.session.PropertyMetadata.longProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE optimize(target_rows_per_fragment => 1048576, branch => 'main')}: rewrites the small
 * fragments of a branch, and those with many deleted rows, into fewer larger ones and commits them as one Lance
 * {@code Rewrite}, so Lance engines see their own kind of compaction. Runs on the coordinator: the rows are read with
 * the connector's page source and written with its file sink. Trino cannot parse {@code ALTER TABLE t @ b EXECUTE},
 * hence the branch argument.
 */
public final class OptimizeTableProcedure
        implements LanceTableProcedure
{
    public static final String NAME = "OPTIMIZE";
    public static final String TARGET_ROWS_PER_FRAGMENT = "target_rows_per_fragment";
    public static final String BRANCH = "branch";
    public static final long DEFAULT_TARGET_ROWS_PER_FRAGMENT = 1024 * 1024;
    private static final String STATEMENT = "OPTIMIZE";

    private final LanceCatalog catalog;
    private final TableCommits commits;
    private final BranchOperations branches;
    private final TypeManager typeManager;
    private final int batchRows;
    private final LanceFileReaderType fileReader;
    private final LanceSdk sdk;

    @Inject
    public OptimizeTableProcedure(LanceCatalog catalog, TableCommits commits, BranchOperations branches, TypeManager typeManager, LanceConfig config, LanceSdk sdk)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.typeManager = requireNonNull(typeManager, "typeManager is null");
        this.commits = requireNonNull(commits, "commits is null");
        this.branches = requireNonNull(branches, "branches is null");
        this.batchRows = config.getReadBatchRows();
        this.fileReader = config.getFileReader();
        this.sdk = requireNonNull(sdk, "sdk is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata(NAME, TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                longProperty(TARGET_ROWS_PER_FRAGMENT, "Live rows a compacted fragment holds at most", DEFAULT_TARGET_ROWS_PER_FRAGMENT, false),
                stringProperty(BRANCH, "Branch to compact", RefResolver.MAIN, false)));
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        SchemaTableName name = table.schemaTableName();
        Long target = (Long) properties.get(TARGET_ROWS_PER_FRAGMENT);
        if (target == null || target <= 0) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "optimize on table %s: target_rows_per_fragment must be positive, not %s".formatted(name, target));
        }
        String branch = (String) properties.get(BRANCH);
        if (branch == null || branch.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "optimize on table %s: branch must name a branch, 'main' for the main branch".formatted(name));
        }
        if (!branches.exists(session, name, branch)) {
            throw new TrinoException(BRANCH_NOT_FOUND, "Branch '%s' does not exist in table %s".formatted(branch, name));
        }
        // a compaction deletes and inserts rows of the branch, without changing what it holds
        Optional<String> branchName = RefResolver.branch(branch);
        accessControl.checkCanInsertIntoTable(null, name, branchName);
        accessControl.checkCanDeleteFromTable(null, name, branchName);
        return ImmutableMap.of(TARGET_ROWS_PER_FRAGMENT, target.toString(), BRANCH, branch);
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        SchemaTableName name = handle.table().schemaTableName();
        long target = Long.parseLong(handle.argument(TARGET_ROWS_PER_FRAGMENT));
        Optional<String> branch = RefResolver.branch(handle.argument(BRANCH));
        try {
            LanceTable table = catalog.openTable(session.getIdentity(), handle.table().tableRoot(), name);
            TableSnapshot snapshot = new RefResolver(table).latest(branch);
            CompactionPlan plan = CompactionPlanner.plan(name.toString(), snapshot, target);
            if (plan.isEmpty()) {
                return metrics(plan, plan.fragmentsBefore(), 0, 0);
            }
            return compact(session, name, table, snapshot, plan);
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    private Map<String, Long> compact(ConnectorSession session, SchemaTableName name, LanceTable table, TableSnapshot snapshot, CompactionPlan plan)
    {
        List<LanceField> fields = TableWrites.rewritableFields(name, snapshot, "optimize");
        String fileFormatVersion = TableWrites.fileFormatVersion(name, snapshot.manifest());
        List<LanceColumnHandle> columns = catalog.columns(name, snapshot);
        // a group holds at most the target's live rows; only a single fragment with more rows than that is cut up
        int maxRowsPerFile = (int) Math.min(plan.targetRowsPerFragment(), Integer.MAX_VALUE);
        String splitTable = name + "@" + snapshot.describe();
        List<LanceFileSink> sinks = new ArrayList<>();
        try {
            Transaction.Rewrite.Builder rewrite = Transaction.Rewrite.newBuilder();
            for (CompactionPlan.Group group : plan.groups()) {
                LanceFileSink sink = LanceFileSink.create(table.fileSystem(), catalog.storageOptions(table.root()), snapshot.datasetLocation(), fields, typeManager, fileFormatVersion, maxRowsPerFile, session.getProperty(LancePageSinkProvider.FILE_WRITER_PROPERTY, LanceFileWriterType.class), session.getQueryId(), sdk);
                sinks.add(sink);
                long rows = 0;
                for (DataFragment fragment : group.fragments()) {
                    rows += copy(LanceSplitManager.fragmentSplit(splitTable, snapshot, fragment), columns, table, sink);
                }
                if (rows != group.liveRows()) {
                    // the manifest's counts disagree with the deletion files: never commit a rewrite that lost or invented rows
                    throw new TrinoException(LANCE_BAD_DATA, "Table %s, %s: fragments %s hold %s live rows by their manifest entries, but %s were read"
                            .formatted(name, snapshot.describe(), group.fragments().stream().map(DataFragment::getId).toList(), group.liveRows(), rows));
                }
                rewrite.addGroups(Transaction.RewriteGroup.newBuilder()
                        .addAllOldFragments(group.fragments())
                        .addAllNewFragments(sink.finish()));
            }
            Transaction transaction = TableWrites.transaction(session, snapshot.version(), STATEMENT).setRewrite(rewrite).build();
            CommitResult result = commits.committer().commit(table, snapshot.branch(), transaction);
            // groups whose fragments a user write changed meanwhile were given up: their files are garbage
            List<Transaction.RewriteGroup> committed = result.transaction().getRewrite().getGroupsList();
            Set<Long> kept = committed.stream().map(group -> group.getOldFragments(0).getId()).collect(toImmutableSet());
            for (int i = 0; i < plan.groups().size(); i++) {
                if (!kept.contains(plan.groups().get(i).fragments().getFirst().getId())) {
                    sinks.get(i).abort();
                }
            }
            CompactionPlan done = new CompactionPlan(plan.readVersion(), plan.targetRowsPerFragment(), plan.fragmentsBefore(),
                    plan.groups().stream().filter(group -> kept.contains(group.fragments().getFirst().getId())).toList());
            return metrics(done, result.manifest().manifest().getFragmentsCount(), committed.stream().mapToLong(Transaction.RewriteGroup::getNewFragmentsCount).sum(), result.version());
        }
        catch (RuntimeException e) {
            // nothing was committed: the new files, and the one still open, are garbage
            sinks.forEach(LanceFileSink::abort);
            throw e;
        }
    }

    /**
     * Copies the surviving rows of one fragment, every column of the table, into the sink; returns how many.
     */
    private long copy(LanceSplit split, List<LanceColumnHandle> columns, LanceTable table, LanceFileSink sink)
    {
        long rows = 0;
        try (LancePageSource source = new LancePageSource(split, columns, List.of(), sdk, table.fileSystem(), catalog.storageOptions(table.root()), batchRows, fileReader, new FileMetadataCache(0))) {
            while (!source.isFinished()) {
                SourcePage page = source.getNextSourcePage();
                if (page != null && page.getPositionCount() > 0) {
                    sink.append(page.getPage());
                    rows += page.getPositionCount();
                }
            }
        }
        return rows;
    }

    private static Map<String, Long> metrics(CompactionPlan plan, long fragmentsAfter, long fragmentsAdded, long version)
    {
        return ImmutableMap.<String, Long>builder()
                .put("fragments_before", (long) plan.fragmentsBefore())
                .put("fragments_after", fragmentsAfter)
                .put("fragments_rewritten", (long) plan.fragmentsRewritten())
                .put("fragments_added", fragmentsAdded)
                .put("rows_rewritten", plan.rowsRewritten())
                .put("deleted_rows_purged", plan.deletedRowsPurged())
                .put("version", version)
                .buildOrThrow();
    }
}
