package io.lancetrino.file;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.RowType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.JsonStringHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Packed structs and fixed-size binary, written by the SDK: the fixed packed struct (2.1, 2.2) and fixed-size binary
 * are compared with the SDK's reader, the 2.2 variable packed struct (which the SDK 7.0 file reader cannot project) with
 * the values written.
 */
class TestPackedStructReader
{
    private static final int ROWS = 5000;
    private static final RowType FIXED = RowType.anonymous(List.of(INTEGER, DOUBLE, SMALLINT));
    private static final RowType VARIABLE = RowType.anonymous(List.of(INTEGER, VARCHAR));

    @TempDir
    Path directory;
    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown()
    {
        allocator.close();
    }

    @Test
    void readsPackedStructsAndFixedSizeBinaryVersion21()
            throws Exception
    {
        readsLikeTheSdk("2.1");
    }

    @Test
    void readsPackedStructsAndFixedSizeBinaryVersion22()
            throws Exception
    {
        readsLikeTheSdk("2.2");
    }

    private void readsLikeTheSdk(String version)
            throws Exception
    {
        boolean variable = version.equals("2.2");
        Path path = write(version, variable);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        // fsb, same, ps (and pv): a packed struct is one column
        assertThat(metadata.columns()).hasSize(variable ? 4 : 3);
        assertThat(metadata.columns().get(2).pages().getFirst().layout().getMiniBlockLayout().getValueCompression().hasPackedStruct()).isTrue();

        List<Object> fsb = SdkFiles.readColumn(path, allocator, "fsb").stream().map(value -> value == null ? null : (Object) HexFormat.of().formatHex((byte[]) value)).toList();
        List<Object> same = SdkFiles.readColumn(path, allocator, "same").stream().map(value -> value == null ? null : (Object) HexFormat.of().formatHex((byte[]) value)).toList();
        List<Object> packed = SdkFiles.readColumn(path, allocator, "ps").stream().map(TestPackedStructReader::sdkRow).toList();
        List<Object> variableRows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            variableRows.add(Arrays.asList((long) row * 3, "s-" + row + "é".repeat(row % 4)));
        }
        try (TrinoInput input = file.newInput()) {
            for (int[] range : new int[][] {{0, ROWS}, {1, 10}, {1000, 3100}, {4095, 2}, {ROWS - 5, 5}}) {
                int from = range[0];
                int to = range[0] + range[1];
                Block fixedSize = LanceColumnReader.read(input, metadata.columns().get(0), VARBINARY, from, range[1]);
                assertThat(bytes(fixedSize)).isEqualTo(fsb.subList(from, to));
                for (int position = 0; position < fixedSize.getPositionCount(); position++) {
                    // a null holds no bytes, as Trino's block serde requires
                    if (fixedSize.isNull(position)) {
                        assertThat(((VariableWidthBlock) fixedSize.getUnderlyingValueBlock()).getSliceLength(fixedSize.getUnderlyingValuePosition(position))).isZero();
                    }
                }
                assertThat(rows(PackedStructReader.read(input, metadata.columns().get(2), FIXED, from, range[1]), FIXED)).isEqualTo(packed.subList(from, to));
                // one value throughout: an inline constant in 2.2
                assertThat(bytes(LanceColumnReader.read(input, metadata.columns().get(1), VARBINARY, from, range[1]))).isEqualTo(same.subList(from, to));
                if (variable) {
                    assertThat(metadata.columns().get(3).pages().getFirst().layout().getFullZipLayout().getValueCompression().hasVariablePackedStruct()).isTrue();
                    assertThat(rows(PackedStructReader.read(input, metadata.columns().get(3), VARIABLE, from, range[1]), VARIABLE)).isEqualTo(variableRows.subList(from, to));
                }
            }
        }
        assertThat(fsb.get(3)).isNull();
        if (variable) {
            assertThat(metadata.columns().get(1).pages().getFirst().layout().hasConstantLayout()).isTrue();
        }
    }

    private Path write(String version, boolean variable)
            throws Exception
    {
        List<Field> fields = new ArrayList<>(List.of(
                new Field("fsb", FieldType.nullable(new ArrowType.FixedSizeBinary(5)), null),
                // before the packed struct, which the SDK's file reader miscounts
                new Field("same", FieldType.notNullable(new ArrowType.FixedSizeBinary(3)), null),
                new Field("ps", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")), List.of(
                        new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null),
                        new Field("b", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
                        new Field("c", FieldType.nullable(new ArrowType.Int(16, true)), null)))));
        if (variable) {
            fields.add(new Field("pv", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")), List.of(
                    new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null),
                    new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))));
        }
        Path path = directory.resolve("packed-" + version + ".lance");
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator)) {
            SdkFiles.write(path, version, allocator, root, List.of(batch -> {
                for (FieldVector vector : batch.getFieldVectors()) {
                    vector.setInitialCapacity(ROWS);
                    vector.allocateNew();
                }
                for (int row = 0; row < ROWS; row++) {
                    FixedSizeBinaryVector fsb = (FixedSizeBinaryVector) batch.getVector("fsb");
                    if (row % 7 == 3) {
                        fsb.setNull(row);
                    }
                    else {
                        fsb.set(row, new byte[] {1, (byte) row, 3, (byte) (row >> 8), (byte) -row});
                    }
                    // the SDK writes no NULL packed struct nor NULL fields in one
                    StructVector ps = (StructVector) batch.getVector("ps");
                    ps.setIndexDefined(row);
                    ((IntVector) ps.getChild("a")).set(row, row * 10 - 7);
                    ((Float8Vector) ps.getChild("b")).set(row, row + 0.5);
                    ((SmallIntVector) ps.getChild("c")).set(row, (short) -row);
                    ((FixedSizeBinaryVector) batch.getVector("same")).set(row, new byte[] {9, 8, 7});
                    if (variable) {
                        StructVector pv = (StructVector) batch.getVector("pv");
                        pv.setIndexDefined(row);
                        ((IntVector) pv.getChild("a")).set(row, row * 3);
                        ((VarCharVector) pv.getChild("s")).setSafe(row, ("s-" + row + "é".repeat(row % 4)).getBytes(StandardCharsets.UTF_8));
                    }
                }
                for (FieldVector vector : batch.getFieldVectors()) {
                    vector.setValueCount(ROWS);
                }
                batch.setRowCount(ROWS);
            }));
        }
        return path;
    }

    private static Object sdkRow(Object value)
    {
        JsonStringHashMap<?, ?> struct = (JsonStringHashMap<?, ?>) value;
        return Arrays.asList(((Integer) struct.get("a")).longValue(), struct.get("b"), ((Short) struct.get("c")).longValue());
    }

    private static List<Object> bytes(Block block)
    {
        List<Object> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            values.add(block.isNull(position) ? null : HexFormat.of().formatHex(VARBINARY.getSlice(block, position).getBytes()));
        }
        return values;
    }

    private static List<Object> rows(Block block, RowType type)
    {
        List<Block> fields = RowBlock.getRowFieldsFromBlock(block);
        List<Object> rows = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            assertThat(block.isNull(position)).isFalse();
            List<Object> row = new ArrayList<>();
            for (int field = 0; field < fields.size(); field++) {
                var fieldType = type.getTypeParameters().get(field);
                Block fieldBlock = fields.get(field);
                if (fieldType == INTEGER) {
                    row.add((long) INTEGER.getInt(fieldBlock, position));
                }
                else if (fieldType == SMALLINT) {
                    row.add((long) SMALLINT.getShort(fieldBlock, position));
                }
                else if (fieldType == DOUBLE) {
                    row.add(DOUBLE.getDouble(fieldBlock, position));
                }
                else {
                    row.add(VARCHAR.getSlice(fieldBlock, position).toStringUtf8());
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static TrinoInputFile inputFile(Path path)
    {
        return new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
    }
}
