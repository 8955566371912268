package io.lancetrino.plugin;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.airlift.log.Logger;
import io.airlift.slice.Slice;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.keys.PrimaryKey;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.plugin.procedure.LanceTableExecuteHandle;
import io.lancetrino.plugin.procedure.LanceTableProcedure;
import io.lancetrino.plugin.procedure.LanceTableProcedures;
import io.lancetrino.plugin.system.LanceSystemTables;
import io.lancetrino.plugin.write.ColumnEncodings;
import io.lancetrino.plugin.write.LanceMergeTableHandle;
import io.lancetrino.plugin.write.LanceWritableTableHandle;
import io.lancetrino.plugin.write.RowChangeStatement;
import io.lancetrino.plugin.write.SchemaChanges;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.procedures.BranchOperations;
import com.google.common.collect.ImmutableList;
import io.lancetrino.split.ColumnPredicate;
import io.lancetrino.split.LabelPredicate;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.plugin.search.SearchArguments;
import io.lancetrino.plugin.search.VectorPushdown;
import io.lancetrino.split.arrow.ArrowTypes;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceDistanceColumnHandle;
import io.lancetrino.split.search.SearchResultColumnHandle;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.changes.LanceTableChangesHandle;
import io.lancetrino.plugin.changes.TableChangesFunction;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorOutputMetadata;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableLayout;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.RelationColumnsMetadata;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.RowChangeParadigm;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SortItem;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.connector.TableFunctionApplicationResult;
import io.trino.spi.connector.TopNApplicationResult;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.ArrayType;

import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static java.util.Objects.requireNonNull;

