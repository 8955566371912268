package io.lancetrino.plugin.search;

import com.google.common.collect.ImmutableList;
import io.lancetrino.index.vector.VectorFunction;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.split.LanceTableHandle;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceSqlFilter;
import io.lancetrino.split.search.VectorMetric;
import io.lancetrino.split.search.LanceDistanceColumnHandle;
import io.lancetrino.split.search.VectorSearchMode;
import io.lancetrino.split.search.VectorTopN;
import io.trino.spi.block.Block;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.SortItem;
import io.trino.spi.connector.SortOrder;
import io.trino.spi.connector.TopNApplicationResult;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Constant;
import io.trino.spi.expression.Variable;
import io.trino.spi.type.ArrayType;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;

import static io.trino.spi.expression.StandardFunctions.CAST_FUNCTION_NAME;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;
import static java.lang.Math.toIntExact;

/**
 * {@code ORDER BY cosine_distance(embedding, ARRAY[...]) LIMIT k} into the scan: {@code applyProjection} turns a
 * vector function of a vector column and a constant query vector into a column the page source computes, and
 * {@code applyTopN} has each split return only its nearest rows by it. The engine keeps its own final top-N, so the
 * answer is the one it computes without the pushdown.
 */
public final class VectorPushdown
{
    private VectorPushdown() {}

    public static Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(
            ConnectorSession session,
            LanceTableHandle handle,
            List<ConnectorExpression> projections,
            Map<String, ColumnHandle> assignments)
    {
        if (mode(session) == VectorSearchMode.OFF) {
            return Optional.empty();
        }
        Rewriter rewriter = new Rewriter(assignments);
        List<ConnectorExpression> rewritten = projections.stream().map(rewriter::rewrite).toList();
        if (rewritten.equals(projections)) {
            return Optional.empty();
        }
        return Optional.of(new ProjectionApplicationResult<>(handle, rewritten, rewriter.assignments(rewritten), false));
    }

    /**
     * @param snapshot the version the handle reads, for its vector indexes
     * @param sdkReadable whether the SDK can open the table (not so for a table read through a sharing server)
     */
    public static Optional<TopNApplicationResult<ConnectorTableHandle>> applyTopN(
            ConnectorSession session,
            LanceTableHandle handle,
            long count,
            List<SortItem> sortItems,
            Map<String, ColumnHandle> assignments,
            Supplier<TableSnapshot> snapshot,
            boolean sdkReadable)
    {
        if (mode(session) == VectorSearchMode.OFF || sortItems.isEmpty() || handle.limit().isPresent() || handle.isIndexSearch() || count > Integer.MAX_VALUE) {
            return Optional.empty();
        }
        SortItem first = sortItems.getFirst();
        if (!(assignments.get(first.getName()) instanceof LanceDistanceColumnHandle distance)) {
            return Optional.empty();
        }
        SortOrder order = first.getSortOrder();
        VectorTopN topN = new VectorTopN(distance.name(), count, !order.isAscending(), order.isNullsFirst());
        if (handle.vectorTopN().isPresent() && handle.vectorTopN().get().equals(topN)) {
            return Optional.empty();
        }
        LanceTableHandle pushed = handle.withVectorTopN(topN);
        if (mode(session) == VectorSearchMode.APPROXIMATE && sdkReadable) {
            // ordered by the distance alone, the scan returns the search's rows nearest first and the engine needs no
            // top-N of its own (nor the exchange before it); later sort keys leave the order to the engine
            boolean guaranteed = sortItems.size() == 1;
            Optional<AnnSearch> search = approximateSearch(session, handle, distance, topN, snapshot.get(), guaranteed);
            if (search.isPresent()) {
                // the SDK's top k over the whole version, in one split
                return Optional.of(new TopNApplicationResult<>(pushed.withVectorSearch(search.get()), guaranteed, false));
            }
        }
        // each split returns its nearest rows; the engine's top-N picks the final ones (later sort keys included)
        return Optional.of(new TopNApplicationResult<>(pushed, false, false));
    }

    /**
     * The search through a vector index of the function's metric on the column, when the order is nearest first, the
     * query vector has the column's dimension and the scan's filter can be handed to the SDK to apply first.
     */
    private static Optional<AnnSearch> approximateSearch(ConnectorSession session, LanceTableHandle handle, LanceDistanceColumnHandle distance, VectorTopN topN, TableSnapshot snapshot, boolean ordered)
    {
        VectorFunction function = distance.function();
        if (topN.descending() != VectorMetric.largerIsNearer(function) || topN.nullsFirst() || !handle.labelPredicates().isEmpty()) {
            return Optional.empty();
        }
        OptionalInt dimension = VectorIndexes.dimension(snapshot, distance.vector());
        if (dimension.isEmpty() || dimension.getAsInt() != distance.query().size()) {
            // the exact path fails as the engine does
            return Optional.empty();
        }
        VectorMetric metric = VectorMetric.of(function);
        Optional<IndexSegments> index = VectorIndexes.find(handle.displayName(), snapshot, distance.vector().fieldId(), Optional.of(metric));
        Optional<String> filter = handle.constraint().isAll() ? Optional.empty() : LanceSqlFilter.of(handle.constraint());
        if (index.isEmpty() || (!handle.constraint().isAll() && filter.isEmpty())) {
            return Optional.empty();
        }
        VectorSearchParameters parameters = VectorSearchParameters.of(session);
        List<Float> query = distance.query().stream().map(Double::floatValue).toList();
        return Optional.of(new AnnSearch(distance.vector(), query, toIntExact(topN.count()), metric,
                parameters.nprobes(), parameters.refineFactor(), parameters.ef(), filter, Optional.of(index.get().name()), ordered ? Optional.of(distance) : Optional.empty()));
    }

