package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.lancetrino.split.arrow.StoredConversions;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.List;
import java.util.Optional;

/**
 * The physical columns of a 2.1+ file that store an array or row column's primitive leaves, for the Java reader's
 * {@link io.lancetrino.file.NestedColumnReader}: only Arrow lists, large lists and structs (no fixed-size lists, maps
 * or packed structs) over leaves stored as the Trino type's values, every leaf present in the file.
 */
final class NestedPhysicalColumns
{
    private NestedPhysicalColumns() {}

    static Optional<List<Integer>> physicalColumns(LanceDataFile file, LanceColumnHandle handle, Field fileField)
    {
        if (file.parentsHaveColumns() || !(handle.type() instanceof ArrayType || handle.type() instanceof RowType)) {
            return Optional.empty();
        }
        if (handle.subtreeFieldIds().stream().anyMatch(id -> file.blobFieldIds().contains(id) || file.packedFieldIds().contains(id))) {
            return Optional.empty();
        }
        if (!file.blobFieldIds().isEmpty()) {
            // a blob column stores more than one physical column per leaf; where the leaves after it sit is not mapped here
            return Optional.empty();
        }
        ImmutableList.Builder<Integer> leafIds = ImmutableList.builder();
        int[] cursor = {0};
        if (!walk(fileField, handle.type(), handle.subtreeFieldIds(), cursor, leafIds) || cursor[0] != handle.subtreeFieldIds().size()) {
            return Optional.empty();
        }
        ImmutableList.Builder<Integer> physical = ImmutableList.builder();
        for (int id : leafIds.build()) {
            int index = file.fieldIds().indexOf(id);
            if (index < 0 || file.columnIndices().isEmpty()) {
                return Optional.empty();
            }
            int column = file.columnIndices().get(index);
            if (column < 0) {
                return Optional.empty();
            }
            physical.add(column);
        }
        return Optional.of(physical.build());
    }

    /** Walks the file field and the Trino type together, taking the field ids in pre-order, and collects the leaf ids. */
    private static boolean walk(Field field, Type type, List<Integer> ids, int[] cursor, ImmutableList.Builder<Integer> leafIds)
    {
        if (cursor[0] >= ids.size() || field.getDictionary() != null || field.getMetadata().containsKey("ARROW:extension:name")) {
            return false;
        }
        int id = ids.get(cursor[0]++);
        ArrowType arrowType = field.getType();
        if (arrowType instanceof ArrowType.List || arrowType instanceof ArrowType.LargeList) {
            return type instanceof ArrayType array && field.getChildren().size() == 1
                    && walk(field.getChildren().getFirst(), array.getElementType(), ids, cursor, leafIds);
        }
        if (arrowType instanceof ArrowType.Struct) {
            if (!(type instanceof RowType row) || row.getFields().size() != field.getChildren().size()) {
                return false;
            }
            for (int i = 0; i < field.getChildren().size(); i++) {
                if (!walk(field.getChildren().get(i), row.getFields().get(i).getType(), ids, cursor, leafIds)) {
                    return false;
                }
            }
            return true;
        }
        if (!field.getChildren().isEmpty() || !StoredConversions.storedAsIs(arrowType, type)) {
            return false;
        }
        leafIds.add(id);
        return true;
    }
}
