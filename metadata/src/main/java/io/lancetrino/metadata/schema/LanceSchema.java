package io.lancetrino.metadata.schema;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Manifest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The schema of one table version, rebuilt from the manifest's flattened pre-order field list.
 */
public record LanceSchema(List<LanceField> fields, Map<Integer, LanceField> fieldsById, Map<Integer, Integer> topLevelIdByFieldId)
{
    public LanceSchema
    {
        fields = ImmutableList.copyOf(fields);
        fieldsById = ImmutableMap.copyOf(fieldsById);
        topLevelIdByFieldId = ImmutableMap.copyOf(topLevelIdByFieldId);
    }

    public static LanceSchema fromManifest(Manifest manifest)
    {
        return fromFields(manifest.getFieldsList());
    }

    public static LanceSchema fromFields(List<Field> flatFields)
    {
        requireNonNull(flatFields, "flatFields is null");
        Map<Integer, List<Field>> childrenByParent = new LinkedHashMap<>();
        for (Field field : flatFields) {
            childrenByParent.computeIfAbsent(field.getParentId(), _ -> new ArrayList<>()).add(field);
        }
        Map<Integer, LanceField> byId = new HashMap<>();
        List<LanceField> topLevel = childrenByParent.getOrDefault(-1, List.of()).stream()
                .map(field -> build(field, childrenByParent, byId))
                .collect(ImmutableList.toImmutableList());
        if (byId.size() != flatFields.size()) {
            throw new LanceTableException(LanceErrorKind.CORRUPT_MANIFEST, "Schema has fields whose parent does not exist");
        }
        Map<Integer, Integer> topLevelIds = new HashMap<>();
        for (LanceField field : topLevel) {
            ImmutableList.Builder<Integer> ids = ImmutableList.builder();
            field.collectIds(ids);
            ids.build().forEach(id -> topLevelIds.put(id, field.id()));
        }
        return new LanceSchema(topLevel, byId, topLevelIds);
    }

    public Optional<LanceField> field(int id)
    {
        return Optional.ofNullable(fieldsById.get(id));
    }

    /** The dotted name of a field from its top-level column down ({@code address.city}). */
    public Optional<String> fieldPath(int id)
    {
        LanceField field = fieldsById.get(id);
        if (field == null) {
            return Optional.empty();
        }
        if (field.parentId() == -1) {
            return Optional.of(field.name());
        }
        return fieldPath(field.parentId()).map(parent -> parent + "." + field.name());
    }

    public Optional<LanceField> topLevelField(String name)
    {
        return fields.stream().filter(field -> field.name().equals(name)).findFirst();
    }

    private static LanceField build(Field field, Map<Integer, List<Field>> childrenByParent, Map<Integer, LanceField> byId)
    {
        List<LanceField> children = childrenByParent.getOrDefault(field.getId(), List.of()).stream()
                .map(child -> build(child, childrenByParent, byId))
                .collect(ImmutableList.toImmutableList());
        Map<String, String> metadata = new LinkedHashMap<>();
        field.getMetadataMap().forEach((key, value) -> metadata.put(key, value.toString(UTF_8)));
        // Lance engines record the primary key in the field's own protobuf fields too, sometimes only there
        if (field.getUnenforcedPrimaryKey()) {
            metadata.putIfAbsent(LanceFields.UNENFORCED_PRIMARY_KEY, "true");
            if (field.getUnenforcedPrimaryKeyPosition() > 0) {
                metadata.putIfAbsent(LanceFields.UNENFORCED_PRIMARY_KEY_POSITION, String.valueOf(field.getUnenforcedPrimaryKeyPosition()));
            }
        }
        LanceField result = new LanceField(field.getId(), field.getParentId(), field.getName(), field.getLogicalType(), field.getNullable(), metadata, children);
        byId.put(field.getId(), result);
        return result;
    }
}
