package io.lancetrino.metadata.keys;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LanceFields;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A table's unenforced primary key, as Lance engines declare it in field metadata: {@code
 * lance-schema:unenforced-primary-key} truthy on each key field, ordered by {@code
 * lance-schema:unenforced-primary-key:position} (1-based) and then by field id.
 *
 * @param fields the key's fields, in key order
 */
public record PrimaryKey(List<LanceField> fields)
{
    public PrimaryKey
    {
        fields = ImmutableList.copyOf(fields);
    }

    /** The key declared on the table's top-level fields, if any. */
    public static Optional<PrimaryKey> of(List<LanceField> topLevelFields)
    {
        List<LanceField> key = topLevelFields.stream()
                .filter(field -> LanceFields.isPrimaryKeyField(field.metadata()))
                .sorted(Comparator.comparingLong(PrimaryKey::position).thenComparingInt(LanceField::id))
                .toList();
        return key.isEmpty() ? Optional.empty() : Optional.of(new PrimaryKey(key));
    }

    public List<Integer> fieldIds()
    {
        return fields.stream().map(LanceField::id).toList();
    }

    public List<String> names()
    {
        return fields.stream().map(LanceField::name).toList();
    }

    private static long position(LanceField field)
    {
        try {
            return Optional.ofNullable(field.metadata().get(LanceFields.UNENFORCED_PRIMARY_KEY_POSITION)).map(Long::parseLong).orElse(Long.MAX_VALUE);
        }
        catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
