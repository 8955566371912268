package io.lancetrino.metadata.merge;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.proto.Field;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;

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
    static SchemaMerge of(List<Field> base, List<Field> source, List<Field> target, MergePolicy policy)
    {
        if (source.equals(base) || source.equals(target)) {
            return new SchemaMerge(target, ImmutableMap.of(), Optional.empty());
        }
        if (target.equals(base)) {
            return new SchemaMerge(source, ImmutableMap.of(), Optional.empty());
        }
        Optional<SchemaMerge> appended = appendedOnBoth(base, source, target);
        if (appended.isPresent() && appended.get().conflict().isEmpty()) {
            return appended.get();
        }
        MergeConflict conflict = appended.flatMap(SchemaMerge::conflict).orElseGet(() -> new MergeConflict(MergeConflict.Kind.SCHEMA,
                "columns changed on both sides: source %s, target %s, base %s".formatted(names(source), names(target), names(base))));
        return switch (policy) {
            case SOURCE_WINS -> new SchemaMerge(source, ImmutableMap.of(), Optional.of(conflict));
            case TARGET_WINS, FAIL -> new SchemaMerge(target, ImmutableMap.of(), Optional.of(conflict));
        };
    }

    // both sides kept the base's fields and only added columns at the end
    private static Optional<SchemaMerge> appendedOnBoth(List<Field> base, List<Field> source, List<Field> target)
    {
        if (source.size() < base.size() || target.size() < base.size()
                || !source.subList(0, base.size()).equals(base) || !target.subList(0, base.size()).equals(base)) {
            return Optional.empty();
        }
        List<Field> merged = new ArrayList<>(target);
        Map<Integer, Integer> ids = new HashMap<>();
        int nextId = target.stream().mapToInt(Field::getId).max().orElse(-1) + 1;
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
