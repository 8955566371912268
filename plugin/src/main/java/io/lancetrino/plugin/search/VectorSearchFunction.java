package io.lancetrino.plugin.search;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.SearchResultColumnHandle;
import io.lancetrino.split.search.VectorMetric;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.function.table.AbstractConnectorTableFunction;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;
import io.trino.spi.type.ArrayType;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.spi.function.table.ReturnTypeSpecification.GenericTable.GENERIC_TABLE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code TABLE(lance.system.vector_search(schema_name, table_name, column, query, k, distance, nprobes, refine_factor,
 * filter, version))}: the {@code k} rows nearest to {@code query} by {@code distance} ({@code l2}, {@code cosine} or
 * {@code dot}; by default the metric of the column's vector index, else {@code l2}), with every column of the table
 * and {@code _distance} in the units of Trino's function for the metric ({@code euclidean_distance},
 * {@code cosine_distance}, {@code dot_product}). Approximate through a vector index of that metric where one exists
 * (the SDK searches fragments it does not cover flat and merges), exact otherwise; {@code filter} (Lance SQL) is
 * applied before the top k is taken.
 */
public final class VectorSearchFunction
        extends AbstractConnectorTableFunction
{
    public static final String NAME = "vector_search";
    public static final int DEFAULT_K = 10;

    private final LanceCatalog catalog;

    @Inject
    public VectorSearchFunction(LanceCatalog catalog)
    {
        super(
                "system",
                NAME,
                SearchArguments.specifications(ImmutableList.of(
                        ScalarArgumentSpecification.builder().name("COLUMN").type(VARCHAR).build(),
                        ScalarArgumentSpecification.builder().name("QUERY").type(new ArrayType(DOUBLE)).build(),
                        ScalarArgumentSpecification.builder().name("K").type(BIGINT).defaultValue((long) DEFAULT_K).build(),
                        ScalarArgumentSpecification.builder().name("DISTANCE").type(VARCHAR).defaultValue(null).build(),
                        ScalarArgumentSpecification.builder().name("NPROBES").type(BIGINT).defaultValue(null).build(),
                        ScalarArgumentSpecification.builder().name("REFINE_FACTOR").type(BIGINT).defaultValue(null).build())),
                GENERIC_TABLE);
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public TableFunctionAnalysis analyze(ConnectorSession session, ConnectorTransactionHandle transaction, Map<String, Argument> arguments, ConnectorAccessControl accessControl)
    {
        SearchArguments args = new SearchArguments(NAME, arguments);
        SearchArguments.Target target = args.target(session, catalog);
        String table = target.display();
        LanceColumnHandle column = args.column(target, "column", args.requiredString("COLUMN"));
        int dimension = VectorIndexes.dimension(target.snapshot(), column).orElseThrow(() -> args.invalid("column %s of table %s is not a vector: an array(real) or array(double) with a dimension, but %s"
                .formatted(column.name(), table, column.type().getDisplayName())));
        List<Float> query = args.array("QUERY", DOUBLE).orElseThrow(() -> args.invalid("query must not be NULL")).stream()
                .map(value -> (float) (double) (Double) value)
                .toList();
        if (query.size() != dimension) {
            throw args.invalid("query has %s elements, but column %s of table %s has dimension %s".formatted(query.size(), column.name(), table, dimension));
        }
        int k = args.positive("K").orElseThrow(() -> args.invalid("k must not be NULL"));
        Optional<VectorMetric> requested = args.string("DISTANCE").map(name -> VectorMetric.fromLanceName(name)
                .orElseThrow(() -> args.invalid("distance must be one of %s: '%s'".formatted(Arrays.stream(VectorMetric.values()).map(VectorMetric::lanceName).toList(), name))));
        Optional<IndexSegments> index = VectorIndexes.find(table, target.snapshot(), column.fieldId(), requested);
        VectorMetric metric = requested.orElseGet(() -> index.flatMap(VectorIndexes::metric).orElse(VectorMetric.L2));
        VectorSearchParameters defaults = VectorSearchParameters.of(session);
        OptionalInt nprobes = args.positive("NPROBES").map(OptionalInt::of).orElse(defaults.nprobes());
        OptionalInt refineFactor = args.positive("REFINE_FACTOR").map(OptionalInt::of).orElse(defaults.refineFactor());
        Optional<String> filter = args.string("FILTER");
        AnnSearch search = new AnnSearch(column, query, k, metric, nprobes, refineFactor, defaults.ef(), filter, index.map(IndexSegments::name), Optional.empty());
        LanceTableHandle handle = LanceTableHandle.of(target.name(), target.snapshot()).withVectorSearch(search);
        return args.analysis(session, target, handle, SearchResultColumnHandle.distance(), accessControl);
    }
}
