package io.lancetrino.metadata.schema;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * One field of a Lance schema with its children (struct members, or the single list item).
 */
public record LanceField(int id, int parentId, String name, String logicalType, boolean nullable, Map<String, String> metadata, List<LanceField> children)
{
    public LanceField
    {
        requireNonNull(name, "name is null");
        requireNonNull(logicalType, "logicalType is null");
        metadata = ImmutableMap.copyOf(metadata);
        children = ImmutableList.copyOf(children);
    }

    /**
     * A struct Lance stores as one column of the data file (field metadata {@code lance-encoding:packed=true}, or the
     * older key {@code packed}), so its children get no columns of their own.
     */
    public boolean isPackedStruct()
    {
        return logicalType.equals("struct") && !children.isEmpty()
                && ("true".equalsIgnoreCase(metadata.get("lance-encoding:packed")) || "true".equalsIgnoreCase(metadata.get("packed")));
    }

    /**
     * The number of elements of a fixed-size list field (a vector), empty for any other field.
     */
    public OptionalInt fixedSizeListSize()
    {
        return LogicalTypes.toArrowType(logicalType)
                .filter(ArrowType.FixedSizeList.class::isInstance)
                .map(type -> OptionalInt.of(((ArrowType.FixedSizeList) type).getListSize()))
                .orElse(OptionalInt.empty());
    }

    public Optional<String> comment()
    {
        return Optional.ofNullable(metadata.get("comment"));
    }

    /**
     * Pre-order ids of this field and everything below it.
     */
    public void collectIds(ImmutableList.Builder<Integer> ids)
    {
        ids.add(id);
        children.forEach(child -> child.collectIds(ids));
    }
}
