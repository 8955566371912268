package io.lancetrino.file.writer;

import io.trino.spi.block.Block;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Values of rows and arrays, nested in any way, as plain Java objects both readers' results compare by: a row is the
 * list of its fields, an array the list of its elements, integers and dates are longs, strings Strings, decimals
 * BigDecimals, NULL null.
 */
final class NestedValues
{
    private NestedValues() {}

    /** Every value of a column as the SDK reads it, or of the given row ranges. */
    static List<Object> sdkValues(LanceFileReader reader, String column, List<Range> ranges)
            throws Exception
    {
        List<Object> values = new ArrayList<>();
        try (ArrowReader arrow = reader.readAll(List.of(column), ranges, 4096)) {
            while (arrow.loadNextBatch()) {
                FieldVector vector = arrow.getVectorSchemaRoot().getVector(column);
                for (int row = 0; row < vector.getValueCount(); row++) {
                    values.add(sdkValue(vector, row));
                }
            }
        }
        return values;
    }

    static Object sdkValue(FieldVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        return switch (vector) {
            case ListVector list -> {
                List<Object> elements = new ArrayList<>();
                for (int i = list.getElementStartIndex(row); i < list.getElementEndIndex(row); i++) {
                    elements.add(sdkValue(list.getDataVector(), i));
                }
                yield elements;
            }
            case StructVector struct -> {
                List<Object> fields = new ArrayList<>();
                for (FieldVector child : struct.getChildrenFromFields()) {
                    fields.add(sdkValue(child, row));
                }
                yield fields;
            }
            case BigIntVector longs -> longs.get(row);
            case IntVector ints -> (long) ints.get(row);
            case DateDayVector days -> (long) days.get(row);
            case VarCharVector text -> new String(text.get(row), StandardCharsets.UTF_8);
            case DecimalVector decimals -> decimals.getObject(row);
            case Float8Vector doubles -> doubles.get(row);
            case BitVector bits -> bits.get(row) == 1;
            default -> throw new IllegalStateException("Unexpected vector " + vector);
        };
    }

    static List<Object> trinoValues(Block block, Type type)
    {
        List<Object> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            values.add(trinoValue(block, position, type));
        }
        return values;
    }

    static Object trinoValue(Block block, int position, Type type)
    {
        if (block.isNull(position)) {
            return null;
        }
        return switch (type) {
            case ArrayType array -> trinoValues(array.getObject(block, position), array.getElementType());
            case RowType row -> {
                SqlRow sqlRow = row.getObject(block, position);
                List<Object> fields = new ArrayList<>();
                for (int field = 0; field < row.getFields().size(); field++) {
                    fields.add(trinoValue(sqlRow.getUnderlyingFieldBlock(field), sqlRow.getUnderlyingFieldPosition(field), row.getFields().get(field).getType()));
                }
                yield fields;
            }
            case DecimalType decimal when decimal.isShort() -> BigDecimal.valueOf(decimal.getLong(block, position), decimal.getScale());
            case DecimalType decimal -> new BigDecimal(((Int128) decimal.getObject(block, position)).toBigInteger(), decimal.getScale());
            default -> type == VARCHAR ? VARCHAR.getSlice(block, position).toStringUtf8()
                    : type == DOUBLE ? (Object) DOUBLE.getDouble(block, position)
                    : type == BOOLEAN ? (Object) BOOLEAN.getBoolean(block, position)
                    : (Object) type.getLong(block, position);
        };
    }

    /** A list that may hold nulls, as List.of cannot. */
    static List<Object> listOf(Object... values)
    {
        return new ArrayList<>(Arrays.asList(values));
    }
}
