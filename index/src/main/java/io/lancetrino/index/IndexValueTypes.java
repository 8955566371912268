package io.lancetrino.index;

import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

/**
 * Which Trino column types an index answers for, and which Lance logical types of the index's value column hold
 * values of that Trino type as they are (the file reader decodes them into the type's blocks without conversion,
 * and Lance orders them as Trino does). Unsigned integers, other time units and dictionaries are left to scans.
 */
final class IndexValueTypes
{
    private IndexValueTypes() {}

    static boolean supported(Type type)
    {
        return type == BigintType.BIGINT || type == IntegerType.INTEGER || type == SmallintType.SMALLINT || type == TinyintType.TINYINT
                || type == DoubleType.DOUBLE || type == RealType.REAL || type == BooleanType.BOOLEAN || type == DateType.DATE
                || type instanceof VarcharType || type == VarbinaryType.VARBINARY || type.equals(TimestampType.TIMESTAMP_MICROS)
                || type instanceof DecimalType;
    }

    /** Whether a column of Lance logical type {@code logicalType} stores values of {@code type} as they are. */
    static boolean storedAs(String logicalType, Type type)
    {
        return switch (logicalType) {
            case "int64" -> type == BigintType.BIGINT;
            case "int32" -> type == IntegerType.INTEGER;
            case "int16" -> type == SmallintType.SMALLINT;
            case "int8" -> type == TinyintType.TINYINT;
            case "double" -> type == DoubleType.DOUBLE;
            case "float" -> type == RealType.REAL;
            case "bool" -> type == BooleanType.BOOLEAN;
            case "date32:day" -> type == DateType.DATE;
            case "string", "large_string" -> type instanceof VarcharType;
            case "binary", "large_binary" -> type == VarbinaryType.VARBINARY;
            // without a time zone: Trino's timestamp(6) counts microseconds too
            case "timestamp:us", "timestamp:us:-" -> type.equals(TimestampType.TIMESTAMP_MICROS);
            default -> logicalType.startsWith("decimal:128:") && type instanceof DecimalType decimal
                    && logicalType.equals("decimal:128:%s:%s".formatted(decimal.getPrecision(), decimal.getScale()));
        };
    }
}
