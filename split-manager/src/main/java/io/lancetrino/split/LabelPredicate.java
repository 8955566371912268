package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slices;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A filter on an array column that a label_list index answers: {@code contains(tags, 'x')} (the rows holding the
 * label) or {@code arrays_overlap(tags, ARRAY['x', 'y'])} (holding any of them). Labels are kept as text so the
 * handle serializes; only varchar and integer elements qualify.
 *
 * @param all whether a row must hold every label rather than any
 */
public record LabelPredicate(LanceColumnHandle column, List<String> labels, boolean all)
{
    public LabelPredicate
    {
        requireNonNull(column, "column is null");
        labels = ImmutableList.copyOf(labels);
        checkArgument(!labels.isEmpty(), "no labels");
    }

    /** The element type labels are of, when it is one a label predicate carries. */
    public static Optional<Type> labelType(Type columnType)
    {
        if (columnType instanceof ArrayType array) {
            Type element = array.getElementType();
            if (element instanceof VarcharType || element == BigintType.BIGINT || element == IntegerType.INTEGER || element == SmallintType.SMALLINT || element == TinyintType.TINYINT) {
                return Optional.of(element);
            }
        }
        return Optional.empty();
    }

    /** The labels as native values of the element type. */
    public List<Object> nativeLabels()
    {
        Type element = ((ArrayType) column.type()).getElementType();
        return labels.stream()
                .map(label -> element instanceof VarcharType ? (Object) Slices.utf8Slice(label) : (Object) Long.parseLong(label))
                .toList();
    }
}
