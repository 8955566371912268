package io.lancetrino.plugin;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.lancetrino.split.LabelPredicate;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Constant;
import io.trino.spi.expression.Variable;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.expression.StandardFunctions.AND_FUNCTION_NAME;

/**
 * The conjuncts of a filter that a label_list index can answer: {@code contains(array_column, constant)} and
 * {@code arrays_overlap(array_column, constant_array)} (either order). Anything else is left to Trino alone.
 */
final class LabelFilters
{
    private LabelFilters() {}

    static List<LabelPredicate> extract(ConnectorExpression expression, Map<String, ColumnHandle> assignments)
    {
        List<LabelPredicate> predicates = new ArrayList<>();
        for (ConnectorExpression conjunct : conjuncts(expression)) {
            if (!(conjunct instanceof Call call) || call.getArguments().size() != 2) {
                continue;
            }
            String function = call.getFunctionName().getName();
            if (function.equals("contains")) {
                column(call.getArguments().get(0), assignments)
                        .flatMap(column -> labels(column, call.getArguments().get(1), false).map(labels -> new LabelPredicate(column, labels, true)))
                        .ifPresent(predicates::add);
            }
            else if (function.equals("arrays_overlap")) {
                for (int side = 0; side < 2; side++) {
                    ConnectorExpression other = call.getArguments().get(1 - side);
                    Optional<LabelPredicate> predicate = column(call.getArguments().get(side), assignments)
                            .flatMap(column -> labels(column, other, true).map(labels -> new LabelPredicate(column, labels, false)));
                    if (predicate.isPresent()) {
                        predicates.add(predicate.get());
                        break;
                    }
                }
            }
        }
        return ImmutableList.copyOf(predicates);
    }

    private static List<ConnectorExpression> conjuncts(ConnectorExpression expression)
    {
        if (expression instanceof Call call && call.getFunctionName().equals(AND_FUNCTION_NAME)) {
            List<ConnectorExpression> conjuncts = new ArrayList<>();
            call.getArguments().forEach(argument -> conjuncts.addAll(conjuncts(argument)));
            return conjuncts;
        }
        return List.of(expression);
    }

    private static Optional<LanceColumnHandle> column(ConnectorExpression expression, Map<String, ColumnHandle> assignments)
    {
        if (expression instanceof Variable variable && assignments.get(variable.getName()) instanceof LanceColumnHandle column
                && !column.isRowAddress() && LabelPredicate.labelType(column.type()).isPresent()) {
            return Optional.of(column);
        }
        return Optional.empty();
    }

    /** The constant's labels as text, when none is null; an array constant when {@code array}, else one element. */
    private static Optional<List<String>> labels(LanceColumnHandle column, ConnectorExpression expression, boolean array)
    {
        if (!(expression instanceof Constant constant) || constant.getValue() == null) {
            return Optional.empty();
        }
        Type element = LabelPredicate.labelType(column.type()).orElseThrow();
        if (!array) {
            return constant.getType().equals(element) ? Optional.of(List.of(text(constant.getValue()))) : Optional.empty();
        }
        if (!(constant.getType() instanceof ArrayType arrayType) || !arrayType.getElementType().equals(element)) {
            return Optional.empty();
        }
        Block block = (Block) constant.getValue();
        List<String> labels = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                // a null element makes arrays_overlap NULL where nothing else matches: left to Trino
                return Optional.empty();
            }
            labels.add(text(io.trino.spi.type.TypeUtils.readNativeValue(element, block, position)));
        }
        return labels.isEmpty() ? Optional.empty() : Optional.of(labels);
    }

    private static String text(Object value)
    {
        return value instanceof Slice slice ? slice.toStringUtf8() : value.toString();
    }
}
