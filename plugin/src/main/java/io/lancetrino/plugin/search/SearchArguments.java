package io.lancetrino.plugin.search;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.airlift.slice.Slice;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.procedures.RowSecurity;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.search.SearchResultColumnHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.ArgumentSpecification;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.function.table.Descriptor;
import io.trino.spi.function.table.ScalarArgument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * What the search table functions share: their arguments, the table version they search, the columns they return
 * (the table's and one result column), and the access check on the table's columns.
 */
public final class SearchArguments
{
    private final String function;
    private final Map<String, Argument> arguments;

    SearchArguments(String function, Map<String, Argument> arguments)
    {
        this.function = requireNonNull(function, "function is null");
        this.arguments = requireNonNull(arguments, "arguments is null");
    }

    /** What the analysis resolved, turned into a table scan by {@code applyTableFunction}. */
    public record Handle(LanceTableHandle table, List<ColumnHandle> columns)
            implements ConnectorTableFunctionHandle
    {
        public Handle
        {
            requireNonNull(table, "table is null");
            columns = ImmutableList.copyOf(columns);
        }
    }

    /** The table and version searched; {@code display} names both in messages. */
    record Target(SchemaTableName name, LanceTable table, TableSnapshot snapshot, List<LanceColumnHandle> columns)
    {
        String display()
        {
            return name + "@" + snapshot.describe();
        }
    }

    /**
     * Every search function's arguments: the table first, then the function's own, then {@code filter} and
     * {@code version}.
     */
    static List<ArgumentSpecification> specifications(List<ArgumentSpecification> own)
    {
        return ImmutableList.<ArgumentSpecification>builder()
                .add(ScalarArgumentSpecification.builder().name("SCHEMA_NAME").type(VARCHAR).build())
                .add(ScalarArgumentSpecification.builder().name("TABLE_NAME").type(VARCHAR).build())
                .addAll(own)
                .add(ScalarArgumentSpecification.builder().name("FILTER").type(VARCHAR).defaultValue(null).build())
                .add(ScalarArgumentSpecification.builder().name("VERSION").type(VARCHAR).defaultValue(null).build())
                .build();
    }

    /** The table and version searched; a catalog reading shared tables has none the SDK can open. */
    Target target(ConnectorSession session, LanceCatalog catalog)
    {
        if (catalog.isRecipient()) {
            throw new TrinoException(NOT_SUPPORTED, "%s is not available for tables read through a sharing server; ORDER BY <vector function> LIMIT k searches them exactly".formatted(function));
        }
        SchemaTableName name = new SchemaTableName(requiredString("SCHEMA_NAME"), requiredString("TABLE_NAME"));
        LanceTable table = catalog.openTable(session.getIdentity(), name).orElseThrow(() -> new TableNotFoundException(name));
        try {
            RefResolver resolver = new RefResolver(table);
            Optional<String> version = string("VERSION");
            TableSnapshot snapshot;
            if (version.isEmpty()) {
                snapshot = resolver.latest(Optional.empty());
            }
            else if (isVersionNumber(table, version.get())) {
                snapshot = resolver.mainVersion(Long.parseLong(version.get()));
            }
            else {
                snapshot = resolver.resolve(version.get());
            }
            return new Target(name, table, snapshot, catalog.columns(name, snapshot));
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    /** A version given as digits that no tag or branch is named: a version of main, as {@code FOR VERSION AS OF 3}. */
    private static boolean isVersionNumber(LanceTable table, String version)
    {
        return !version.isEmpty() && version.length() < 19 && version.chars().allMatch(Character::isDigit)
                && table.refs().getTag(version).isEmpty() && table.refs().getBranch(version).isEmpty();
    }

    /**
     * The analysis: every column of the table and the result column, after the caller may read the table's columns,
     * and read them unfiltered and unmasked.
     */
    TableFunctionAnalysis analysis(ConnectorSession session, Target target, LanceTableHandle handle, SearchResultColumnHandle result, ConnectorAccessControl accessControl)
    {
        for (LanceColumnHandle column : target.columns()) {
            if (column.name().equals(result.name())) {
                throw new TrinoException(NOT_SUPPORTED, "%s of table %s: its column %s has the name of the result column".formatted(function, target.name(), column.name()));
            }
        }
        accessControl.checkCanSelectFromColumns(null, target.name(), target.columns().stream().map(LanceColumnHandle::name).collect(ImmutableSet.toImmutableSet()));
        RowSecurity.checkUnrestricted(session, accessControl, target.name(), target.columns(), function, function + " cannot apply them"
                + (function.equals(VectorSearchFunction.NAME) ? "; SELECT ... ORDER BY <vector function>(column, query) LIMIT k does" : ""));
        ImmutableList.Builder<Descriptor.Field> fields = ImmutableList.builder();
        ImmutableList.Builder<ColumnHandle> columns = ImmutableList.builder();
        for (LanceColumnHandle column : target.columns()) {
            fields.add(new Descriptor.Field(column.name(), Optional.of(column.type())));
            columns.add(column);
        }
        fields.add(new Descriptor.Field(result.name(), Optional.of(DOUBLE)));
        columns.add(result);
        return TableFunctionAnalysis.builder()
                .returnedType(new Descriptor(fields.build()))
                .handle(new Handle(handle, columns.build()))
                .build();
    }

    LanceColumnHandle column(Target target, String argument, String name)
    {
        return target.columns().stream()
                .filter(column -> column.name().equals(name))
                .findFirst()
                .orElseThrow(() -> invalid("%s: table %s has no column %s".formatted(argument, target.name(), name)));
    }

    String requiredString(String name)
    {
        return string(name).orElseThrow(() -> invalid(name.toLowerCase() + " must not be NULL"));
    }

    Optional<String> string(String name)
    {
        return Optional.ofNullable(value(name)).map(value -> ((Slice) value).toStringUtf8());
    }

    OptionalLong number(String name)
    {
        Object value = value(name);
        return value == null ? OptionalLong.empty() : OptionalLong.of((Long) value);
    }

    /** A positive integer argument that fits an int. */
    Optional<Integer> positive(String name)
    {
        OptionalLong value = number(name);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        if (value.getAsLong() <= 0 || value.getAsLong() > Integer.MAX_VALUE) {
            throw invalid("%s must be between 1 and %s: %s".formatted(name.toLowerCase(), Integer.MAX_VALUE, value.getAsLong()));
        }
        return Optional.of((int) value.getAsLong());
    }

    /** The elements of an array argument of {@code elementType}, none of them NULL. */
    Optional<List<Object>> array(String name, Type elementType)
    {
        Object value = value(name);
        if (value == null) {
            return Optional.empty();
        }
        Block block = (Block) value;
        ImmutableList.Builder<Object> elements = ImmutableList.builder();
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                throw invalid("%s must not have NULL elements (element %s is NULL)".formatted(name.toLowerCase(), position + 1));
            }
            elements.add(elementType.equals(VARCHAR) ? VARCHAR.getSlice(block, position).toStringUtf8() : DOUBLE.getDouble(block, position));
        }
        return Optional.of(elements.build());
    }

    private Object value(String name)
    {
        return ((ScalarArgument) arguments.get(name)).getValue();
    }

    TrinoException invalid(String message)
    {
        return new TrinoException(INVALID_FUNCTION_ARGUMENT, function + ": " + message);
    }
}
