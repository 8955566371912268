package io.lancetrino.plugin.search;

import com.google.common.collect.ImmutableList;
import io.lancetrino.index.vector.VectorFunction;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceTableHandle;
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

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.expression.StandardFunctions.CAST_FUNCTION_NAME;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;

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
        Map<String, Assignment> newAssignments = new LinkedHashMap<>();
        Set<String> names = new HashSet<>(assignments.keySet());
        List<ConnectorExpression> rewritten = new ArrayList<>();
        boolean changed = false;
        for (ConnectorExpression projection : projections) {
            ConnectorExpression replaced = rewrite(projection, assignments, newAssignments, names);
            changed |= replaced != projection;
            rewritten.add(replaced);
        }
        if (!changed) {
            return Optional.empty();
        }
        // every column the remaining expressions still reference stays in the scan
        for (ConnectorExpression expression : rewritten) {
            collectVariables(expression, assignments, newAssignments);
        }
        return Optional.of(new ProjectionApplicationResult<>(handle, rewritten, ImmutableList.copyOf(newAssignments.values()), false));
    }

    public static Optional<TopNApplicationResult<ConnectorTableHandle>> applyTopN(
            ConnectorSession session,
            LanceTableHandle handle,
            long count,
            List<SortItem> sortItems,
            Map<String, ColumnHandle> assignments)
    {
        if (mode(session) == VectorSearchMode.OFF || sortItems.isEmpty() || handle.limit().isPresent() || count > Integer.MAX_VALUE) {
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
        // each split returns its nearest rows; the engine's top-N picks the final ones (later sort keys included)
        return Optional.of(new TopNApplicationResult<>(handle.withVectorTopN(topN), false, false));
    }

    private static VectorSearchMode mode(ConnectorSession session)
    {
        return session.getProperty(VectorSearchMode.PROPERTY, VectorSearchMode.class);
    }

    private static ConnectorExpression rewrite(ConnectorExpression expression, Map<String, ColumnHandle> assignments, Map<String, Assignment> newAssignments, Set<String> names)
    {
        if (!(expression instanceof Call call)) {
            return expression;
        }
        Optional<LanceDistanceColumnHandle> distance = distanceCall(call, assignments, names);
        if (distance.isPresent()) {
            LanceDistanceColumnHandle column = distance.get();
            Assignment existing = newAssignments.values().stream().filter(assignment -> assignment.getColumn().equals(withName(column, assignment.getVariable()))).findFirst().orElse(null);
            if (existing != null) {
                return new Variable(existing.getVariable(), DOUBLE);
            }
            names.add(column.name());
            newAssignments.put(column.name(), new Assignment(column.name(), column, DOUBLE));
            return new Variable(column.name(), DOUBLE);
        }
        List<ConnectorExpression> arguments = new ArrayList<>();
        boolean changed = false;
        for (ConnectorExpression argument : call.getArguments()) {
            ConnectorExpression replaced = rewrite(argument, assignments, newAssignments, names);
            changed |= replaced != argument;
            arguments.add(replaced);
        }
        return changed ? new Call(call.getType(), call.getFunctionName(), arguments) : call;
    }

    private static LanceDistanceColumnHandle withName(LanceDistanceColumnHandle column, String name)
    {
        return new LanceDistanceColumnHandle(name, column.vector(), column.function(), column.query());
    }

    /**
     * A vector function of a vector column (an {@code array(double)} column, or an {@code array(real)} one inside
     * the cast the engine adds) and a constant query vector without NULL elements, in either order.
     */
    private static Optional<LanceDistanceColumnHandle> distanceCall(Call call, Map<String, ColumnHandle> assignments, Set<String> names)
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
        String name = uniqueName(function.get().sqlName() + "_" + vector.get().name(), names);
        return Optional.of(new LanceDistanceColumnHandle(name, vector.get(), function.get(), query.get()));
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

    private static String uniqueName(String base, Set<String> names)
    {
        String name = base;
        for (int suffix = 2; names.contains(name); suffix++) {
            name = base + "_" + suffix;
        }
        return name;
    }

    private static void collectVariables(ConnectorExpression expression, Map<String, ColumnHandle> assignments, Map<String, Assignment> newAssignments)
    {
        if (expression instanceof Variable variable && !newAssignments.containsKey(variable.getName())) {
            ColumnHandle column = assignments.get(variable.getName());
            if (column != null) {
                newAssignments.put(variable.getName(), new Assignment(variable.getName(), column, variable.getType()));
            }
        }
        for (ConnectorExpression child : expression.getChildren()) {
            collectVariables(child, assignments, newAssignments);
        }
    }
}
