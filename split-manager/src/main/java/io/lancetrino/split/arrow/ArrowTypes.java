package io.lancetrino.split.arrow;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.schema.LanceFields;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;

/**
 * The Arrow field a Trino column is stored as when the connector creates it (the inverse of {@link TrinoTypes}).
 * <table>
 * <caption>Trino to Arrow (Lance logical type), and what reading returns</caption>
 * <tr><th>Trino</th><th>Arrow</th><th>read back as</th></tr>
 * <tr><td>BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT</td><td>Bool, Int8/16/32/64</td><td>same</td></tr>
 * <tr><td>REAL, DOUBLE</td><td>Float32, Float64</td><td>same</td></tr>
 * <tr><td>DECIMAL(p, s)</td><td>Decimal128(p, s)</td><td>same</td></tr>
 * <tr><td>VARCHAR, VARCHAR(n)</td><td>Utf8 (n in field metadata)</td><td>same</td></tr>
 * <tr><td>VARBINARY</td><td>Binary</td><td>same</td></tr>
 * <tr><td>DATE</td><td>Date32(day)</td><td>same</td></tr>
 * <tr><td>TIME(p)</td><td>Time32(s) p = 0, Time32(ms) p 1..3, Time64(us) p 4..6, Time64(ns) p 7..9</td>
 * <td>TIME(0), TIME(3), TIME(6) or TIME(9): TIME(2) comes back as TIME(3), TIME(5) as TIME(6), ...</td></tr>
 * <tr><td>TIMESTAMP(p)</td><td>Timestamp(unit, no zone), units as for TIME</td><td>TIMESTAMP(0/3/6/9) likewise</td></tr>
 * <tr><td>TIMESTAMP(p) WITH TIME ZONE</td><td>Timestamp(unit, "UTC"), units as for TIME</td>
 * <td>TIMESTAMP(0/3/6/9) WITH TIME ZONE; the instant is kept, the zone comes back as UTC</td></tr>
 * <tr><td>ARRAY(T)</td><td>List with a nullable child "item"</td><td>same</td></tr>
 * <tr><td>ROW(name T, ...)</td><td>Struct with nullable children of those names</td><td>same</td></tr>
 * <tr><td>JSON</td><td>LargeBinary with extension {@code lance.json} (Lance logical type {@code json}), values as
 * Lance's JSONB</td><td>same, as the text {@code json_parse} gives</td></tr>
 * </table>
 * Not storable: TIME/TIMESTAMP precisions above 9 (Arrow has no picoseconds), rows with anonymous fields, and every
 * other type (MAP, CHAR, UUID, IPADDRESS, INTERVAL, TIME WITH TIME ZONE, ...).
 */
public final class ArrowTypes
{
    /**
     * The list item name Lance (and arrow-rs) use.
     */
    public static final String LIST_ITEM = "item";
    public static final String UTC = "UTC";

    private static final int MAX_ARROW_PRECISION = 9;

    private ArrowTypes() {}

