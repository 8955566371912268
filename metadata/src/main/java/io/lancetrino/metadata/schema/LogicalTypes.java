package io.lancetrino.metadata.schema;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.util.List;
import java.util.Optional;

/**
 * Lance logical type strings ({@code int64}, {@code timestamp:us:UTC}, {@code decimal:128:10:2},
 * {@code fixed_size_list:float:128}, {@code dict:string:int32:false}, ...) as Arrow types.
 */
public final class LogicalTypes
{
    private LogicalTypes() {}

    /**
     * The Arrow type of the field itself; for {@code list}, {@code large_list} and {@code struct} the children come from
     * the schema's child fields. Empty for types Lance has but Arrow Java cannot express here.
     */
    public static Optional<ArrowType> toArrowType(String logicalType)
    {
        String type = logicalType.trim();
        ArrowType simple = switch (type) {
            case "null" -> ArrowType.Null.INSTANCE;
            case "bool" -> ArrowType.Bool.INSTANCE;
            case "int8" -> new ArrowType.Int(8, true);
            case "uint8" -> new ArrowType.Int(8, false);
            case "int16" -> new ArrowType.Int(16, true);
            case "uint16" -> new ArrowType.Int(16, false);
            case "int32" -> new ArrowType.Int(32, true);
            case "uint32" -> new ArrowType.Int(32, false);
            case "int64" -> new ArrowType.Int(64, true);
            case "uint64" -> new ArrowType.Int(64, false);
            case "halffloat" -> new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
            case "float" -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case "double" -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case "string" -> ArrowType.Utf8.INSTANCE;
            case "large_string" -> ArrowType.LargeUtf8.INSTANCE;
            case "binary" -> ArrowType.Binary.INSTANCE;
            case "large_binary", "json" -> ArrowType.LargeBinary.INSTANCE;
            case "date32:day" -> new ArrowType.Date(DateUnit.DAY);
            case "date64:ms" -> new ArrowType.Date(DateUnit.MILLISECOND);
            case "time32:s" -> new ArrowType.Time(TimeUnit.SECOND, 32);
            case "time32:ms" -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case "time64:us" -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
            case "time64:ns" -> new ArrowType.Time(TimeUnit.NANOSECOND, 64);
            case "struct" -> ArrowType.Struct.INSTANCE;
            case "list", "list.struct" -> ArrowType.List.INSTANCE;
            case "large_list", "large_list.struct" -> ArrowType.LargeList.INSTANCE;
            default -> null;
        };
        if (simple != null) {
            return Optional.of(simple);
        }
        List<String> parts = List.of(type.split(":"));
        try {
            return switch (parts.getFirst()) {
                case "timestamp" -> Optional.of(new ArrowType.Timestamp(timeUnit(parts.get(1)), parts.size() < 3 || parts.get(2).equals("-") ? null : String.join(":", parts.subList(2, parts.size()))));
                case "duration" -> Optional.of(new ArrowType.Duration(timeUnit(parts.get(1))));
                case "decimal" -> Optional.of(new ArrowType.Decimal(Integer.parseInt(parts.get(2)), Integer.parseInt(parts.get(3)), Integer.parseInt(parts.get(1))));
                case "fixed_size_binary" -> Optional.of(new ArrowType.FixedSizeBinary(Integer.parseInt(parts.get(1))));
                case "fixed_size_list" -> Optional.of(new ArrowType.FixedSizeList(Integer.parseInt(parts.getLast())));
                case "dict" -> toArrowType(parts.get(1));
                default -> Optional.empty();
            };
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The element type string of {@code fixed_size_list:{inner}:{n}} (the inner type may itself contain colons).
     */
    public static String fixedSizeListElement(String logicalType)
    {
        String withoutPrefix = logicalType.substring("fixed_size_list:".length());
        return withoutPrefix.substring(0, withoutPrefix.lastIndexOf(':'));
    }

    public static boolean isDictionary(String logicalType)
    {
        return logicalType.startsWith("dict:");
    }

    public static FieldType fieldType(ArrowType type, boolean nullable)
    {
        return new FieldType(nullable, type, null);
    }

    private static TimeUnit timeUnit(String unit)
    {
        return switch (unit) {
            case "s" -> TimeUnit.SECOND;
            case "ms" -> TimeUnit.MILLISECOND;
            case "us" -> TimeUnit.MICROSECOND;
            case "ns" -> TimeUnit.NANOSECOND;
            default -> throw new IllegalArgumentException("Unknown time unit: " + unit);
        };
    }
}
