package io.lancetrino.metadata.schema;

import java.util.stream.Collectors;

/**
 * What makes two schemas the same schema version: field names, types, nullability and nesting, in order. Field ids,
 * comments and other metadata do not count.
 */
public final class SchemaIdentity
{
    private SchemaIdentity() {}

    public static String of(LanceSchema schema)
    {
        return schema.fields().stream().map(SchemaIdentity::describe).collect(Collectors.joining(", "));
    }

    private static String describe(LanceField field)
    {
        StringBuilder text = new StringBuilder(field.name()).append(' ').append(field.logicalType());
        if (!field.children().isEmpty()) {
            text.append('<').append(field.children().stream().map(SchemaIdentity::describe).collect(Collectors.joining(", "))).append('>');
        }
        if (!field.nullable()) {
            text.append(" not null");
        }
        return text.toString();
    }
}
