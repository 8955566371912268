package io.lancetrino.plugin.write;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.plugin.LanceTableProperties;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Declares a new table's unenforced primary key as Lance engines read it: field metadata on each key column, with its
 * position in the key.
 */
final class PrimaryKeyFields
{
    private PrimaryKeyFields() {}

    static List<Field> declare(SchemaTableName table, List<Field> fields, List<String> key)
    {
        if (key.isEmpty()) {
            return fields;
        }
        List<Field> result = new ArrayList<>(fields);
        Set<String> seen = new HashSet<>();
        for (int position = 0; position < key.size(); position++) {
            String column = key.get(position);
            if (!seen.add(column)) {
                throw invalid(table, "column %s is named twice".formatted(column));
            }
            int index = topLevelIndex(fields, column);
            if (index < 0) {
                throw invalid(table, "column %s is not a column of the table".formatted(column));
            }
            Field field = fields.get(index);
            if (InsertedKeysCollector.keyType(field.getLogicalType()).isEmpty()) {
                throw invalid(table, "column %s is of Lance type %s; a key column is bigint, integer, smallint, tinyint, varchar or varbinary".formatted(column, field.getLogicalType()));
            }
            if (field.getNullable()) {
                throw invalid(table, "column %s must be NOT NULL".formatted(column));
            }
            result.set(index, field.toBuilder()
                    .putMetadata(LanceFields.UNENFORCED_PRIMARY_KEY, ByteString.copyFrom("true", UTF_8))
                    .putMetadata(LanceFields.UNENFORCED_PRIMARY_KEY_POSITION, ByteString.copyFrom(String.valueOf(position + 1), UTF_8))
                    .setUnenforcedPrimaryKey(true)
                    .setUnenforcedPrimaryKeyPosition(position + 1)
                    .build());
        }
        return result;
    }

    private static int topLevelIndex(List<Field> fields, String column)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getParentId() == -1 && fields.get(i).getName().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    private static TrinoException invalid(SchemaTableName table, String what)
    {
        return new TrinoException(INVALID_TABLE_PROPERTY, "Table %s: %s: %s".formatted(table, LanceTableProperties.PRIMARY_KEY, what));
    }
}
