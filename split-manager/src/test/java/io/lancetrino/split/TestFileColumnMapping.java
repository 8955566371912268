package io.lancetrino.split;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

final class TestFileColumnMapping
{
    // file schema as written: id, old_name, tags: list<item>, point: struct<x, y>, emb: fixed_size_list<float, 2>
    private static final Schema FILE_SCHEMA = new Schema(List.of(
            field("id", new ArrowType.Int(64, true)),
            field("old_name", ArrowType.Utf8.INSTANCE),
            new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE), List.of(field("item", ArrowType.Utf8.INSTANCE))),
            new Field("point", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(field("x", new ArrowType.Int(32, true)), field("y", new ArrowType.Int(32, true)))),
            new Field("emb", FieldType.nullable(new ArrowType.FixedSizeList(2)), List.of(field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));

    @Test
    void testFormat21ListsLeavesOnly()
    {
        // table ids: id 0, name 1, tags 2 -> item 3, point 4 -> x 5, y 6, emb 7
        LanceDataFile file = new LanceDataFile("f", List.of(0, 1, 3, 5, 6, 7), List.of(0, 1, 2, 3, 4, 5), 2, 1);
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(1))).contains("old_name");
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(2, 3))).contains("tags");
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(4, 5, 6))).contains("point");
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(7))).contains("emb");
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(8))).isEmpty();
    }

    @Test
    void testFormat20GivesParentsColumns()
    {
        LanceDataFile file = new LanceDataFile("f", List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(0, 1, 2, 3, 4, 5, 6, 7), 2, 0);
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(4, 5, 6))).contains("point");
        assertThat(FileColumnMapping.fileColumnName(FILE_SCHEMA, file, List.of(7))).contains("emb");
    }

    @Test
    void testColumnIndicesDecideTheOrder()
    {
        // the file stores id in column 1 and old_name in column 0 of its own order
        Schema swapped = new Schema(List.of(field("b", ArrowType.Utf8.INSTANCE), field("a", new ArrowType.Int(64, true))));
        LanceDataFile file = new LanceDataFile("f", List.of(0, 1), List.of(1, 0), 2, 1);
        assertThat(FileColumnMapping.fileColumnName(swapped, file, List.of(0))).contains("a");
        assertThat(FileColumnMapping.fileColumnName(swapped, file, List.of(1))).contains("b");
    }

    @Test
    void testTombstonedFieldsAreSkipped()
    {
        Schema schema = new Schema(List.of(field("dropped", ArrowType.Utf8.INSTANCE), field("kept", ArrowType.Utf8.INSTANCE)));
        LanceDataFile file = new LanceDataFile("f", List.of(-2, 4), List.of(0, 1), 2, 1);
        assertThat(FileColumnMapping.fileColumnName(schema, file, List.of(4))).contains("kept");
    }

    // file schema as written: id, ps: packed struct<a, b>, name, pt: struct<x>; table ids: id 0, ps 1 -> a 2, b 3,
    // name 4, pt 5 -> x 6
    private static final Schema PACKED_SCHEMA = new Schema(List.of(
            field("id", new ArrowType.Int(64, true)),
            new Field("ps", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(field("a", new ArrowType.Int(32, true)), field("b", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))),
            field("name", ArrowType.Utf8.INSTANCE),
            new Field("pt", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(field("x", new ArrowType.Int(32, true))))));

    @Test
    void testPackedStructIsOneColumnInFormat21()
    {
        // what the SDK writes: the packed struct lists its own id, its children none
        LanceDataFile file = new LanceDataFile("f", List.of(0, 1, 4, 6), List.of(0, 1, 2, 3), 2, 1, Set.of(1), Set.of());
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(0))).contains(new FileColumnMapping.FileColumn("id", true));
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(1, 2, 3))).contains(new FileColumnMapping.FileColumn("ps", true));
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(4))).contains(new FileColumnMapping.FileColumn("name", false));
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(5, 6))).contains(new FileColumnMapping.FileColumn("pt", false));
    }

    @Test
    void testPackedStructIsOneColumnInFormat20()
    {
        // 2.0: every field has a column except the packed struct's children
        LanceDataFile file = new LanceDataFile("f", List.of(0, 1, 4, 5, 6), List.of(0, 1, 2, 3, 4), 2, 0, Set.of(1), Set.of());
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(1, 2, 3))).contains(new FileColumnMapping.FileColumn("ps", true));
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(4))).contains(new FileColumnMapping.FileColumn("name", false));
        assertThat(FileColumnMapping.fileColumn(PACKED_SCHEMA, file, List.of(5, 6))).contains(new FileColumnMapping.FileColumn("pt", false));
    }

    private static Field field(String name, ArrowType type)
    {
        return new Field(name, FieldType.nullable(type), null);
    }
}
