package io.lancetrino.plugin.write;

import com.google.inject.Inject;
import com.google.protobuf.ByteString;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * ALTER TABLE and COMMENT ON: each is one Lance commit that changes the schema or the table metadata and no data
 * file. Field ids are never reused, so a column added after one was dropped never reads the dropped data.
 */
public final class SchemaChanges
{
    private static final String COMMENT = "comment";

    private final TableCommits commits;

    @Inject
    public SchemaChanges(TableCommits commits)
    {
        this.commits = requireNonNull(commits, "commits is null");
    }

    public void addColumn(ConnectorSession session, LanceTableHandle handle, ColumnMetadata column)
    {
        project(session, handle, "ADD COLUMN", fields -> {
            if (fields.stream().anyMatch(field -> field.getParentId() == -1 && field.getName().equals(column.getName()))) {
                throw new TrinoException(ALREADY_EXISTS, "Column '%s' already exists in table %s".formatted(column.getName(), handle.schemaTableName()));
            }
            var arrowField = ColumnFields.arrowField(handle.schemaTableName(), column, true);
            TableWrites.checkFieldNames(handle.schemaTableName(), arrowField);
            if (!column.isNullable()) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: an added column must be nullable, because existing rows have no value for %s".formatted(handle.schemaTableName(), column.getName()));
            }
            TableSnapshot snapshot = snapshot(session, handle);
            String version = snapshot.manifest().getDataFormat().getVersion();
            List<Field> added = new ArrayList<>(ColumnEncodings.of(fields, snapshot.manifest(), version).apply(
                    LanceFields.fromArrow(List.of(arrowField), nextFieldId(snapshot, fields))));
            column.getComment().ifPresent(comment -> added.set(0, added.getFirst().toBuilder().putMetadata(COMMENT, ByteString.copyFrom(comment, UTF_8)).build()));
            List<Field> result = new ArrayList<>(fields);
            result.addAll(added);
            return result;
        });
    }

    public void dropColumn(ConnectorSession session, LanceTableHandle handle, LanceColumnHandle column)
    {
        project(session, handle, "DROP COLUMN", fields -> {
            if (fields.stream().filter(field -> field.getParentId() == -1).count() == 1) {
                throw new TrinoException(NOT_SUPPORTED, "Cannot drop the only column of table " + handle.schemaTableName());
            }
            Set<Integer> dropped = new HashSet<>(column.subtreeFieldIds());
            return fields.stream().filter(field -> !dropped.contains(field.getId())).toList();
        });
    }

    public void renameColumn(ConnectorSession session, LanceTableHandle handle, LanceColumnHandle column, String target)
    {
        project(session, handle, "RENAME COLUMN", fields -> {
            TableWrites.checkColumnName(handle.schemaTableName(), target);
            if (fields.stream().anyMatch(field -> field.getParentId() == -1 && field.getName().equals(target))) {
                throw new TrinoException(ALREADY_EXISTS, "Column '%s' already exists in table %s".formatted(target, handle.schemaTableName()));
            }
            return fields.stream()
                    .map(field -> field.getId() == column.fieldId() ? field.toBuilder().setName(target).build() : field)
                    .toList();
        });
    }

    public void setColumnComment(ConnectorSession session, LanceTableHandle handle, LanceColumnHandle column, Optional<String> comment)
    {
        project(session, handle, "COMMENT ON COLUMN", fields -> fields.stream()
                .map(field -> {
                    if (field.getId() != column.fieldId()) {
                        return field;
                    }
                    Field.Builder builder = field.toBuilder().removeMetadata(COMMENT);
                    comment.ifPresent(text -> builder.putMetadata(COMMENT, ByteString.copyFrom(text, UTF_8)));
                    return builder.build();
                })
                .toList());
    }

    public void setTableComment(ConnectorSession session, LanceTableHandle handle, Optional<String> comment)
    {
        Transaction.UpdateMapEntry.Builder entry = Transaction.UpdateMapEntry.newBuilder().setKey(COMMENT);
        comment.ifPresent(entry::setValue);
        commit(session, handle, TableWrites.transaction(session, handle.version(), "COMMENT ON TABLE")
                .setUpdateConfig(Transaction.UpdateConfig.newBuilder().setTableMetadataUpdates(Transaction.UpdateMap.newBuilder().addUpdateEntries(entry))));
    }

    /**
     * TRUNCATE removes every fragment; older versions still hold the rows.
     */
    public void truncate(ConnectorSession session, LanceTableHandle handle)
    {
        TableSnapshot snapshot = snapshot(session, handle);
        Transaction.Delete.Builder delete = Transaction.Delete.newBuilder().setPredicate("true");
        snapshot.manifest().getFragmentsList().forEach(fragment -> delete.addDeletedFragmentIds(fragment.getId()));
        commit(session, handle, TableWrites.transaction(session, snapshot.version(), "TRUNCATE").setDelete(delete));
    }

    private void project(ConnectorSession session, LanceTableHandle handle, String statement, UnaryOperator<List<Field>> change)
    {
        TableSnapshot snapshot = snapshot(session, handle);
        List<Field> fields = change.apply(snapshot.manifest().getFieldsList());
        commit(session, handle, TableWrites.transaction(session, snapshot.version(), statement)
                .setProject(Transaction.Project.newBuilder().addAllSchema(fields)));
    }

    /**
     * After every id in the schema and in the data files of the version, as Lance assigns them: a dropped column's id
     * stays in the files that stored it.
     */
    private static int nextFieldId(TableSnapshot snapshot, List<Field> fields)
    {
        int max = -1;
        for (Field field : fields) {
            max = Math.max(max, field.getId());
        }
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            for (DataFile file : fragment.getFilesList()) {
                for (int id : file.getFieldsList()) {
                    max = Math.max(max, id);
                }
            }
        }
        return max + 1;
    }

    private void commit(ConnectorSession session, LanceTableHandle handle, Transaction.Builder transaction)
    {
        commits.commit(session, handle.tableRoot(), handle.schemaTableName(), handle.branch(), transaction.build());
    }

    private TableSnapshot snapshot(ConnectorSession session, LanceTableHandle handle)
    {
        return commits.snapshot(session, handle);
    }
}
