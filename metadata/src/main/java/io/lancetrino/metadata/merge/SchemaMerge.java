package io.lancetrino.metadata.merge;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.proto.Field;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;

/**
 * Merges the columns of both sides against the base. A change on one side is taken; columns added on both sides are
 * combined (the same name and type become one column, the source's other new columns get ids after the target's);
 * anything else changed on both sides is a conflict.
 *
 * @param fields the merged schema
 * @param sourceFieldIds new ids for the source's added fields, to apply to the source's data files
 */
record SchemaMerge(List<Field> fields, Map<Integer, Integer> sourceFieldIds, Optional<MergeConflict> conflict)
{
    /**
     * @param targetDataFieldIds field ids the target's data files hold, dropped columns' included: a new column must
     * not take one, or it would read another column's values
     * @param firstFreshId an id neither side's schema nor data files use, nor any above it
     */
    static SchemaMerge of(List<Field> base, List<Field> source, List<Field> target, Set<Integer> targetDataFieldIds, int firstFreshId, MergePolicy policy)
    {
        if (source.equals(base) || source.equals(target)) {
            return new SchemaMerge(target, ImmutableMap.of(), Optional.empty());
        }
        if (target.equals(base)) {
            Set<Integer> baseIds = ids(base);
            boolean collides = source.stream().map(Field::getId).anyMatch(id -> !baseIds.contains(id) && targetDataFieldIds.contains(id));
            if (!collides) {
                return new SchemaMerge(source, ImmutableMap.of(), Optional.empty());
            }
            Map<Integer, Integer> ids = freshIds(base, source, firstFreshId);
            return new SchemaMerge(source.stream().map(field -> renumbered(field, ids)).collect(toImmutableList()), ids, Optional.empty());
        }
        Optional<SchemaMerge> appended = appendedOnBoth(base, source, target, firstFreshId);
        if (appended.isPresent() && appended.get().conflict().isEmpty()) {
            return appended.get();
        }
        MergeConflict conflict = appended.flatMap(SchemaMerge::conflict).orElseGet(() -> new MergeConflict(MergeConflict.Kind.SCHEMA,
                "columns changed on both sides: source %s, target %s, base %s".formatted(names(source), names(target), names(base))));
        // the source's new columns get ids neither side used, so no data file is read as the other side's column
        Map<Integer, Integer> ids = freshIds(base, source, firstFreshId);
        return switch (policy) {
            case SOURCE_WINS -> new SchemaMerge(source.stream().map(field -> renumbered(field, ids)).collect(toImmutableList()), ids, Optional.of(conflict));
            case TARGET_WINS, FAIL -> new SchemaMerge(target, ids, Optional.of(conflict));
        };
    }

    private static Map<Integer, Integer> freshIds(List<Field> base, List<Field> source, int firstFreshId)
    {
        Set<Integer> baseIds = ids(base);
        int next = firstFreshId;
        Map<Integer, Integer> ids = new HashMap<>();
        for (Field field : source) {
            if (!baseIds.contains(field.getId())) {
                ids.put(field.getId(), next++);
            }
        }
        return ImmutableMap.copyOf(ids);
    }

    private static Field renumbered(Field field, Map<Integer, Integer> ids)
    {
        return field.toBuilder()
                .setId(ids.getOrDefault(field.getId(), field.getId()))
                .setParentId(ids.getOrDefault(field.getParentId(), field.getParentId()))
                .build();
    }

    // both sides kept the base's fields and only added columns at the end
    private static Set<Integer> ids(List<Field> fields)
    {
        return fields.stream().map(Field::getId).collect(toImmutableSet());
    }

    private static Optional<SchemaMerge> appendedOnBoth(List<Field> base, List<Field> source, List<Field> target, int firstFreshId)
    {
        if (source.size() < base.size() || target.size() < base.size()
                || !source.subList(0, base.size()).equals(base) || !target.subList(0, base.size()).equals(base)) {
            return Optional.empty();
        }
        List<Field> merged = new ArrayList<>(target);
        Map<Integer, Integer> ids = new HashMap<>();
        int nextId = firstFreshId;
        List<Field> added = source.subList(base.size(), source.size());
        for (Field column : added.stream().filter(field -> field.getParentId() == -1).toList()) {
            List<Field> subtree = subtree(added, column.getId());
            Optional<Field> sameName = target.subList(base.size(), target.size()).stream()
                    .filter(field -> field.getParentId() == -1 && field.getName().equals(column.getName()))
                    .findFirst();
            if (sameName.isPresent()) {
                List<Field> targetSubtree = subtree(target, sameName.get().getId());
                if (!shape(subtree).equals(shape(targetSubtree))) {
                    return Optional.of(new SchemaMerge(target, ImmutableMap.of(), Optional.of(new MergeConflict(MergeConflict.Kind.SCHEMA,
                            "column '%s' was added on both sides with different types (source %s, target %s)".formatted(column.getName(), shape(subtree), shape(targetSubtree))))));
                }
                for (int i = 0; i < subtree.size(); i++) {
                    ids.put(subtree.get(i).getId(), targetSubtree.get(i).getId());
                }
                continue;
            }
            for (Field field : subtree) {
                ids.put(field.getId(), nextId++);
            }
            for (Field field : subtree) {
                merged.add(field.toBuilder()
                        .setId(ids.get(field.getId()))
                        .setParentId(field.getParentId() == -1 ? -1 : ids.get(field.getParentId()))
                        .build());
            }
        }
        ids.entrySet().removeIf(entry -> entry.getKey().equals(entry.getValue()));
        return Optional.of(new SchemaMerge(ImmutableList.copyOf(merged), ImmutableMap.copyOf(ids), Optional.empty()));
    }

    // a column and its nested fields, in schema order
    private static List<Field> subtree(List<Field> fields, int rootId)
    {
        List<Integer> ids = new ArrayList<>(List.of(rootId));
        List<Field> result = new ArrayList<>();
        for (Field field : fields) {
            if (field.getId() == rootId || ids.contains(field.getParentId())) {
                ids.add(field.getId());
                result.add(field);
            }
        }
        return result;
    }

    private static List<String> shape(List<Field> subtree)
    {
        return subtree.stream().map(field -> field.getName() + ":" + field.getLogicalType() + (field.getNullable() ? "" : " not null")).collect(toImmutableList());
    }

    private static List<String> names(List<Field> fields)
    {
        return fields.stream().filter(field -> field.getParentId() == -1).map(Field::getName).collect(toImmutableList());
    }
}