public final class LanceMetadata
        implements ConnectorMetadata
{
    private static final Logger log = Logger.get(LanceMetadata.class);

    private final LanceCatalog catalog;
    private final TableWrites writes;
    private final SchemaChanges schemaChanges;
    private final BranchOperations branches;
    private final LanceTableProcedures tableProcedures;
    /**
     * Tables of which Trino asked for the metadata of a data column. One instance serves one transaction, and writes
     * run one statement per transaction, so at {@code beginMerge} this tells a MERGE (whose analysis reads every
     * column's default) from an UPDATE or DELETE; see {@link RowChangeStatement}.
     */
    private final Set<TableKey> dataColumnMetadataRead = ConcurrentHashMap.newKeySet();

    private record TableKey(String tableRoot, Optional<String> branch)
    {
        static TableKey of(LanceTableHandle handle)
        {
            return new TableKey(handle.tableRoot(), handle.branch());
        }
    }

    public LanceMetadata(LanceCatalog catalog, TableWrites writes, SchemaChanges schemaChanges, BranchOperations branches, LanceTableProcedures tableProcedures)
    {
        this.branches = requireNonNull(branches, "branches is null");
        this.tableProcedures = requireNonNull(tableProcedures, "tableProcedures is null");
        this.schemaChanges = requireNonNull(schemaChanges, "schemaChanges is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.writes = requireNonNull(writes, "writes is null");
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        return catalog.listSchemas(session.getIdentity());
    }

    @Override
    public boolean schemaExists(ConnectorSession session, String schemaName)
    {
        return catalog.schemaExists(session.getIdentity(), schemaName);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        List<String> schemas = schemaName.map(List::of).orElseGet(() -> listSchemaNames(session));
        return schemas.stream()
                .flatMap(schema -> catalog.listTables(session.getIdentity(), schema).stream())
                .collect(toImmutableList());
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent()) {
            throw new io.trino.spi.TrinoException(io.trino.spi.StandardErrorCode.NOT_SUPPORTED, "Read table with start version is not supported");
        }
        if (tableName.getTableName().contains("$")) {
            return null;
        }
        Optional<LanceTable> table = catalog.openTable(session.getIdentity(), tableName);
        if (table.isEmpty()) {
            return null;
        }
        try {
            RefResolver resolver = new RefResolver(table.get());
            TableSnapshot snapshot = endVersion
                    .map(version -> TableVersions.resolve(session, resolver, version))
                    .orElseGet(() -> resolver.latest(Optional.empty()));
            return LanceTableHandle.of(tableName, snapshot);
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        if (tableHandle instanceof LanceTableChangesHandle changes) {
            return new ConnectorTableMetadata(changes.schemaTableName(), changes.columns().stream().map(column -> column.toColumnMetadata(Optional.empty())).collect(toImmutableList()));
        }
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        TableSnapshot snapshot = snapshot(session, handle);
        List<ColumnMetadata> columns = catalog.columns(handle.schemaTableName(), snapshot).stream()
                .map(column -> {
                    Optional<LanceField> field = snapshot.schema().field(column.fieldId());
                    return column.toColumnMetadata(field.flatMap(LanceField::comment), columnProperties(column, field));
                })
                .collect(toImmutableList());
        return new ConnectorTableMetadata(handle.schemaTableName(), columns, tableProperties(snapshot), tableComment(snapshot));
    }

    /**
     * The column properties of CREATE TABLE that the field records: the dimension of a vector column that CREATE TABLE
     * could make again.
     */
    private static Map<String, Object> columnProperties(LanceColumnHandle column, Optional<LanceField> field)
    {
        if (field.isEmpty() || !(column.type() instanceof ArrayType arrayType) || !ArrowTypes.isVectorElement(arrayType.getElementType())) {
            return ImmutableMap.of();
        }
        OptionalInt dimension = field.get().fixedSizeListSize();
        return dimension.isPresent() ? ImmutableMap.of(LanceColumnProperties.DIMENSION, dimension.getAsInt()) : ImmutableMap.of();
    }

    /**
     * The table properties of CREATE TABLE that the version records, so SHOW CREATE TABLE re-creates the table with
     * the same layout: its data file format (only one this connector writes), the rows per file this connector keeps
     * in the table metadata, and the compression policy (kept in the table metadata too, or else one every field carries).
     */
    private static Map<String, Object> tableProperties(TableSnapshot snapshot)
    {
        ImmutableMap.Builder<String, Object> properties = ImmutableMap.builder();
        String version = snapshot.manifest().getDataFormat().getVersion();
        if (LanceTableProperties.WRITABLE_FORMAT_VERSIONS.contains(version)) {
            properties.put(LanceTableProperties.FILE_FORMAT_VERSION, version);
        }
        String maxRows = snapshot.manifest().getTableMetadataMap().get(TableWrites.MAX_ROWS_PER_FILE_KEY);
        if (maxRows != null) {
            try {
                properties.put(LanceTableProperties.MAX_ROWS_PER_FILE, Integer.parseInt(maxRows));
            }
            catch (NumberFormatException e) {
                // written by hand or by another tool: shown in "t$properties", not here
            }
        }
        PrimaryKey.of(snapshot.schema().fields()).ifPresent(key -> properties.put(LanceTableProperties.PRIMARY_KEY, key.names()));
        String compression = snapshot.manifest().getTableMetadataMap().get(ColumnEncodings.COMPRESSION_KEY);
        if (compression == null) {
            Set<String> compressions = snapshot.schema().fields().stream()
                    .map(field -> Optional.ofNullable(field.metadata().get(ColumnEncodings.COMPRESSION)).orElse(ColumnEncodings.NONE))
                    .collect(ImmutableSet.toImmutableSet());
            compression = compressions.size() == 1 ? compressions.iterator().next() : null;
        }
        if (compression != null) {
            try {
                properties.put(LanceTableProperties.COMPRESSION, LanceTableProperties.compression(Map.of(LanceTableProperties.COMPRESSION, compression)));
            }
            catch (TrinoException e) {
                // a compression Lance knows and CREATE TABLE does not (such as a level suffix)
            }
        }
        ColumnEncodings.stringCompressionLevel(snapshot.manifest()).ifPresent(level -> properties.put(LanceTableProperties.STRING_COMPRESSION_LEVEL, level));
        return properties.buildOrThrow();
    }

    /**
     * {@code table_changes} becomes a scan of the changes its analysis resolved.
     */
    @Override
    public Optional<TableFunctionApplicationResult<ConnectorTableHandle>> applyTableFunction(ConnectorSession session, ConnectorTableFunctionHandle handle)
    {
        return switch (handle) {
            case TableChangesFunction.Handle changes -> Optional.of(new TableFunctionApplicationResult<>(changes.table(), List.copyOf(changes.table().columns())));
            case SearchArguments.Handle search -> Optional.of(new TableFunctionApplicationResult<>(search.table(), search.columns()));
            default -> Optional.empty();
        };
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        ImmutableMap.Builder<String, ColumnHandle> columns = ImmutableMap.builder();
        for (LanceColumnHandle column : catalog.columns(handle.schemaTableName(), snapshot(session, handle))) {
            columns.put(column.name(), column);
        }
        return columns.buildKeepingLast();
    }

    /**
     * Columns of every table for {@code information_schema.columns} (and JDBC {@code getColumns}) without a table
     * filter. A table that cannot be read is logged and left out, so one broken table does not hide the others.
     */
    @Override
    public Iterator<RelationColumnsMetadata> streamRelationColumns(ConnectorSession session, Optional<String> schemaName, UnaryOperator<Set<SchemaTableName>> relationFilter)
    {
        Set<SchemaTableName> tables = relationFilter.apply(ImmutableSet.copyOf(listTables(session, schemaName)));
        return tables.stream()
                .flatMap(name -> tableColumns(session, name).stream())
                .iterator();
    }

    private Optional<RelationColumnsMetadata> tableColumns(ConnectorSession session, SchemaTableName name)
    {
        try {
            ConnectorTableHandle handle = getTableHandle(session, name, Optional.empty(), Optional.empty());
            if (handle == null) {
                // removed since it was listed
                return Optional.empty();
            }
            return Optional.of(RelationColumnsMetadata.forTable(name, getTableMetadata(session, handle).getColumns()));
        }
        catch (RuntimeException e) {
            log.warn(e, "Cannot read the columns of table %s", name);
            return Optional.empty();
        }
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        if (columnHandle instanceof LanceDistanceColumnHandle distance) {
            return ColumnMetadata.builder().setName(distance.name()).setType(DOUBLE).setHidden(true).build();
        }
        if (columnHandle instanceof SearchResultColumnHandle result) {
            return ColumnMetadata.builder().setName(result.name()).setType(DOUBLE).build();
        }
        LanceColumnHandle column = (LanceColumnHandle) columnHandle;
        if (!column.isRowAddress() && tableHandle instanceof LanceTableHandle table) {
            dataColumnMetadataRead.add(TableKey.of(table));
        }
        return column.toColumnMetadata(Optional.empty());
    }

    /**
     * What the manifest of the handle's version (main, a branch, a tag, a time-travel version) knows without opening
     * a data file: live rows (physical rows minus deleted rows of every fragment) and that a NOT NULL column holds no
     * NULL. Lance keeps no per-column statistics (no null counts, minimums or maximums) in manifests or fragments,
     * and the manifest's file sizes are per file, not per column, so nothing else is estimated.
     */
    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        if (!(tableHandle instanceof LanceTableHandle handle)) {
            // table_changes: how many rows changed is known only once the splits are read
            return TableStatistics.empty();
        }
        if (handle.isIndexSearch()) {
            // a search returns its top k at most
            return TableStatistics.builder().setRowCount(Estimate.of(handle.vectorSearch().map(AnnSearch::k).orElseGet(() -> handle.textSearch().orElseThrow().k()))).build();
        }
        TableSnapshot snapshot = snapshot(session, handle);
        long rows = VersionSummary.of(snapshot.manifest()).liveRows();
        TableStatistics.Builder statistics = TableStatistics.builder().setRowCount(Estimate.of(rows));
        for (LanceColumnHandle column : catalog.columns(handle.schemaTableName(), snapshot)) {
            if (!column.nullable()) {
                statistics.setColumnStatistics(column, ColumnStatistics.builder().setNullsFraction(Estimate.zero()).build());
            }
        }
        return statistics.build();
    }

    /**
     * Keeps the predicate in the handle so the page source reads the other columns only of rows that can match; Trino
     * still evaluates the whole filter, because Lance fragments carry no statistics to decide a predicate here.
     */
    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session, ConnectorTableHandle tableHandle, Constraint constraint)
    {
        if (!(tableHandle instanceof LanceTableHandle handle)) {
            return Optional.empty();
        }
        if (handle.limit().isPresent() || handle.vectorTopN().isPresent() || handle.isIndexSearch()) {
            // a pushed LIMIT, top-N or search counts rows before any filter
            return Optional.empty();
        }
        TupleDomain<LanceColumnHandle> narrowed = handle.constraint()
                .intersect(constraint.getSummary().transformKeys(LanceColumnHandle.class::cast));
        List<LabelPredicate> labels = ImmutableList.<LabelPredicate>builder()
                .addAll(handle.labelPredicates())
                .addAll(LabelFilters.extract(constraint.getExpression(), constraint.getAssignments()).stream().filter(label -> !handle.labelPredicates().contains(label)).toList())
                .build();
        if (narrowed.equals(handle.constraint()) && labels.equals(handle.labelPredicates())) {
            return Optional.empty();
        }
        // the page source drops rows failing a domain it evaluates (ColumnPredicate), so the engine need not filter
        // them again: no per-query filter code for the literal, and no filter over rows it never sees
        TupleDomain<ColumnHandle> remaining = constraint.getSummary().filter((column, domain) -> ColumnPredicate.of((LanceColumnHandle) column, domain).isEmpty());
        return Optional.of(new ConstraintApplicationResult<>(handle.withConstraint(narrowed).withLabelPredicates(labels), remaining, constraint.getExpression(), false));
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle tableHandle, long limit)
    {
        if (!(tableHandle instanceof LanceTableHandle handle)) {
            return Optional.empty();
        }
        if (handle.limit().isPresent() && handle.limit().getAsLong() <= limit || handle.vectorTopN().isPresent() || handle.isIndexSearch()) {
            return Optional.empty();
        }
        if (!handle.constraint().isAll()) {
            // splits are cut by rows read, and an enforced filter drops some of them
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }

    @Override
    public Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(ConnectorSession session, ConnectorTableHandle tableHandle, List<ConnectorExpression> projections, Map<String, ColumnHandle> assignments)
    {
        if (!(tableHandle instanceof LanceTableHandle handle)) {
            return Optional.empty();
        }
        return VectorPushdown.applyProjection(session, handle, projections, assignments);
    }

    @Override
    public Optional<TopNApplicationResult<ConnectorTableHandle>> applyTopN(ConnectorSession session, ConnectorTableHandle tableHandle, long topNCount, List<SortItem> sortItems, Map<String, ColumnHandle> assignments)
    {
        if (!(tableHandle instanceof LanceTableHandle handle)) {
            return Optional.empty();
        }
        return VectorPushdown.applyTopN(session, handle, topNCount, sortItems, assignments, () -> snapshot(session, handle), !catalog.isRecipient());
    }

    @Override
    public void createSchema(ConnectorSession session, String schemaName, Map<String, Object> properties, TrinoPrincipal owner)
    {
        catalog.createSchema(session.getIdentity(), schemaName);
    }

    @Override
    public void dropSchema(ConnectorSession session, String schemaName, boolean cascade)
    {
        if (cascade) {
            for (SchemaTableName table : listTables(session, Optional.of(schemaName))) {
                catalog.dropTable(session.getIdentity(), table);
            }
        }
        catalog.dropSchema(session.getIdentity(), schemaName);
    }

    @Override
    public void createTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, SaveMode saveMode)
    {
        if (saveMode == SaveMode.IGNORE && catalog.openTable(session.getIdentity(), tableMetadata.getTable()).isPresent()) {
            return;
        }
        LanceWritableTableHandle handle = writes.beginCreate(session, tableMetadata, saveMode == SaveMode.REPLACE, false);
        writes.finishCreate(session, handle, List.of(), saveMode == SaveMode.REPLACE ? "CREATE OR REPLACE TABLE" : "CREATE TABLE");
    }

    @Override
    public ConnectorOutputTableHandle beginCreateTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, Optional<ConnectorTableLayout> layout, RetryMode retryMode, boolean replace)
    {
        return writes.beginCreate(session, tableMetadata, replace, retryMode != RetryMode.NO_RETRIES);
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, ConnectorOutputTableHandle tableHandle, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        LanceWritableTableHandle handle = (LanceWritableTableHandle) tableHandle;
        writes.finishCreate(session, handle, fragments, handle.newTable().orElseThrow().replace() ? "CREATE OR REPLACE TABLE AS" : "CREATE TABLE AS");
        return Optional.empty();
    }

    @Override
    public ConnectorInsertTableHandle beginInsert(ConnectorSession session, ConnectorTableHandle tableHandle, List<ColumnHandle> columns, RetryMode retryMode)
    {
        return writes.beginInsert(session, (LanceTableHandle) tableHandle, retryMode != RetryMode.NO_RETRIES);
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishInsert(ConnectorSession session, ConnectorInsertTableHandle insertHandle, List<ConnectorTableHandle> sourceTableHandles, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        writes.finishInsert(session, (LanceWritableTableHandle) insertHandle, fragments, "INSERT");
        return Optional.empty();
    }

    @Override
    public RowChangeParadigm getRowChangeParadigm(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        return RowChangeParadigm.DELETE_ROW_AND_INSERT_ROW;
    }

    @Override
    public ColumnHandle getMergeRowIdColumnHandle(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        return LanceColumnHandle.rowAddress();
    }

    @Override
    public ConnectorMergeTableHandle beginMerge(ConnectorSession session, ConnectorTableHandle tableHandle, Map<Integer, Collection<ColumnHandle>> updateCaseColumns, RetryMode retryMode)
    {
        LanceTableHandle table = (LanceTableHandle) tableHandle;
        RowChangeStatement statement = RowChangeStatement.infer(updateCaseColumns.keySet(), dataColumnMetadataRead.contains(TableKey.of(table)));
        return new LanceMergeTableHandle(table, writes.beginInsert(session, table, retryMode != RetryMode.NO_RETRIES), statement);
    }

    @Override
    public void finishMerge(ConnectorSession session, ConnectorMergeTableHandle mergeTableHandle, List<ConnectorTableHandle> sourceTableHandles, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        writes.finishMerge(session, (LanceMergeTableHandle) mergeTableHandle, fragments);
    }

    @Override
    public void dropTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        catalog.dropTable(session.getIdentity(), ((LanceTableHandle) tableHandle).schemaTableName());
    }

    @Override
    public void truncateTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        schemaChanges.truncate(session, (LanceTableHandle) tableHandle);
    }

    @Override
    public void addColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnMetadata column, ColumnPosition position)
    {
        // the SPI's own messages for a position this connector does not support
        switch (position) {
            case ColumnPosition.First _ -> throw new TrinoException(NOT_SUPPORTED, "This connector does not support adding columns with FIRST clause");
            case ColumnPosition.After _ -> throw new TrinoException(NOT_SUPPORTED, "This connector does not support adding columns with AFTER clause");
            case ColumnPosition.Last _ -> schemaChanges.addColumn(session, (LanceTableHandle) tableHandle, column);
        }
    }

    @Override
    public void dropColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column)
    {
        schemaChanges.dropColumn(session, (LanceTableHandle) tableHandle, (LanceColumnHandle) column);
    }

    @Override
    public void renameColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle source, String target)
    {
        schemaChanges.renameColumn(session, (LanceTableHandle) tableHandle, (LanceColumnHandle) source, target);
    }

    @Override
    public void setColumnComment(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column, Optional<String> comment)
    {
        schemaChanges.setColumnComment(session, (LanceTableHandle) tableHandle, (LanceColumnHandle) column, comment);
    }

    @Override
    public void setTableComment(ConnectorSession session, ConnectorTableHandle tableHandle, Optional<String> comment)
    {
        schemaChanges.setTableComment(session, (LanceTableHandle) tableHandle, comment);
    }

    @Override
    public void renameTable(ConnectorSession session, ConnectorTableHandle tableHandle, SchemaTableName newTableName)
    {
        catalog.renameTable(session.getIdentity(), ((LanceTableHandle) tableHandle).schemaTableName(), newTableName);
    }

    @Override
    public Collection<String> listBranches(ConnectorSession session, SchemaTableName tableName)
    {
        return branches.list(session, tableName);
    }

    @Override
    public boolean branchExists(ConnectorSession session, SchemaTableName tableName, String branch)
    {
        return branches.exists(session, tableName, branch);
    }

    @Override
    public void createBranch(ConnectorSession session, ConnectorTableHandle tableHandle, String branch, Optional<String> fromBranch, SaveMode saveMode, Map<String, Object> properties)
    {
        LanceTableHandle handle = (LanceTableHandle) tableHandle;
        if (saveMode == SaveMode.IGNORE && branches.exists(session, handle.schemaTableName(), branch)) {
            return;
        }
        branches.create(session, handle.schemaTableName(), branch, fromBranch, LanceBranchProperties.fromVersion(properties), LanceBranchProperties.fromTag(properties), saveMode == SaveMode.REPLACE);
    }

    @Override
    public void dropBranch(ConnectorSession session, ConnectorTableHandle tableHandle, String branch)
    {
        branches.drop(session, ((LanceTableHandle) tableHandle).schemaTableName(), branch);
    }

    @Override
    public void fastForwardBranch(ConnectorSession session, ConnectorTableHandle tableHandle, String sourceBranch, String targetBranch)
    {
        branches.fastForward(session, ((LanceTableHandle) tableHandle).schemaTableName(), sourceBranch, targetBranch, TableWrites.statementProperties(session, "FAST FORWARD"));
    }

    @Override
    public Optional<ConnectorTableExecuteHandle> getTableHandleForExecute(ConnectorSession session, ConnectorAccessControl accessControl, ConnectorTableHandle tableHandle, String procedureName, Map<String, Object> executeProperties, RetryMode retryMode)
    {
        LanceTableHandle table = (LanceTableHandle) tableHandle;
        LanceTableProcedure procedure = tableProcedures.get(procedureName);
        return Optional.of(new LanceTableExecuteHandle(table, procedureName, procedure.analyze(session, accessControl, table, executeProperties)));
    }

    @Override
    public Map<String, Long> executeTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle)
    {
        LanceTableExecuteHandle handle = (LanceTableExecuteHandle) tableExecuteHandle;
        return tableProcedures.get(handle.procedure()).execute(session, handle);
    }

    @Override
    public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName)
    {
        return LanceSystemTables.resolve(catalog, session, tableName);
    }

    private TableSnapshot snapshot(ConnectorSession session, LanceTableHandle handle)
    {
        try {
            return catalog.openTable(session.getIdentity(), handle.tableRoot(), handle.schemaTableName())
                    .snapshot(handle.branch(), handle.version());
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    private static Optional<String> tableComment(TableSnapshot snapshot)
    {
        String comment = snapshot.manifest().getTableMetadataMap().get("comment");
        if (comment == null && snapshot.manifest().containsSchemaMetadata("comment")) {
            comment = snapshot.manifest().getSchemaMetadataMap().get("comment").toStringUtf8();
        }
        return Optional.ofNullable(comment);
    }
}