    /**
     * The Arrow field for a Trino column, or empty when the type has no lossless Arrow representation here.
     */
    public static Optional<Field> toArrowField(String name, Type type, boolean nullable)
    {
        return switch (type) {
            case ArrayType arrayType -> toArrowField(LIST_ITEM, arrayType.getElementType(), true)
                    .map(item -> new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null), List.of(item)));
            case RowType rowType -> structField(name, rowType, nullable);
            // the bound is kept in field metadata so inserts keep checking it
            // Lance JSONB, as the SDK stores a column it was given as arrow.json text
            case Type json when TrinoTypes.isJson(json) -> Optional.of(new Field(name,
                    new FieldType(nullable, ArrowType.LargeBinary.INSTANCE, null, java.util.Map.of(LanceFields.EXTENSION_NAME, LanceFields.JSON)), List.of()));
            case VarcharType varchar when !varchar.isUnbounded() -> Optional.of(new Field(name,
                    new FieldType(nullable, ArrowType.Utf8.INSTANCE, null, java.util.Map.of(TrinoTypes.VARCHAR_LENGTH, String.valueOf(varchar.getBoundedLength()))), List.of()));
            default -> primitiveType(type).map(arrowType -> new Field(name, new FieldType(nullable, arrowType, null), List.of()));
        };
    }

    /**
     * A Lance vector: a fixed-size list of {@code dimension} elements of the array's element type, which must be a
     * {@linkplain #isVectorElement vector element}.
     */
    public static Field toVectorField(String name, ArrayType type, int dimension, boolean nullable)
    {
        checkArgument(isVectorElement(type.getElementType()), "not a vector element type: %s", type.getElementType());
        Field item = toArrowField(LIST_ITEM, type.getElementType(), true).orElseThrow();
        return new Field(name, new FieldType(nullable, new ArrowType.FixedSizeList(dimension), null), List.of(item));
    }

    /**
     * The element types of a vector column: the numbers Lance's vector indexes and fixed-size lists hold.
     */
    public static boolean isVectorElement(Type type)
    {
        return type.equals(REAL) || type.equals(DOUBLE) || type.equals(TINYINT) || type.equals(SMALLINT) || type.equals(INTEGER) || type.equals(BIGINT);
    }

    private static Optional<Field> structField(String name, RowType rowType, boolean nullable)
    {
        ImmutableList.Builder<Field> children = ImmutableList.builder();
        for (RowType.Field field : rowType.getFields()) {
            if (field.getName().isEmpty()) {
                // Arrow struct children need names
                return Optional.empty();
            }
            Optional<Field> child = toArrowField(field.getName().get(), field.getType(), true);
            if (child.isEmpty()) {
                return Optional.empty();
            }
            children.add(child.get());
        }
        return Optional.of(new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children.build()));
    }

    private static Optional<ArrowType> primitiveType(Type type)
    {
        if (type.equals(BOOLEAN)) {
            return Optional.of(ArrowType.Bool.INSTANCE);
        }
        if (type.equals(TINYINT)) {
            return Optional.of(new ArrowType.Int(8, true));
        }
        if (type.equals(SMALLINT)) {
            return Optional.of(new ArrowType.Int(16, true));
        }
        if (type.equals(INTEGER)) {
            return Optional.of(new ArrowType.Int(32, true));
        }
        if (type.equals(BIGINT)) {
            return Optional.of(new ArrowType.Int(64, true));
        }
        if (type.equals(REAL)) {
            return Optional.of(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
        }
        if (type.equals(DOUBLE)) {
            return Optional.of(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
        }
        if (type.equals(VARBINARY)) {
            return Optional.of(ArrowType.Binary.INSTANCE);
        }
        if (type.equals(DATE)) {
            return Optional.of(new ArrowType.Date(DateUnit.DAY));
        }
        return switch (type) {
            case DecimalType decimalType -> Optional.of(new ArrowType.Decimal(decimalType.getPrecision(), decimalType.getScale(), 128));
            case VarcharType _ -> Optional.of(ArrowType.Utf8.INSTANCE);
            case TimeType timeType -> timeUnit(timeType.getPrecision())
                    .map(unit -> new ArrowType.Time(unit, unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64));
            case TimestampType timestampType -> timeUnit(timestampType.getPrecision()).map(unit -> new ArrowType.Timestamp(unit, null));
            case TimestampWithTimeZoneType zonedType -> timeUnit(zonedType.getPrecision()).map(unit -> new ArrowType.Timestamp(unit, UTC));
            default -> Optional.empty();
        };
    }

    /**
     * The coarsest Arrow unit that holds {@code precision} fractional digits.
     */
    public static Optional<TimeUnit> timeUnit(int precision)
    {
        if (precision < 0 || precision > MAX_ARROW_PRECISION) {
            return Optional.empty();
        }
        if (precision == 0) {
            return Optional.of(TimeUnit.SECOND);
        }
        if (precision <= 3) {
            return Optional.of(TimeUnit.MILLISECOND);
        }
        return Optional.of(precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND);
    }

    /**
     * Fractional digits of an Arrow time unit.
     */
    public static int digits(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> 0;
            case MILLISECOND -> 3;
            case MICROSECOND -> 6;
            case NANOSECOND -> 9;
        };
    }
}
