package io.lancetrino.plugin.changes;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.airlift.slice.Slice;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.procedures.RowSecurity;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.changes.LanceTableChangesHandle;
import io.lancetrino.split.changes.LanceTableChangesHandle.VersionRef;
import io.lancetrino.split.changes.TableChanges;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.function.table.AbstractConnectorTableFunction;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.function.table.Descriptor;
import io.trino.spi.function.table.ScalarArgument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.lancetrino.split.LanceErrorCode.LANCE_REF_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.function.table.ReturnTypeSpecification.GenericTable.GENERIC_TABLE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code TABLE(lance.system.table_changes(schema_name, table_name, start_version, end_version, start_ref, end_ref))}:
 * the rows inserted and deleted by the versions after the start up to and including the end, each with
 * {@code _change_type} ({@code insert} or {@code delete}), {@code _change_version} and {@code _change_timestamp}.
 *
 * <p>The end is {@code end_ref} (anything {@code FOR VERSION AS OF} takes), else version {@code end_version} of the
 * line, else the line's head; the line is the end ref's branch, else the branch {@code start_ref} points into, else
 * main. The versions walked are the end's lineage: the previous version of the same branch, and from a branch's first
 * version the version it was created from. The start ({@code start_ref}, or the version numbered {@code start_version}
 * on that lineage, 0 for the empty table before main's version 1) must lie on it. The columns are the end version's; rows of older versions read a column they lack
 * as NULL. See {@link TableChanges} for how rows are derived from the manifests.
 */
public final class TableChangesFunction
        extends AbstractConnectorTableFunction
{
    public static final String NAME = "table_changes";
    private static final String SCHEMA_NAME = "SCHEMA_NAME";
    private static final String TABLE_NAME = "TABLE_NAME";
    private static final String START_VERSION = "START_VERSION";
    private static final String END_VERSION = "END_VERSION";
    private static final String START_REF = "START_REF";
    private static final String END_REF = "END_REF";

    private final LanceCatalog catalog;

    /**
     * What the analysis resolved, turned into a table scan by {@code applyTableFunction}.
     */
    public record Handle(LanceTableChangesHandle table)
            implements ConnectorTableFunctionHandle
    {
        public Handle
        {
            requireNonNull(table, "table is null");
        }
    }

    @Inject
    public TableChangesFunction(LanceCatalog catalog)
    {
        super(
                "system",
                NAME,
                ImmutableList.of(
                        ScalarArgumentSpecification.builder().name(SCHEMA_NAME).type(VARCHAR).build(),
                        ScalarArgumentSpecification.builder().name(TABLE_NAME).type(VARCHAR).build(),
                        ScalarArgumentSpecification.builder().name(START_VERSION).type(BIGINT).defaultValue(null).build(),
                        ScalarArgumentSpecification.builder().name(END_VERSION).type(BIGINT).defaultValue(null).build(),
                        ScalarArgumentSpecification.builder().name(START_REF).type(VARCHAR).defaultValue(null).build(),
                        ScalarArgumentSpecification.builder().name(END_REF).type(VARCHAR).defaultValue(null).build()),
                GENERIC_TABLE);
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public TableFunctionAnalysis analyze(ConnectorSession session, ConnectorTransactionHandle transaction, Map<String, Argument> arguments, ConnectorAccessControl accessControl)
    {
        String schema = string(arguments, SCHEMA_NAME).orElseThrow(() -> new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes: schema_name must not be NULL"));
        String tableName = string(arguments, TABLE_NAME).orElseThrow(() -> new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes: table_name must not be NULL"));
        SchemaTableName name = new SchemaTableName(schema, tableName);
        OptionalLong startVersion = number(arguments, START_VERSION);
        OptionalLong endVersion = number(arguments, END_VERSION);
        Optional<String> startRef = string(arguments, START_REF);
        Optional<String> endRef = string(arguments, END_REF);
        if (startVersion.isPresent() == startRef.isPresent()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of table %s: give exactly one of start_version and start_ref".formatted(name));
        }
        if (endVersion.isPresent() && endRef.isPresent()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of table %s: give at most one of end_version and end_ref".formatted(name));
        }
        LanceTable table = catalog.openTable(session.getIdentity(), name).orElseThrow(() -> new TableNotFoundException(name));
        try {
            LanceTableChangesHandle handle = resolve(name, table, startVersion, startRef, endVersion, endRef);
            List<LanceColumnHandle> tableColumns = handle.columns().stream()
                    .filter(column -> !TableChanges.isChangeColumn(column))
                    .collect(toImmutableList());
            accessControl.checkCanSelectFromColumns(null, name, tableColumns.stream().map(LanceColumnHandle::name).collect(ImmutableSet.toImmutableSet()));
            RowSecurity.checkUnrestricted(session, accessControl, name, tableColumns, NAME, "table_changes cannot apply them");
            List<Descriptor.Field> fields = handle.columns().stream()
                    .map(column -> new Descriptor.Field(column.name(), Optional.of(column.type())))
                    .collect(toImmutableList());
            return TableFunctionAnalysis.builder()
                    .returnedType(new Descriptor(fields))
                    .handle(new Handle(handle))
                    .build();
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    private LanceTableChangesHandle resolve(SchemaTableName name, LanceTable table, OptionalLong startVersion, Optional<String> startRef, OptionalLong endVersion, Optional<String> endRef)
    {
        RefResolver resolver = new RefResolver(table);
        // a ref of digits only that names no tag or branch is a version number
        OptionalLong startNumber = startVersion.isPresent() ? startVersion : startRef.flatMap(ref -> versionNumber(table, ref)).map(OptionalLong::of).orElse(OptionalLong.empty());
        Optional<TableSnapshot> start = startNumber.isPresent() ? Optional.empty() : Optional.of(resolver.resolve(startRef.orElseThrow()));
        OptionalLong endNumber = endVersion.isPresent() ? endVersion : endRef.flatMap(ref -> versionNumber(table, ref)).map(OptionalLong::of).orElse(OptionalLong.empty());
        TableSnapshot end;
        if (endRef.isPresent() && endNumber.isEmpty()) {
            end = resolver.resolve(endRef.get());
        }
        else {
            Optional<String> line = start.flatMap(TableSnapshot::branch);
            if (endNumber.isPresent()) {
                end = line.isEmpty() ? resolver.mainVersion(endNumber.getAsLong()) : resolver.resolve(line.get() + "@" + endNumber.getAsLong());
            }
            else {
                end = resolver.latest(line);
            }
        }
        String startName = start.map(TableSnapshot::describe).orElseGet(() -> "version " + startNumber.getAsLong());
        long startVersionNumber = start.map(TableSnapshot::version).orElseGet(startNumber::getAsLong);
        if (startVersionNumber > end.version()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of table %s: start %s is after end %s".formatted(name, startName, end.describe()));
        }
        boolean beforeFirst = start.isEmpty() && startNumber.getAsLong() == TableChanges.BEFORE_FIRST_VERSION;
        Optional<List<TableSnapshot>> lineage = TableChanges.lineage(table, end, snapshot -> start
                .map(wanted -> wanted.version() == snapshot.version() && wanted.branch().equals(snapshot.branch()))
                // version 0 is the empty table before main's version 1
                .orElseGet(() -> beforeFirst ? snapshot.branch().isEmpty() && snapshot.version() == 1 : snapshot.version() == startNumber.getAsLong()));
        if (lineage.isEmpty() && start.isEmpty() && !beforeFirst && table.manifestLocation(end.branch(), startNumber.getAsLong()).isEmpty()) {
            // a version number that does not exist: the resolver's error names the versions that do
            if (end.branch().isEmpty()) {
                resolver.mainVersion(startNumber.getAsLong());
            }
            else {
                resolver.resolve(end.branch().get() + "@" + startNumber.getAsLong());
            }
        }
        if (lineage.isEmpty()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "table_changes of table %s: start %s is not an ancestor of end %s (or a version between them was cleaned up)"
                    .formatted(name, startName, end.describe()));
        }
        List<LanceColumnHandle> dataColumns = catalog.columns(name, end);
        for (LanceColumnHandle column : dataColumns) {
            if (TableChanges.changeColumns().stream().anyMatch(change -> change.name().equals(column.name()))) {
                throw new TrinoException(NOT_SUPPORTED, "table_changes of table %s: its column %s has the name of a change column".formatted(name, column.name()));
            }
        }
        List<LanceColumnHandle> columns = ImmutableList.<LanceColumnHandle>builder()
                .addAll(dataColumns)
                .addAll(TableChanges.changeColumns())
                .build();
        ImmutableList.Builder<VersionRef> versions = ImmutableList.builder();
        if (beforeFirst) {
            versions.add(new VersionRef(Optional.empty(), TableChanges.BEFORE_FIRST_VERSION));
        }
        versions.addAll(lineage.get().stream().map(VersionRef::of).iterator());
        return new LanceTableChangesHandle(name, table.root(), versions.build(), columns);
    }

    private static Optional<Long> versionNumber(LanceTable table, String ref)
    {
        if (ref.isEmpty() || !ref.chars().allMatch(Character::isDigit) || table.refs().getTag(ref).isPresent() || table.refs().getBranch(ref).isPresent()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(ref));
        }
        catch (NumberFormatException e) {
            throw new TrinoException(LANCE_REF_NOT_FOUND, "Table %s has no version %s".formatted(table.displayName(), ref), e);
        }
    }

    private static Optional<String> string(Map<String, Argument> arguments, String name)
    {
        return Optional.ofNullable(((ScalarArgument) arguments.get(name)).getValue()).map(value -> ((Slice) value).toStringUtf8());
    }

    private static OptionalLong number(Map<String, Argument> arguments, String name)
    {
        Object value = ((ScalarArgument) arguments.get(name)).getValue();
        return value == null ? OptionalLong.empty() : OptionalLong.of((Long) value);
    }
}
