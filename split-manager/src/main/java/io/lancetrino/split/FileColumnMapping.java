package io.lancetrino.split;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Finds a table column inside a data file by field id. The Lance SDK projects by the top-level names of the schema
 * embedded at write time, which are stale after a rename, so the names are looked up through the file's column order:
 * the k-th column in pre-order (every field in 2.0 files, leaves only in 2.1) stores {@code fields[i]} where
 * {@code column_indices[i] == k}. A packed struct is one column in every version, its children none.
 */
public final class FileColumnMapping
{
    private FileColumnMapping() {}

    /**
     * A top-level column of the file schema.
     *
     * @param sdkProjectable whether the SDK's file reader finds the column's data when projecting its name: it counts
     * the children of packed structs as columns of their own, so it reads the wrong column for anything after a
     * packed struct (and fails inside native code); a packed struct at the top level itself is found
     */
    public record FileColumn(String name, boolean sdkProjectable)
    {
        public FileColumn
        {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * The top-level name in the file schema of the column whose subtree holds one of the ids, or empty when the file
     * does not store that column.
     */
    public static Optional<String> fileColumnName(Schema fileSchema, LanceDataFile file, List<Integer> subtreeFieldIds)
    {
        return fileColumn(fileSchema, file, subtreeFieldIds).map(FileColumn::name);
    }

    public static Optional<FileColumn> fileColumn(Schema fileSchema, LanceDataFile file, List<Integer> subtreeFieldIds)
    {
        if (file.fieldIds().stream().noneMatch(subtreeFieldIds::contains)) {
            return Optional.empty();
        }
        Set<Integer> wanted = new HashSet<>(subtreeFieldIds);
        Walk walk = new Walk(file);
        for (Field topLevel : fileSchema.getFields()) {
            boolean packedBefore = walk.packedSeen;
            Set<Integer> ids = new HashSet<>();
            boolean topLevelPacked = walk.collect(topLevel, ids);
            ids.retainAll(wanted);
            if (!ids.isEmpty()) {
                // a packed struct nested in this column also throws off the SDK's count inside it
                boolean nestedPacked = walk.packedSeen && !topLevelPacked && !packedBefore;
                return Optional.of(new FileColumn(topLevel.getName(), !packedBefore && !nestedPacked));
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

    private static final class Walk
    {
        private final LanceDataFile file;
        private int nextColumn;
        private boolean packedSeen;

        Walk(LanceDataFile file)
        {
            this.file = file;
        }

        /**
         * Adds the ids stored in the columns of {@code field} and returns whether the field is a packed struct.
         */
        boolean collect(Field field, Set<Integer> ids)
        {
            // fixed-size lists are one Lance field; their Arrow child has no column of its own
            boolean leaf = field.getChildren().isEmpty() || field.getType() instanceof ArrowType.FixedSizeList;
            if (!leaf && field.getType() instanceof ArrowType.Struct) {
                // a packed struct's one column stores the struct's own id (in 2.1+ files an unpacked struct's first
                // column stores a leaf, in 2.0 files the struct's id with its children's columns following)
                int id = file.fieldIdOfColumn(nextColumn);
                if (file.packedFieldIds().contains(id)) {
                    ids.add(id);
                    nextColumn++;
                    packedSeen = true;
                    return true;
                }
            }
            if (leaf || file.parentsHaveColumns()) {
                ids.add(file.fieldIdOfColumn(nextColumn++));
            }
            if (!leaf) {
                for (Field child : field.getChildren()) {
                    collect(child, ids);
                }
            }
            return false;
        }
    }
}
