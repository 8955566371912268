package io.lancetrino.split;

import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

class TestNestedPhysicalColumns
{
    private static final Field STRUCT = new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
            Field.nullable("x", new ArrowType.Int(64, true)),
            new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE)))));
    private static final Type STRUCT_TYPE = RowType.from(List.of(RowType.field("x", BIGINT), RowType.field("l", new ArrayType(VARCHAR))));
    // st = 1, x = 2, l = 3, item = 4
    private static final LanceColumnHandle STRUCT_HANDLE = new LanceColumnHandle("st", 1, List.of(1, 2, 3, 4), STRUCT_TYPE, true);

    @Test
    void mapsLeavesToPhysicalColumns()
    {
        // another column first: the struct's leaves are the file's columns 1 and 2
        LanceDataFile file = new LanceDataFile("f.lance", List.of(0, 1, 2, 3, 4), List.of(0, -1, 1, -1, 2), 2, 1);
        assertThat(NestedPhysicalColumns.physicalColumns(file, STRUCT_HANDLE, STRUCT)).contains(List.of(1, 2));

        Field list = new Field("l", FieldType.nullable(ArrowType.LargeList.INSTANCE), List.of(Field.nullable("item", new ArrowType.Int(32, true))));
        LanceColumnHandle listHandle = new LanceColumnHandle("l", 7, List.of(7, 8), new ArrayType(INTEGER), true);
        assertThat(NestedPhysicalColumns.physicalColumns(new LanceDataFile("f.lance", List.of(7, 8), List.of(-1, 0), 2, 2), listHandle, list)).contains(List.of(0));
    }

    @Test
    void leavesTheRestToTheSdk()
    {
        LanceDataFile file = new LanceDataFile("f.lance", List.of(1, 2, 3, 4), List.of(-1, 0, -1, 1), 2, 1);
        // a leaf the file does not store (added later)
        assertThat(NestedPhysicalColumns.physicalColumns(new LanceDataFile("f.lance", List.of(1, 2), List.of(-1, 0), 2, 1), STRUCT_HANDLE, STRUCT)).isEmpty();
        // 2.0 files give parents columns of their own
        assertThat(NestedPhysicalColumns.physicalColumns(new LanceDataFile("f.lance", List.of(1, 2, 3, 4), List.of(0, 1, 2, 3), 2, 0), STRUCT_HANDLE, STRUCT)).isEmpty();
        // a leaf stored as another type than the column's
        LanceColumnHandle converted = new LanceColumnHandle("st", 1, List.of(1, 2, 3, 4), RowType.from(List.of(RowType.field("x", INTEGER), RowType.field("l", new ArrayType(VARCHAR)))), true);
        assertThat(NestedPhysicalColumns.physicalColumns(file, converted, STRUCT)).isEmpty();
        // fixed-size lists (vectors) have no rep levels
        Field vector = new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(4)), List.of(Field.nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
        LanceColumnHandle vectorHandle = new LanceColumnHandle("v", 5, List.of(5, 6), new ArrayType(REAL), true);
        assertThat(NestedPhysicalColumns.physicalColumns(new LanceDataFile("f.lance", List.of(5, 6), List.of(0, -1), 2, 1), vectorHandle, vector)).isEmpty();
        // packed structs are one column
        LanceDataFile packed = new LanceDataFile("f.lance", List.of(1, 2, 3, 4), List.of(-1, 0, -1, 1), 2, 1, java.util.Set.of(1), java.util.Set.of());
        assertThat(NestedPhysicalColumns.physicalColumns(packed, STRUCT_HANDLE, STRUCT)).isEmpty();
        // flat columns are the flat reader's
        assertThat(NestedPhysicalColumns.physicalColumns(file, new LanceColumnHandle("x", 2, List.of(2), BIGINT, true), Field.nullable("x", new ArrowType.Int(64, true)))).isEqualTo(Optional.empty());
    }
}
