package io.lancetrino.split.arrow;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LogicalTypes;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.StandardTypes;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import io.trino.spi.type.VarcharType;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DecimalType.createDecimalType;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.createTimeType;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.createTimestampWithTimeZoneType;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Trino types for Lance fields (logical type strings, lance-format.md §17.2).
 */
public final class TrinoTypes
{
    static final String BFLOAT16 = "lance.bfloat16";
    /** Field metadata that keeps the bound of a {@code VARCHAR(n)} column created through Trino */
    public static final String VARCHAR_LENGTH = "trino.varchar-length";
    private static final String EXTENSION_NAME = "ARROW:extension:name";
    private static final int MAX_DECIMAL_PRECISION = 38;
    private static final String JSON_LOGICAL_TYPE = "json";

    private TrinoTypes() {}

    /**
     * The Trino type of a field, or empty when the field or anything nested in it has no Trino equivalent. Lance
     * {@code json} fields map to Trino's {@code json}, which only the engine's type manager has.
     */
    public static Optional<Type> toTrinoType(LanceField field, TypeManager typeManager)
    {
        return toTrinoType(field, Optional.of(typeManager.fromSqlType(StandardTypes.JSON)));
    }

    /**
     * As {@link #toTrinoType(LanceField, TypeManager)} where no type manager is at hand: {@code json} fields (also
     * nested ones) have no type here.
     */
    public static Optional<Type> toTrinoType(LanceField field)
    {
        return toTrinoType(field, Optional.empty());
    }

    /**
     * Whether the field has a Trino type where the engine's type manager is at hand (as {@code json} fields and
     * fields nesting them do).
     */
    public static boolean hasTrinoType(LanceField field)
    {
        // any stand-in for json answers whether a type exists
        return toTrinoType(field, Optional.of(VARBINARY)).isPresent();
    }

    public static boolean isJson(Type type)
    {
        return type.getBaseName().equals(StandardTypes.JSON);
    }

    private static Optional<Type> toTrinoType(LanceField field, Optional<Type> jsonType)
    {
        String logicalType = field.logicalType().trim();
        return switch (logicalType) {
            case "list", "large_list", "list.struct", "large_list.struct" -> {
                if (field.children().size() != 1) {
                    yield Optional.empty();
                }
                yield toTrinoType(field.children().getFirst(), jsonType).map(ArrayType::new);
            }
            case "struct" -> rowType(field.children(), jsonType);
            // JSONB (extension lance.json); the reader returns the binary form, which ArrowBlocks turns into JSON text
            case JSON_LOGICAL_TYPE -> jsonType;
            default -> {
                if (BFLOAT16.equals(field.metadata().get(EXTENSION_NAME))) {
                    yield Optional.of(REAL);
                }
                String length = field.metadata().get(VARCHAR_LENGTH);
                if (length != null && (logicalType.equals("string") || logicalType.equals("large_string"))) {
                    yield Optional.of(VarcharType.createVarcharType(Integer.parseInt(length)));
                }
                yield primitiveType(logicalType);
            }
        };
    }

    private static Optional<Type> rowType(List<LanceField> children, Optional<Type> jsonType)
    {
        if (children.isEmpty()) {
            // Trino has no empty ROW
            return Optional.empty();
        }
        ImmutableList.Builder<RowType.Field> fields = ImmutableList.builder();
        for (LanceField child : children) {
            Optional<Type> type = toTrinoType(child, jsonType);
            if (type.isEmpty()) {
                return Optional.empty();
            }
            fields.add(RowType.field(child.name(), type.get()));
        }
        return Optional.of(RowType.from(fields.build()));
    }

    /**
     * Types fully described by their logical type string (everything but list and struct).
     */
    private static Optional<Type> primitiveType(String logicalType)
    {
        Type simple = switch (logicalType) {
            case "bool" -> BOOLEAN;
            case "int8" -> TINYINT;
            case "int16" -> SMALLINT;
            case "int32" -> INTEGER;
            case "int64" -> BIGINT;
            // unsigned types widen so that every value fits
            case "uint8" -> SMALLINT;
            case "uint16" -> INTEGER;
            case "uint32" -> BIGINT;
            case "uint64" -> createDecimalType(20, 0);
            case "halffloat", "float", BFLOAT16 -> REAL;
            case "double" -> DOUBLE;
            case "string", "large_string" -> VARCHAR;
            case "binary", "large_binary" -> VARBINARY;
            case "date32:day", "date64:ms" -> DATE;
            case "time32:s" -> createTimeType(0);
            case "time32:ms" -> createTimeType(3);
            case "time64:us" -> createTimeType(6);
            case "time64:ns" -> createTimeType(9);
            default -> null;
        };
        if (simple != null) {
            return Optional.of(simple);
        }
        try {
            if (logicalType.startsWith("timestamp:")) {
                return timestampType(logicalType);
            }
            if (logicalType.startsWith("decimal:")) {
                return decimalType(logicalType);
            }
            if (logicalType.startsWith("fixed_size_binary:")) {
                return Integer.parseInt(logicalType.substring("fixed_size_binary:".length())) >= 0 ? Optional.of(VARBINARY) : Optional.empty();
            }
            if (logicalType.startsWith("fixed_size_list:")) {
                // the element is a single field without a child entry in the schema
                return primitiveType(LogicalTypes.fixedSizeListElement(logicalType)).map(ArrayType::new);
            }
            if (logicalType.startsWith("dict:")) {
                // dict:{value}:{key}:{ordered}; ArrowBlocks decodes the keys the reader returns, and the value may contain colons
                String withoutPrefix = logicalType.substring("dict:".length());
                int ordered = withoutPrefix.lastIndexOf(':');
                int key = withoutPrefix.lastIndexOf(':', ordered - 1);
                return key <= 0 ? Optional.empty() : primitiveType(withoutPrefix.substring(0, key));
            }
        }
        catch (RuntimeException e) {
            // malformed parameters
            return Optional.empty();
        }
        return Optional.empty();
    }

    // timestamp:{unit}:{zone or -}; the zone itself may contain colons (+05:30)
    private static Optional<Type> timestampType(String logicalType)
    {
        String[] parts = logicalType.split(":", 3);
        int precision = switch (parts[1]) {
            case "s" -> 0;
            case "ms" -> 3;
            case "us" -> 6;
            case "ns" -> 9;
            default -> -1;
        };
        if (precision < 0) {
            return Optional.empty();
        }
        boolean withZone = parts.length == 3 && !parts[2].isEmpty() && !parts[2].equals("-");
        return Optional.of(withZone ? createTimestampWithTimeZoneType(precision) : createTimestampType(precision));
    }

    // decimal:{128|256}:{precision}:{scale}
    private static Optional<Type> decimalType(String logicalType)
    {
        String[] parts = logicalType.split(":");
        if (parts.length != 4 || !(parts[1].equals("128") || parts[1].equals("256"))) {
            return Optional.empty();
        }
        int precision = Integer.parseInt(parts[2]);
        int scale = Integer.parseInt(parts[3]);
        if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
            return Optional.empty();
        }
        return Optional.of(createDecimalType(precision, scale));
    }
}
