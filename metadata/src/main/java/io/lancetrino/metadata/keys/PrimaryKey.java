package io.lancetrino.metadata.keys;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.schema.LanceField;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A table's unenforced primary key, as Lance engines declare it in field metadata: {@code
 * lance-schema:unenforced-primary-key} truthy on each key field, ordered by {@code
 * lance-schema:unenforced-primary-key:position} (1-based) and then by field id.
 *
 * @param fields the key's fields, in key order
 */
public record PrimaryKey(List<LanceField> fields)
{
    public static final String FLAG = "lance-schema:unenforced-primary-key";
    public static final String POSITION = "lance-schema:unenforced-primary-key:position";
    private static final Set<String> TRUE = Set.of("1", "true", "on", "yes", "y");

    public PrimaryKey
    {
        fields = ImmutableList.copyOf(fields);
    }

    /** The key declared on the table's top-level fields, if any. */
    public static Optional<PrimaryKey> of(List<LanceField> topLevelFields)
    {
        List<LanceField> key = topLevelFields.stream()
                .filter(PrimaryKey::isKeyField)
                .sorted(Comparator.comparingLong(PrimaryKey::position).thenComparingInt(LanceField::id))
                .toList();
        return key.isEmpty() ? Optional.empty() : Optional.of(new PrimaryKey(key));
    }

    public static boolean isKeyField(LanceField field)
    {
        String flag = field.metadata().get(FLAG);
        return flag != null && TRUE.contains(flag.toLowerCase(Locale.ROOT));
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
            return Optional.ofNullable(field.metadata().get(POSITION)).map(Long::parseLong).orElse(Long.MAX_VALUE);
        }
        catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
