package io.lancetrino.split.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.lancetrino.split.arrow.TestArrowBlocks.assertValues;
import static io.lancetrino.split.arrow.TestArrowBlocks.newAllocator;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestArrowBlocksNested
{
    private static final FieldType INT32 = FieldType.nullable(new ArrowType.Int(32, true));
    private static final FieldType FLOAT32 = FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));

    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = newAllocator();
    }

    @AfterEach
    void tearDown()
    {
        allocator.close();
    }

    @Test
    void testList()
    {
        try (ListVector list = ListVector.empty("l", allocator)) {
            IntVector items = (IntVector) list.addOrGetVector(INT32).getVector();
            int offset = list.startNewValue(0);
            items.setSafe(offset, 1);
            items.setSafe(offset + 1, 2);
            list.endValue(0, 2);
            list.setNull(1);
            list.startNewValue(2);
            list.endValue(2, 0);
            offset = list.startNewValue(3);
            items.setSafe(offset, 3);
            items.setNull(offset + 1);
            list.endValue(3, 2);
            list.setValueCount(4);

            assertValues(new ArrayType(INTEGER), list, List.of(1, 2), null, List.of(), Arrays.asList(3, null));
            // element types follow the child vector, not the list
            assertValues(new ArrayType(BIGINT), list, List.of(1L, 2L), null, List.of(), Arrays.asList(3L, null));

            // a first offset past zero: the first list now holds only the second element
            list.getOffsetBuffer().setInt(0, 1);
            assertValues(new ArrayType(INTEGER), list, List.of(2), null, List.of(), Arrays.asList(3, null));
        }
    }

    @Test
    void testLargeList()
    {
        try (LargeListVector list = LargeListVector.empty("l", allocator)) {
            VarCharVector items = (VarCharVector) list.addOrGetVector(FieldType.nullable(ArrowType.Utf8.INSTANCE)).getVector();
            long offset = list.startNewValue(0);
            items.setSafe((int) offset, "a".getBytes(UTF_8));
            items.setSafe((int) offset + 1, "bc".getBytes(UTF_8));
            list.endValue(0, 2);
            list.setNull(1);
            offset = list.startNewValue(2);
            items.setNull((int) offset);
            list.endValue(2, 1);
            list.setValueCount(3);

            assertValues(new ArrayType(VARCHAR), list, List.of("a", "bc"), null, Arrays.asList((Object) null));
        }
    }

    @Test
    void testFixedSizeList()
    {
        try (FixedSizeListVector list = FixedSizeListVector.empty("embedding", 3, allocator)) {
            Float4Vector items = (Float4Vector) list.addOrGetVector(FLOAT32).getVector();
            int offset = list.startNewValue(0);
            items.setSafe(offset, 1.0f);
            items.setSafe(offset + 1, 2.0f);
            items.setSafe(offset + 2, 3.0f);
            list.setNull(1);
            offset = list.startNewValue(2);
            items.setSafe(offset, -4.5f);
            items.setNull(offset + 1);
            items.setSafe(offset + 2, 6.0f);
            list.setValueCount(3);

            assertValues(new ArrayType(REAL), list, List.of(1.0f, 2.0f, 3.0f), null, Arrays.asList(-4.5f, null, 6.0f));
        }
    }

    @Test
    void testFixedSizeListOfBfloat16()
    {
        try (FixedSizeListVector list = FixedSizeListVector.empty("embedding", 2, allocator)) {
            FixedSizeBinaryVector items = (FixedSizeBinaryVector) list.addOrGetVector(FieldType.nullable(new ArrowType.FixedSizeBinary(2))).getVector();
            int offset = list.startNewValue(0);
            items.setSafe(offset, new byte[] {(byte) 0xC0, 0x3F});
            items.setSafe(offset + 1, new byte[] {0x00, 0x40});
            list.setValueCount(1);

            assertValues(new ArrayType(REAL), list, List.of(1.5f, 2.0f));
        }
    }

    @Test
    void testStruct()
    {
        RowType innerType = RowType.from(List.of(RowType.field("flag", BOOLEAN)));
        RowType type = RowType.from(List.of(
                RowType.field("a", INTEGER),
                RowType.field("b", VARCHAR),
                RowType.field("inner", innerType),
                RowType.field("tags", new ArrayType(INTEGER))));
        try (StructVector struct = StructVector.empty("s", allocator)) {
            IntVector a = struct.addOrGet("a", INT32, IntVector.class);
            VarCharVector b = struct.addOrGet("b", FieldType.nullable(ArrowType.Utf8.INSTANCE), VarCharVector.class);
            StructVector inner = struct.addOrGet("inner", FieldType.nullable(ArrowType.Struct.INSTANCE), StructVector.class);
            BitVector flag = inner.addOrGet("flag", FieldType.nullable(ArrowType.Bool.INSTANCE), BitVector.class);
            ListVector tags = struct.addOrGet("tags", FieldType.nullable(ArrowType.List.INSTANCE), ListVector.class);
            IntVector tagItems = (IntVector) tags.addOrGetVector(INT32).getVector();

            struct.setIndexDefined(0);
            a.setSafe(0, 1);
            b.setSafe(0, "x".getBytes(UTF_8));
            inner.setIndexDefined(0);
            flag.setSafe(0, 1);
            tagItems.setSafe(tags.startNewValue(0), 10);
            tags.endValue(0, 1);

            // a null row whose children still hold values: Trino needs them null
            struct.setNull(1);
            a.setSafe(1, 99);
            b.setSafe(1, "hidden".getBytes(UTF_8));
            inner.setIndexDefined(1);
            flag.setSafe(1, 1);
            tagItems.setSafe(tags.startNewValue(1), 11);
            tags.endValue(1, 1);

            struct.setIndexDefined(2);
            a.setNull(2);
            b.setNull(2);
            inner.setNull(2);
            tags.setNull(2);

            struct.setIndexDefined(3);
            a.setSafe(3, 4);
            b.setSafe(3, "y".getBytes(UTF_8));
            inner.setIndexDefined(3);
            flag.setSafe(3, 0);
            tags.startNewValue(3);
            tags.endValue(3, 0);
            struct.setValueCount(4);

            assertValues(type, struct,
                    List.of(1, "x", List.of(true), List.of(10)),
                    null,
                    Arrays.asList(null, null, null, null),
                    List.of(4, "y", List.of(false), List.of()));

            // fields of the null row are null all the way down
            Block block = ArrowBlocks.toBlock(type, struct);
            List<Block> fields = ((RowBlock) block).getFieldBlocks();
            for (Block field : fields) {
                assertThat(field.isNull(1)).isTrue();
            }
            Block innerFlags = ((RowBlock) fields.get(2)).getFieldBlocks().getFirst();
            assertThat(innerFlags.isNull(1)).isTrue();
            assertThat(innerFlags.isNull(0)).isFalse();

            assertThatThrownBy(() -> ArrowBlocks.toBlock(RowType.from(List.of(RowType.field("a", INTEGER))), struct))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("children");
        }
    }

    @Test
    void testListOfStruct()
    {
        RowType pointType = RowType.from(List.of(RowType.field("x", REAL)));
        try (ListVector list = ListVector.empty("points", allocator)) {
            StructVector points = (StructVector) list.addOrGetVector(FieldType.nullable(ArrowType.Struct.INSTANCE)).getVector();
            Float4Vector x = points.addOrGet("x", FLOAT32, Float4Vector.class);
            int offset = list.startNewValue(0);
            points.setIndexDefined(offset);
            x.setSafe(offset, 1.5f);
            points.setIndexDefined(offset + 1);
            x.setNull(offset + 1);
            list.endValue(0, 2);
            list.setNull(1);
            offset = list.startNewValue(2);
            points.setNull(offset);
            x.setSafe(offset, 7.0f);
            list.endValue(2, 1);
            list.setValueCount(3);

            assertValues(new ArrayType(pointType), list,
                    List.of(List.of(1.5f), Arrays.asList((Object) null)),
                    null,
                    Arrays.asList((Object) null));
        }
    }

    @Test
    void testEmptyNested()
    {
        Type rowType = RowType.from(List.of(RowType.field("a", INTEGER)));
        try (ListVector list = ListVector.empty("l", allocator);
                LargeListVector largeList = LargeListVector.empty("l", allocator);
                FixedSizeListVector fixedList = FixedSizeListVector.empty("f", 4, allocator);
                StructVector struct = StructVector.empty("s", allocator)) {
            list.addOrGetVector(INT32);
            largeList.addOrGetVector(INT32);
            fixedList.addOrGetVector(INT32);
            struct.addOrGet("a", INT32, IntVector.class);
            list.setValueCount(0);
            largeList.setValueCount(0);
            fixedList.setValueCount(0);
            struct.setValueCount(0);
            assertValues(new ArrayType(INTEGER), list);
            assertValues(new ArrayType(INTEGER), largeList);
            assertValues(new ArrayType(INTEGER), fixedList);
            assertValues(rowType, struct);
        }
    }
}
