package io.lancetrino.split;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds a table column inside a data file by field id. The Lance SDK projects by the top-level names of the schema
 * embedded at write time, which are stale after a rename, so the names are looked up through the file's column order:
 * the k-th column in pre-order (every field in 2.0 files, leaves only in 2.1) stores {@code fields[i]} where
 * {@code column_indices[i] == k}.
 */
public final class FileColumnMapping
{
    private FileColumnMapping() {}

    /**
     * The top-level name in the file schema of the column whose subtree holds one of the ids, or empty when the file
     * does not store that column.
     */
    public static Optional<String> fileColumnName(Schema fileSchema, LanceDataFile file, List<Integer> subtreeFieldIds)
    {
        if (file.fieldIds().stream().noneMatch(subtreeFieldIds::contains)) {
            return Optional.empty();
        }
        Set<Integer> wanted = new HashSet<>(subtreeFieldIds);
        int[] nextColumn = {0};
        for (Field topLevel : fileSchema.getFields()) {
            Set<Integer> ids = new HashSet<>();
            collect(topLevel, file, nextColumn, ids);
            ids.retainAll(wanted);
            if (!ids.isEmpty()) {
                return Optional.of(topLevel.getName());
            }
        }
        return Optional.empty();
    }

    /**
     * The SDK resolves projected names as field paths, where {@code .} separates and {@code `} quotes (doubled inside
     * quotes), so a name holding either is quoted to stay one top-level name.
     */
    public static String projectionPath(String name)
    {
        if (name.contains(".") || name.contains("`")) {
            return "`" + name.replace("`", "``") + "`";
        }
        return name;
    }

    private static void collect(Field field, LanceDataFile file, int[] nextColumn, Set<Integer> ids)
    {
        // fixed-size lists are one Lance field; their Arrow child has no column of its own
        boolean leaf = field.getChildren().isEmpty() || field.getType() instanceof ArrowType.FixedSizeList;
        if (leaf || file.parentsHaveColumns()) {
            ids.add(file.fieldIdOfColumn(nextColumn[0]++));
        }
        if (!leaf) {
            for (Field child : field.getChildren()) {
                collect(child, file, nextColumn, ids);
            }
        }
    }
}
