package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.airlift.log.Logger;
import io.airlift.slice.Slice;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.metadata.commit.WriterAttemptFiles;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.keys.InsertedKeys;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.metadata.schema.LanceSchema;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.plugin.LanceTableProperties;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.arrow.TrinoTypes;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The coordinator's side of writes: prepares handles, then turns the fragments and deletions the workers report into
 * one Lance transaction and commits it.
 */
public final class TableWrites
{
    private static final Logger log = Logger.get(TableWrites.class);
    public static final String MAX_ROWS_PER_FILE_KEY = "lance-trino.max-rows-per-file";
    public static final String QUERY_ID_PROPERTY = "trino.query_id";
    public static final String USER_PROPERTY = "trino.user";
    public static final String STATEMENT_PROPERTY = "trino.statement";
    private static final String COMMENT = "comment";
    // the Arrow C data interface the Lance SDK's file reader imports schemas through reads names of up to 32,766 bytes
    private static final int MAX_FIELD_NAME_BYTES = 32_766;

    private final LanceCatalog catalog;
    private final TableCommits commits;
    private final TableCommitter committer;

    @Inject
    public TableWrites(LanceCatalog catalog, TableCommits commits)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.commits = requireNonNull(commits, "commits is null");
        this.committer = commits.committer();
    }

    public LanceWritableTableHandle beginCreate(ConnectorSession session, ConnectorTableMetadata metadata, boolean replace, boolean retries)
    {
        SchemaTableName name = metadata.getTable();
        if (!catalog.schemaExists(session.getIdentity(), name.getSchemaName())) {
            throw new SchemaNotFoundException(name.getSchemaName());
        }
        Optional<LanceTable> existing = catalog.openTable(session.getIdentity(), name);
        if (existing.isPresent() && !replace) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table already exists: " + name);
        }
        String version = LanceTableProperties.fileFormatVersion(metadata.getProperties());
        String compression = LanceTableProperties.compression(metadata.getProperties());
        Optional<Integer> stringCompressionLevel = LanceTableProperties.stringCompressionLevel(metadata.getProperties(), compression);
        List<Field> schema = PrimaryKeyFields.declare(name, new ColumnEncodings(compression, version, stringCompressionLevel).apply(toLanceSchema(name, metadata.getColumns())),
                LanceTableProperties.primaryKey(metadata.getProperties()));
        catalog.verifyWritable(session.getIdentity(), name, catalog.tableRoot(name));
        return new LanceWritableTableHandle(
                name,
                catalog.tableRoot(name),
                Optional.empty(),
                0,
                LanceSchema.fromFields(schema).fields(),
                version,
                LanceTableProperties.maxRowsPerFile(metadata.getProperties()),
                Optional.of(new LanceWritableTableHandle.NewTable(schema.stream().map(Field::toByteArray).toList(), compression, stringCompressionLevel, metadata.getComment(), replace)),
                retries);
    }

    public void finishCreate(ConnectorSession session, LanceWritableTableHandle handle, Collection<Slice> fragments, String statement)
    {
        LanceWritableTableHandle.NewTable newTable = handle.newTable().orElseThrow();
        List<Field> schema = newTable.schema().stream().map(TableWrites::parseField).toList();
        LanceTable table = catalog.openTable(session.getIdentity(), handle.tableRoot(), handle.schemaTableName());
        boolean exists = table.latestVersion(Optional.empty()).isPresent();
        if (exists && !newTable.replace()) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Table already exists: " + handle.schemaTableName());
        }
        List<DataFragment> written = fragments(writerResults(fragments));
        Transaction.Overwrite.Builder overwrite = Transaction.Overwrite.newBuilder()
                .addAllFragments(written)
                .addAllSchema(schema);
        Manifest.DataStorageFormat format = Manifest.DataStorageFormat.newBuilder().setFileFormat("lance").setVersion(handle.fileFormatVersion()).build();
        Map<String, String> tableMetadata = new HashMap<>();
        tableMetadata.put(MAX_ROWS_PER_FILE_KEY, String.valueOf(handle.maxRowsPerFile()));
        tableMetadata.put(ColumnEncodings.COMPRESSION_KEY, newTable.compression());
        newTable.stringCompressionLevel().ifPresent(level -> tableMetadata.put(ColumnEncodings.STRING_COMPRESSION_LEVEL_KEY, String.valueOf(level)));
        newTable.comment().ifPresent(comment -> tableMetadata.put(COMMENT, comment));
        try {
            if (exists) {
                // a replaced table is a new definition: its format and metadata come from this statement
                long latest = table.latestVersion(Optional.empty()).getAsLong();
                committer.commit(table, Optional.empty(), transaction(session, latest, statement).setOverwrite(overwrite).build(),
                        manifest -> manifest.toBuilder().setDataFormat(format).clearTableMetadata().putAllTableMetadata(tableMetadata).build());
            }
            else {
                Manifest template = Manifest.newBuilder().setDataFormat(format).putAllTableMetadata(tableMetadata).build();
                committer.create(table, template, transaction(session, 0, statement).setOverwrite(overwrite).build());
            }
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
        removeUncountedAttempts(session, handle, written);
    }

    public LanceWritableTableHandle beginInsert(ConnectorSession session, LanceTableHandle handle, boolean retries)
    {
        catalog.verifyWritable(session.getIdentity(), handle.schemaTableName(), handle.tableRoot());
        TableSnapshot snapshot = snapshot(session, handle);
        List<LanceField> fields = writableFields(handle.schemaTableName(), snapshot);
        Manifest manifest = snapshot.manifest();
        String version = fileFormatVersion(handle.schemaTableName(), manifest);
        int maxRows = Optional.ofNullable(manifest.getTableMetadataMap().get(MAX_ROWS_PER_FILE_KEY))
                .map(Integer::parseInt)
                .orElse(LanceTableProperties.DEFAULT_MAX_ROWS_PER_FILE);
        return new LanceWritableTableHandle(handle.schemaTableName(), handle.tableRoot(), handle.branch(), handle.version(), fields, version, maxRows, Optional.empty(), retries);
    }

    public void finishInsert(ConnectorSession session, LanceWritableTableHandle handle, Collection<Slice> fragments, String statement)
    {
        List<WriterResult> results = writerResults(fragments);
        List<DataFragment> appended = fragments(results);
        Optional<InsertedKeys> inserted = insertedKeys(results);
        if (!appended.isEmpty() && inserted.isPresent()) {
            // into a table with a primary key: an update that only adds rows, recording their keys, so that a
            // concurrent upsert of the same keys by any Lance engine is refused
            commit(session, handle, transaction(session, handle.readVersion(), statement)
                    .setUpdate(Transaction.Update.newBuilder()
                            .addAllNewFragments(appended)
                            .setInsertedRows(inserted.get().toProto()))
                    .build(), inserted);
        }
        else if (!appended.isEmpty()) {
            commit(session, handle, transaction(session, handle.readVersion(), statement)
                    .setAppend(Transaction.Append.newBuilder().addAllFragments(appended))
                    .build(), Optional.empty());
        }
        removeUncountedAttempts(session, handle, appended);
    }

    /**
     * Under fault-tolerant execution, a task attempt that failed or lost to another attempt of the same task may have
     * written files whose fragments never reached the coordinator. They carry this query's id; every one that the
     * committed version does not reference is removed once the commit succeeded (a failed commit leaves them all to
     * cleanup's orphan sweep, as without retries).
     */
    private void removeUncountedAttempts(ConnectorSession session, LanceWritableTableHandle handle, List<DataFragment> committed)
    {
        if (!handle.retries()) {
            return;
        }
        Set<String> kept = committed.stream()
                .flatMap(fragment -> fragment.getFilesList().stream())
                .map(DataFile::getPath)
                .collect(Collectors.toSet());
        TableFileSystem fileSystem = catalog.openTable(session.getIdentity(), handle.tableRoot(), handle.schemaTableName()).fileSystem();
        String dataDirectory = TableFileSystem.join(handle.datasetLocation(), "data");
        try {
            List<String> removed = WriterAttemptFiles.removeUnreferenced(fileSystem, dataDirectory, session.getQueryId(), kept);
            if (!removed.isEmpty()) {
                log.info("Query %s: removed %s data files of task attempts the commit did not take under %s", session.getQueryId(), removed.size(), dataDirectory);
            }
        }
        catch (IOException e) {
            // the version is committed; what is left is an orphan cleanup removes
            log.warn(e, "Cannot remove the files of failed task attempts of query %s under %s", session.getQueryId(), dataDirectory);
        }
    }

    /**
     * Commits a DELETE, UPDATE or MERGE; the statement kind recorded is {@link RowChangeStatement}'s inference.
     */
    public void finishMerge(ConnectorSession session, LanceMergeTableHandle handle, Collection<Slice> results)
    {
        List<DataFragment> appended = new ArrayList<>();
        Map<Long, RoaringBitmap> deleted = new HashMap<>();
        long insertRows = 0;
        long mergeDeleteRows = 0;
        List<WriterResult> writers = writerResults(results);
        for (WriterResult result : writers) {
            result.newFragments().forEach(bytes -> appended.add(parseFragment(bytes)));
            result.deletedRows().forEach((fragment, rows) -> deleted.computeIfAbsent(fragment, _ -> new RoaringBitmap()).or(WriterResult.deserialize(rows)));
            insertRows += result.insertRows();
            mergeDeleteRows += result.mergeDeleteRows();
        }
        String statement = handle.statement().confirm(insertRows, mergeDeleteRows).name();
        if (appended.isEmpty() && deleted.isEmpty()) {
            removeUncountedAttempts(session, handle.insert(), appended);
            return;
        }
        TableSnapshot snapshot = snapshot(session, handle.table());
        TableFileSystem fileSystem = catalog.openTable(session.getIdentity(), handle.table().tableRoot(), handle.table().schemaTableName()).fileSystem();
        List<DataFragment> updated = new ArrayList<>();
        List<Long> removed = new ArrayList<>();
        try {
            for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
                RoaringBitmap rows = deleted.remove(fragment.getId());
                if (rows == null) {
                    continue;
                }
                RoaringBitmap all = DeletionFiles.read(fileSystem, snapshot, fragment);
                if (RoaringBitmap.intersects(all, rows) || rows.last() >= fragment.getPhysicalRows()) {
                    // the rows were read from another version than this one: never report a change that did not happen
                    throw new TrinoException(LanceErrorCode.LANCE_COMMIT_CONFLICT, "Table %s, fragment %s: rows to delete are already deleted or missing in %s; re-run the statement"
                            .formatted(handle.table().schemaTableName(), fragment.getId(), snapshot.describe()));
                }
                all.or(rows);
                if (all.getLongCardinality() >= fragment.getPhysicalRows()) {
                    removed.add(fragment.getId());
                }
                else {
                    updated.add(fragment.toBuilder().setDeletionFile(DeletionFiles.write(fileSystem, snapshot.datasetLocation(), fragment.getId(), snapshot.version(), all)).build());
                }
            }
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
        if (!deleted.isEmpty()) {
            throw new TrinoException(LANCE_BAD_DATA, "Table %s: rows to delete belong to fragments %s that %s does not have".formatted(handle.table().schemaTableName(), deleted.keySet(), snapshot.describe()));
        }
        Transaction.Builder transaction = transaction(session, snapshot.version(), statement);
        if (appended.isEmpty()) {
            transaction.setDelete(Transaction.Delete.newBuilder().addAllUpdatedFragments(updated).addAllDeletedFragmentIds(removed));
        }
        else {
            transaction.setUpdate(Transaction.Update.newBuilder().addAllRemovedFragmentIds(removed).addAllUpdatedFragments(updated).addAllNewFragments(appended));
        }
        // a MERGE into a table with a primary key records the keys it inserted, as lance-core's merge_insert does
        Optional<InsertedKeys> inserted = insertedKeys(writers);
        if (inserted.isPresent() && transaction.hasUpdate()) {
            transaction.getUpdateBuilder().setInsertedRows(inserted.get().toProto());
        }
        commit(session, handle.insert(), transaction.build(), inserted);
        removeUncountedAttempts(session, handle.insert(), appended);
    }

    /**
     * The data file format new files of the table are written in: every data file of a version has the table's.
     */
    public static String fileFormatVersion(SchemaTableName name, Manifest manifest)
    {
        String version = manifest.getDataFormat().getVersion().isEmpty() ? LanceTableProperties.SDK_DEFAULT_FILE_FORMAT_VERSION : manifest.getDataFormat().getVersion();
        if (!LanceTableProperties.WRITABLE_FORMAT_VERSIONS.contains(version)) {
            throw new TrinoException(NOT_SUPPORTED, "Table %s stores data files in format %s; this connector writes %s".formatted(
                    name, version, String.join(", ", LanceTableProperties.WRITABLE_FORMAT_VERSIONS.stream().sorted().toList())));
        }
        return version;
    }

    /**
     * The columns a rewrite of whole fragments writes: every field, since a field it left out would lose its data.
     */
    public static List<LanceField> rewritableFields(SchemaTableName name, TableSnapshot snapshot, String statement)
    {
        for (LanceField field : snapshot.schema().fields()) {
            if (!TrinoTypes.hasTrinoType(field)) {
                throw new TrinoException(NOT_SUPPORTED, "Cannot %s table %s: its column %s has Lance type %s, which Trino cannot read, so its data could not be rewritten"
                        .formatted(statement, name, field.name(), field.logicalType()));
            }
        }
        return writableFields(name, snapshot);
    }

    /**
     * The columns INSERT writes: every visible field. A hidden non-nullable field could never be filled.
     */
    private static List<LanceField> writableFields(SchemaTableName name, TableSnapshot snapshot)
    {
        ImmutableList.Builder<LanceField> fields = ImmutableList.builder();
        for (LanceField field : snapshot.schema().fields()) {
            // json fields are written as JSONB, like the SDK does
            if (TrinoTypes.hasTrinoType(field)) {
                try {
                    LanceFields.toArrow(field);
                }
                catch (IllegalArgumentException e) {
                    throw new TrinoException(NOT_SUPPORTED, "Cannot write to table %s: column %s has Lance type %s, which this connector reads but cannot write".formatted(name, field.name(), field.logicalType()), e);
                }
                fields.add(field);
            }
            else if (!field.nullable()) {
                throw new TrinoException(NOT_SUPPORTED, "Cannot write to table %s: its non-nullable column %s has Lance type %s, which Trino cannot write".formatted(name, field.name(), field.logicalType()));
            }
        }
        return fields.build();
    }

    private void commit(ConnectorSession session, LanceWritableTableHandle handle, Transaction transaction, Optional<InsertedKeys> insertedKeys)
    {
        commits.commit(session, handle.tableRoot(), handle.schemaTableName(), handle.branch(), transaction, insertedKeys);
    }

    private TableSnapshot snapshot(ConnectorSession session, LanceTableHandle handle)
    {
        return commits.snapshot(session, handle);
    }

    static List<Field> toLanceSchema(SchemaTableName table, List<ColumnMetadata> columns)
    {
        List<org.apache.arrow.vector.types.pojo.Field> arrowFields = new ArrayList<>();
        for (ColumnMetadata column : columns) {
            if (column.isHidden()) {
                continue;
            }
            org.apache.arrow.vector.types.pojo.Field arrowField = ColumnFields.arrowField(table, column, column.isNullable());
            checkFieldNames(table, arrowField);
            arrowFields.add(arrowField);
        }
        List<Field> fields = new ArrayList<>(LanceFields.fromArrow(arrowFields, 0));
        for (ColumnMetadata column : columns) {
            Optional<String> comment = column.getComment();
            if (comment.isEmpty()) {
                continue;
            }
            for (int i = 0; i < fields.size(); i++) {
                if (fields.get(i).getParentId() == -1 && fields.get(i).getName().equals(column.getName())) {
                    fields.set(i, fields.get(i).toBuilder().putMetadata(COMMENT, ByteString.copyFrom(comment.get(), UTF_8)).build());
                }
            }
        }
        return fields;
    }

    /**
     * Names a Lance table can hold and the SDK can read back: a top-level name without {@code .} (Lance reads it as a
     * path into a struct), and no name, nested ones included, longer than the SDK's file reader imports.
     */
    static void checkFieldNames(SchemaTableName table, org.apache.arrow.vector.types.pojo.Field field)
    {
        checkColumnName(table, field.getName());
        field.getChildren().forEach(child -> checkNestedNames(table, child));
    }

    static void checkColumnName(SchemaTableName table, String name)
    {
        if (name.contains(".")) {
            throw new TrinoException(NOT_SUPPORTED, "Table %s: column name '%s' contains '.', which Lance does not allow in a top-level column name".formatted(table, name));
        }
        checkNameLength(table, name);
    }

    private static void checkNestedNames(SchemaTableName table, org.apache.arrow.vector.types.pojo.Field field)
    {
        checkNameLength(table, field.getName());
        field.getChildren().forEach(child -> checkNestedNames(table, child));
    }

    private static void checkNameLength(SchemaTableName table, String name)
    {
        int length = name.getBytes(UTF_8).length;
        if (length > MAX_FIELD_NAME_BYTES) {
            throw new TrinoException(NOT_SUPPORTED, "Table %s: column or field name '%s...' is %s bytes long; Lance data files can be read back with names of at most %s bytes"
                    .formatted(table, name.substring(0, 20), length, MAX_FIELD_NAME_BYTES));
        }
    }

    /**
     * A transaction of this connector: a new uuid and the statement's properties.
     */
    public static Transaction.Builder transaction(ConnectorSession session, long readVersion, String statement)
    {
        return Transaction.newBuilder()
                .setReadVersion(readVersion)
                .setUuid(UUID.randomUUID().toString())
                .putAllTransactionProperties(statementProperties(session, statement));
    }

    /**
     * Who committed a version with which statement, as every commit of this connector records it.
     */
    public static Map<String, String> statementProperties(ConnectorSession session, String statement)
    {
        return Map.of(QUERY_ID_PROPERTY, session.getQueryId(), USER_PROPERTY, session.getUser(), STATEMENT_PROPERTY, statement);
    }

    private static List<WriterResult> writerResults(Collection<Slice> slices)
    {
        return slices.stream().map(WriterResult::fromSlice).toList();
    }

    private static List<DataFragment> fragments(List<WriterResult> results)
    {
        return results.stream()
                .flatMap(result -> result.newFragments().stream())
                .map(TableWrites::parseFragment)
                .toList();
    }

    private static Optional<InsertedKeys> insertedKeys(List<WriterResult> results)
    {
        return InsertedKeys.union(results.stream().map(WriterResult::insertedKeys).filter(Objects::nonNull).toList());
    }

    private static DataFragment parseFragment(byte[] bytes)
    {
        try {
            return DataFragment.parseFrom(bytes);
        }
        catch (InvalidProtocolBufferException e) {
            throw new TrinoException(LANCE_BAD_DATA, "Corrupt fragment description from a worker", e);
        }
    }

    private static Field parseField(byte[] bytes)
    {
        try {
            return Field.parseFrom(bytes);
        }
        catch (InvalidProtocolBufferException e) {
            throw new TrinoException(LANCE_BAD_DATA, "Corrupt schema in a table handle", e);
        }
    }
}
