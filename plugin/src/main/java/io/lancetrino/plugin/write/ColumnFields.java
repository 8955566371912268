package io.lancetrino.plugin.write;

import io.lancetrino.split.arrow.ArrowTypes;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.ArrayType;
import org.apache.arrow.vector.types.pojo.Field;

import static io.lancetrino.plugin.LanceColumnProperties.DIMENSION;
import static io.trino.spi.StandardErrorCode.INVALID_COLUMN_PROPERTY;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The Arrow field a column of CREATE TABLE or ADD COLUMN becomes: a fixed-size list when it has a {@code dimension},
 * else what {@link ArrowTypes#toArrowField} maps its type to.
 */
final class ColumnFields
{
    private ColumnFields() {}

    static Field arrowField(SchemaTableName table, ColumnMetadata column, boolean nullable)
    {
        Object dimension = column.getProperties().get(DIMENSION);
        if (dimension == null) {
            return ArrowTypes.toArrowField(column.getName(), column.getType(), nullable)
                    .orElseThrow(() -> new TrinoException(NOT_SUPPORTED, "Table %s: column %s has type %s, which Lance tables cannot store".formatted(table, column.getName(), column.getType().getDisplayName())));
        }
        int size = (Integer) dimension;
        if (size < 1) {
            throw new TrinoException(INVALID_COLUMN_PROPERTY, "Table %s: %s of column %s must be positive, not %s".formatted(table, DIMENSION, column.getName(), size));
        }
        if (!(column.getType() instanceof ArrayType arrayType) || !ArrowTypes.isVectorElement(arrayType.getElementType())) {
            throw new TrinoException(INVALID_COLUMN_PROPERTY, "Table %s: %s applies to an array of real or double (or of an integer type), not to column %s of type %s"
                    .formatted(table, DIMENSION, column.getName(), column.getType().getDisplayName()));
        }
        return ArrowTypes.toVectorField(column.getName(), arrayType, size, nullable);
    }
}
