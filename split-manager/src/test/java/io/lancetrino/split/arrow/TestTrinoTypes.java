package io.lancetrino.split.arrow;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.schema.LanceField;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
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
import static org.assertj.core.api.Assertions.assertThat;

final class TestTrinoTypes
{
    @Test
    void testPrimitives()
    {
        assertMapped("bool", BOOLEAN);
        assertMapped("int8", TINYINT);
        assertMapped("int16", SMALLINT);
        assertMapped("int32", INTEGER);
        assertMapped("int64", BIGINT);
        assertMapped("uint8", SMALLINT);
        assertMapped("uint16", INTEGER);
        assertMapped("uint32", BIGINT);
        assertMapped("uint64", createDecimalType(20, 0));
        assertMapped("halffloat", REAL);
        assertMapped("float", REAL);
        assertMapped("double", DOUBLE);
        assertMapped("string", VARCHAR);
        assertMapped("large_string", VARCHAR);
        assertMapped("binary", VARBINARY);
        assertMapped("large_binary", VARBINARY);
        assertMapped("fixed_size_binary:16", VARBINARY);
        assertMapped("date32:day", DATE);
        assertMapped("date64:ms", DATE);
        assertMapped("time32:s", createTimeType(0));
        assertMapped("time32:ms", createTimeType(3));
        assertMapped("time64:us", createTimeType(6));
        assertMapped("time64:ns", createTimeType(9));
    }

    @Test
    void testTimestamps()
    {
        assertMapped("timestamp:s:-", createTimestampType(0));
        assertMapped("timestamp:ms:-", createTimestampType(3));
        assertMapped("timestamp:us:-", createTimestampType(6));
        assertMapped("timestamp:ns:-", createTimestampType(9));
        assertMapped("timestamp:s:UTC", createTimestampWithTimeZoneType(0));
        assertMapped("timestamp:ms:UTC", createTimestampWithTimeZoneType(3));
        assertMapped("timestamp:us:America/New_York", createTimestampWithTimeZoneType(6));
        assertMapped("timestamp:ns:+05:30", createTimestampWithTimeZoneType(9));
        assertUnsupported("timestamp:ps:-");
        assertUnsupported("timestamp");
        // Lance stores json as JSONB, not JSON text: hidden rather than shown as unreadable bytes
        assertUnsupported("json");
    }

    @Test
    void testDecimals()
    {
        assertMapped("decimal:128:10:2", createDecimalType(10, 2));
        assertMapped("decimal:128:38:0", createDecimalType(38, 0));
        assertMapped("decimal:128:18:18", createDecimalType(18, 18));
        assertMapped("decimal:256:38:10", createDecimalType(38, 10));
        assertUnsupported("decimal:256:39:0");
        assertUnsupported("decimal:256:76:10");
        assertUnsupported("decimal:128:10:-2");
        assertUnsupported("decimal:128:5:6");
        assertUnsupported("decimal:64:10:2");
        assertUnsupported("decimal:128:x:2");
    }

    @Test
    void testFixedSizeListsAndDictionaries()
    {
        assertMapped("fixed_size_list:float:128", new ArrayType(REAL));
        assertMapped("fixed_size_list:double:3", new ArrayType(DOUBLE));
        assertMapped("fixed_size_list:lance.bfloat16:8", new ArrayType(REAL));
        assertMapped("fixed_size_list:timestamp:us:UTC:2", new ArrayType(createTimestampWithTimeZoneType(6)));
        assertUnsupported("fixed_size_list:duration:s:2");
        assertMapped("dict:string:int32:false", VARCHAR);
        assertMapped("dict:large_string:int8:false", VARCHAR);
        assertMapped("dict:timestamp:us:-:int32:false", createTimestampType(6));
        assertUnsupported("dict:null:int32:false");
        assertUnsupported("dict:");
    }

    @Test
    void testUnsupported()
    {
        assertUnsupported("null");
        assertUnsupported("duration:us");
        assertUnsupported("map");
        assertUnsupported("interval");
        assertUnsupported("fixed_size_binary:x");
        assertUnsupported("something_new");
    }

    @Test
    void testBfloat16Extension()
    {
        LanceField field = new LanceField(0, -1, "x", "fixed_size_binary:2", true, Map.of("ARROW:extension:name", "lance.bfloat16"), List.of());
        assertThat(TrinoTypes.toTrinoType(field)).contains(REAL);
    }

    @Test
    void testLists()
    {
        assertThat(TrinoTypes.toTrinoType(field(0, "tags", "list", field(1, "item", "string")))).contains(new ArrayType(VARCHAR));
        assertThat(TrinoTypes.toTrinoType(field(0, "tags", "large_list", field(1, "item", "int64")))).contains(new ArrayType(BIGINT));
        assertThat(TrinoTypes.toTrinoType(field(0, "tags", "list", field(1, "item", "list", field(2, "item", "uint8"))))).contains(new ArrayType(new ArrayType(SMALLINT)));
        assertThat(TrinoTypes.toTrinoType(field(0, "points", "list.struct", field(1, "item", "struct", field(2, "x", "float"), field(3, "y", "float")))))
                .contains(new ArrayType(RowType.from(List.of(RowType.field("x", REAL), RowType.field("y", REAL)))));
        assertThat(TrinoTypes.toTrinoType(field(0, "points", "large_list.struct", field(1, "item", "struct", field(2, "x", "int32")))))
                .contains(new ArrayType(RowType.from(List.of(RowType.field("x", INTEGER)))));
        assertThat(TrinoTypes.toTrinoType(field(0, "tags", "list", field(1, "item", "duration:s")))).isEmpty();
        assertThat(TrinoTypes.toTrinoType(field(0, "tags", "list"))).isEmpty();
    }

    @Test
    void testStructs()
    {
        LanceField point = field(0, "point", "struct",
                field(1, "x", "double"),
                field(2, "label", "string"),
                field(3, "inner", "struct", field(4, "flag", "bool")));
        assertThat(TrinoTypes.toTrinoType(point)).contains(RowType.from(List.of(
                RowType.field("x", DOUBLE),
                RowType.field("label", VARCHAR),
                RowType.field("inner", RowType.from(List.of(RowType.field("flag", BOOLEAN)))))));
        assertThat(TrinoTypes.toTrinoType(field(0, "s", "struct", field(1, "a", "int32"), field(2, "b", "null")))).isEmpty();
        assertThat(TrinoTypes.toTrinoType(field(0, "s", "struct"))).isEmpty();
    }

    private static void assertMapped(String logicalType, Type expected)
    {
        assertThat(TrinoTypes.toTrinoType(field(0, "c", logicalType))).as(logicalType).isEqualTo(Optional.of(expected));
    }

    private static void assertUnsupported(String logicalType)
    {
        assertThat(TrinoTypes.toTrinoType(field(0, "c", logicalType))).as(logicalType).isEmpty();
    }

    private static LanceField field(int id, String name, String logicalType, LanceField... children)
    {
        return new LanceField(id, -1, name, logicalType, true, ImmutableMap.of(), List.of(children));
    }
}
