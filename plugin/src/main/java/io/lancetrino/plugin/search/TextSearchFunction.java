package io.lancetrino.plugin.search;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.search.SearchResultColumnHandle;
import io.lancetrino.split.search.TextSearch;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.function.table.AbstractConnectorTableFunction;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.VarcharType;

import java.util.List;
import java.util.Map;

import static io.trino.spi.function.table.ReturnTypeSpecification.GenericTable.GENERIC_TABLE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code TABLE(lance.system.text_search(schema_name, table_name, query, columns, k, filter, version))}: the {@code k}
 * rows that best match {@code query} by BM25, as Lance scores them, with every column of the table and
 * {@code _score}. {@code columns} defaults to every column with an inverted index; a query in double quotes is a
 * phrase (its words adjacent and in order), which needs an index with positions. Through the columns' inverted
 * indexes where they cover fragments, flat over the others; {@code filter} (Lance SQL) is applied first.
 */
public final class TextSearchFunction
        extends AbstractConnectorTableFunction
{
    public static final String NAME = "text_search";

    private final LanceCatalog catalog;

    @Inject
    public TextSearchFunction(LanceCatalog catalog)
    {
        super(
                "system",
                NAME,
                SearchArguments.specifications(ImmutableList.of(
                        ScalarArgumentSpecification.builder().name("QUERY").type(VARCHAR).build(),
                        ScalarArgumentSpecification.builder().name("COLUMNS").type(new ArrayType(VARCHAR)).defaultValue(null).build(),
                        ScalarArgumentSpecification.builder().name("K").type(BIGINT).defaultValue((long) VectorSearchFunction.DEFAULT_K).build())),
                GENERIC_TABLE);
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public TableFunctionAnalysis analyze(ConnectorSession session, ConnectorTransactionHandle transaction, Map<String, Argument> arguments, ConnectorAccessControl accessControl)
    {
        SearchArguments args = new SearchArguments(NAME, arguments);
        SearchArguments.Target target = args.target(session, catalog);
        String table = target.display();
        String query = args.requiredString("QUERY").strip();
        boolean phrase = query.length() >= 2 && query.startsWith("\"") && query.endsWith("\"");
        if (phrase) {
            query = query.substring(1, query.length() - 1).strip();
        }
        if (query.codePoints().noneMatch(Character::isLetterOrDigit)) {
            throw args.invalid("query has no word to search for: '%s'".formatted(args.requiredString("QUERY")));
        }
        List<IndexSegments> textIndexes = TableIndexes.describe(table, target.snapshot()).stream()
                .filter(index -> index.kind() == IndexKind.INVERTED)
                .toList();
        List<String> columns = args.array("COLUMNS", VARCHAR).map(values -> values.stream().map(String.class::cast).toList())
                .orElseGet(() -> target.columns().stream()
                        .filter(column -> textIndexes.stream().anyMatch(index -> index.fieldIds().getFirst() == column.fieldId()))
                        .map(LanceColumnHandle::name)
                        .toList());
        if (columns.isEmpty()) {
            throw args.invalid("table %s has no inverted index: name the columns to search".formatted(table));
        }
        ImmutableList.Builder<String> indexNames = ImmutableList.builder();
        for (String name : columns) {
            LanceColumnHandle column = args.column(target, "columns", name);
            if (!(column.type() instanceof VarcharType)) {
                throw args.invalid("column %s of table %s is not a varchar: %s".formatted(name, table, column.type().getDisplayName()));
            }
            List<IndexSegments> onColumn = textIndexes.stream().filter(index -> index.fieldIds().getFirst() == column.fieldId()).toList();
            if (phrase && onColumn.stream().noneMatch(index -> TableIndexes.textIndexHasPositions(index.segments().getFirst()))) {
                throw args.invalid("a phrase query on column %s of table %s needs an inverted index with positions (create_index with with_position = true)".formatted(name, table));
            }
            onColumn.stream().findFirst().ifPresent(index -> indexNames.add(index.name()));
        }
        if (phrase && columns.size() > 1) {
            throw args.invalid("a phrase query searches one column, not %s".formatted(columns));
        }
        int k = args.positive("K").orElseThrow(() -> args.invalid("k must not be NULL"));
        TextSearch search = new TextSearch(query, columns, k, phrase, indexNames.build(), args.string("FILTER"));
        LanceTableHandle handle = LanceTableHandle.of(target.name(), target.snapshot()).withTextSearch(search);
        return args.analysis(session, target, handle, SearchResultColumnHandle.score(), accessControl);
    }
}