    private static VectorSearchMode mode(ConnectorSession session)
    {
        return session.getProperty(VectorSearchMode.PROPERTY, VectorSearchMode.class);
    }

    /** A vector function of a vector column and a constant query vector. */
    private record Distance(LanceColumnHandle vector, VectorFunction function, List<Double> query) {}

    /**
     * Replaces every vector function of a vector column and a query vector by a variable of a computed column, one
     * per distinct function, column and query.
     */
    private static final class Rewriter
    {
        private final Map<String, ColumnHandle> assignments;
        private final Set<String> names;
        private final Map<Distance, LanceDistanceColumnHandle> computed = new LinkedHashMap<>();

        Rewriter(Map<String, ColumnHandle> assignments)
        {
            this.assignments = assignments;
            this.names = new HashSet<>(assignments.keySet());
        }

        ConnectorExpression rewrite(ConnectorExpression expression)
        {
            if (!(expression instanceof Call call)) {
                return expression;
            }
            Optional<Distance> distance = distance(call, assignments);
            if (distance.isPresent()) {
                LanceDistanceColumnHandle column = computed.computeIfAbsent(distance.get(), this::newColumn);
                return new Variable(column.name(), DOUBLE);
            }
            List<ConnectorExpression> arguments = call.getArguments().stream().map(this::rewrite).toList();
            return arguments.equals(call.getArguments()) ? call : new Call(call.getType(), call.getFunctionName(), arguments);
        }

        private LanceDistanceColumnHandle newColumn(Distance distance)
        {
            String base = distance.function().sqlName() + "_" + distance.vector().name();
            String name = base;
            for (int suffix = 2; names.contains(name); suffix++) {
                name = base + "_" + suffix;
            }
            names.add(name);
            return new LanceDistanceColumnHandle(name, distance.vector(), distance.function(), distance.query());
        }

        /** The computed columns, and every column the rewritten expressions still reference. */
        List<Assignment> assignments(List<ConnectorExpression> rewritten)
        {
            Map<String, Assignment> result = new LinkedHashMap<>();
            computed.values().forEach(column -> result.put(column.name(), new Assignment(column.name(), column, DOUBLE)));
            rewritten.forEach(expression -> collectVariables(expression, result));
            return ImmutableList.copyOf(result.values());
        }

        private void collectVariables(ConnectorExpression expression, Map<String, Assignment> result)
        {
            if (expression instanceof Variable variable && !result.containsKey(variable.getName()) && assignments.containsKey(variable.getName())) {
                result.put(variable.getName(), new Assignment(variable.getName(), assignments.get(variable.getName()), variable.getType()));
            }
            expression.getChildren().forEach(child -> collectVariables(child, result));
        }
    }

    /**
     * A vector function of a vector column (an {@code array(double)} column, or an {@code array(real)} one inside
     * the cast the engine adds) and a constant query vector without NULL elements, in either order.
     */
    private static Optional<Distance> distance(Call call, Map<String, ColumnHandle> assignments)
    {
        if (call.getFunctionName().getCatalogSchema().isPresent() || call.getArguments().size() != 2 || !call.getType().equals(DOUBLE)) {
            return Optional.empty();
        }
        Optional<VectorFunction> function = VectorFunction.fromSqlName(call.getFunctionName().getName());
        if (function.isEmpty()) {
            return Optional.empty();
        }
        ConnectorExpression left = call.getArguments().get(0);
        ConnectorExpression right = call.getArguments().get(1);
        Optional<LanceColumnHandle> vector = vectorColumn(left, assignments);
        Optional<List<Double>> query = queryVector(right);
        if (vector.isEmpty() || query.isEmpty()) {
            vector = vectorColumn(right, assignments);
            query = queryVector(left);
        }
        if (vector.isEmpty() || query.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Distance(vector.get(), function.get(), query.get()));
    }

    private static Optional<LanceColumnHandle> vectorColumn(ConnectorExpression expression, Map<String, ColumnHandle> assignments)
    {
        if (expression instanceof Call cast && cast.getFunctionName().equals(CAST_FUNCTION_NAME) && cast.getArguments().size() == 1
                && cast.getType().equals(new ArrayType(DOUBLE)) && cast.getArguments().getFirst().getType().equals(new ArrayType(REAL))) {
            expression = cast.getArguments().getFirst();
        }
        if (!(expression instanceof Variable variable) || !(assignments.get(variable.getName()) instanceof LanceColumnHandle column) || column.isRowAddress()) {
            return Optional.empty();
        }
        if (!(column.type() instanceof ArrayType arrayType) || !(arrayType.getElementType().equals(REAL) || arrayType.getElementType().equals(DOUBLE))) {
            return Optional.empty();
        }
        return Optional.of(column);
    }

    private static Optional<List<Double>> queryVector(ConnectorExpression expression)
    {
        if (!(expression instanceof Constant constant) || !constant.getType().equals(new ArrayType(DOUBLE)) || !(constant.getValue() instanceof Block block)) {
            return Optional.empty();
        }
        ImmutableList.Builder<Double> values = ImmutableList.builder();
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                return Optional.empty();
            }
            values.add(DOUBLE.getDouble(block, position));
        }
        return Optional.of(values.build());
    }
}
