package io.lancetrino.metadata.schema;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.Encoding;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.WriteParams;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestLanceFields
{
    private static final ArrowType FLOAT32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    private static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

    @Test
    void testReferenceExample()
    {
        // lance-format.md §17.1: id 0, name 1, ts 2, ts_ntz 3, price 4, emb 5, tags 6 → item 7, point 8 → x 9, y 10, day 11, big 12, flag 13
        List<Field> arrow = referenceSchema();
        List<io.lancetrino.metadata.proto.Field> fields = LanceFields.fromArrow(arrow, 0);

        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getName)
                .containsExactly("id", "name", "ts", "ts_ntz", "price", "emb", "tags", "item", "point", "x", "y", "day", "big", "flag");
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getId)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getParentId)
                .containsExactly(-1, -1, -1, -1, -1, -1, -1, 6, -1, 8, 8, -1, -1, -1);
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getLogicalType)
                .containsExactly("int64", "string", "timestamp:us:UTC", "timestamp:us:-", "decimal:128:10:2", "fixed_size_list:float:4",
                        "list", "string", "struct", "double", "double", "date32:day", "decimal:128:38:10", "bool");
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getEncoding)
                .containsExactly(Encoding.PLAIN, Encoding.VAR_BINARY, Encoding.PLAIN, Encoding.PLAIN, Encoding.PLAIN, Encoding.PLAIN,
                        Encoding.PLAIN, Encoding.VAR_BINARY, Encoding.NONE, Encoding.PLAIN, Encoding.PLAIN, Encoding.PLAIN, Encoding.PLAIN, Encoding.PLAIN);
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getNullable)
                .containsExactly(false, true, true, true, true, true, true, true, true, true, true, true, true, true);
        assertThat(fields.get(1).getMetadataMap()).containsExactly(Map.entry("comment", ByteString.copyFrom("the name", UTF_8)));

        LanceSchema schema = LanceSchema.fromFields(fields);
        assertThat(schema.field(7).orElseThrow().name()).isEqualTo("item");
        assertThat(schema.topLevelIdByFieldId()).containsEntry(10, 8).containsEntry(7, 6);
        assertThat(LanceFields.toArrowSchema(schema.fields())).isEqualTo(new Schema(arrow));
    }

    @Test
    void testFirstId()
    {
        // columns added later continue after the highest existing id
        List<io.lancetrino.metadata.proto.Field> fields = LanceFields.fromArrow(List.of(
                field("tags", ArrowType.List.INSTANCE, field("item", FLOAT64)),
                field("n", new ArrowType.Int(32, true))), 14);
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getId).containsExactly(14, 15, 16);
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getParentId).containsExactly(-1, 14, -1);
    }

    @Test
    void testEveryTypeRoundTrip()
    {
        List<Field> arrow = everyType();
        List<io.lancetrino.metadata.proto.Field> fields = LanceFields.fromArrow(arrow, 0);
        assertThat(fields).extracting(io.lancetrino.metadata.proto.Field::getLogicalType).containsExactly(
                "null", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "halffloat", "float", "double", "string", "large_string", "binary", "large_binary",
                "date32:day", "date64:ms", "time32:s", "time32:ms", "time64:us", "time64:ns",
                "timestamp:s:-", "timestamp:ms:UTC", "timestamp:us:America/New_York", "timestamp:ns:Asia/Kolkata",
                "duration:ms", "decimal:128:38:10", "decimal:256:76:5", "fixed_size_binary:16",
                "fixed_size_list:float:128", "fixed_size_list:fixed_size_list:int32:2:3", "fixed_size_list:lance.bfloat16:8",
                "list", "int64",
                "large_list", "string",
                "list.struct", "struct", "string", "list", "double",
                "large_list.struct", "struct", "bool",
                "struct", "list", "int32", "struct", "date32:day", "fixed_size_list:double:2",
                "list", "list", "string");
        // pre-order: every parent precedes its children and ids are consecutive
        for (int i = 0; i < fields.size(); i++) {
            assertThat(fields.get(i).getId()).isEqualTo(i);
            assertThat(fields.get(i).getParentId()).isLessThan(i);
        }
        LanceSchema schema = LanceSchema.fromFields(fields);
        assertThat(schema.fields()).hasSize(arrow.size());
        assertThat(LanceFields.toArrowSchema(schema.fields())).isEqualTo(new Schema(arrow));
        for (int i = 0; i < arrow.size(); i++) {
            assertThat(LanceFields.toArrow(schema.fields().get(i))).isEqualTo(arrow.get(i));
        }
    }

    @Test
    void testMatchesLance(@TempDir Path dir)
            throws Exception
    {
        // the oracle: the manifest the Lance SDK writes for the same Arrow schema
        List<Field> arrow = new ArrayList<>(referenceSchema());
        // Lance rejects a Null column in a new dataset
        arrow.addAll(everyType().subList(1, everyType().size()));
        arrow.add(new Field("pk", new FieldType(false, new ArrowType.Int(64, true), null, Map.of("lance-schema:unenforced-primary-key", "true")), List.of()));
        String uri = dir.resolve("t.lance").toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            Dataset.create(allocator, uri, new Schema(arrow), new WriteParams.Builder().build()).close();
        }
        LanceTable table = new LanceTable(new LocalTableFileSystem(), uri, "t", ManifestCache.disabled());
        List<io.lancetrino.metadata.proto.Field> written = table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow()).manifest().getFieldsList();
        assertThat(LanceFields.fromArrow(arrow, 0)).isEqualTo(written);
        assertThat(written.getLast().getName()).isEqualTo("pk");
        assertThat(written.getLast().getUnenforcedPrimaryKey()).isTrue();
        assertThat(written).extracting(io.lancetrino.metadata.proto.Field::getLogicalType).contains("list.struct", "large_list.struct", "fixed_size_list:lance.bfloat16:8");
    }

    @Test
    void testUnsupportedArrowTypes()
    {
        assertUnsupported(field("m", new ArrowType.Map(false), field("entries", ArrowType.Struct.INSTANCE,
                notNull("key", ArrowType.Utf8.INSTANCE), field("value", FLOAT64))), "m");
        assertUnsupported(field("u", new ArrowType.Union(UnionMode.Sparse, new int[] {0}), field("a", FLOAT64)), "u");
        assertUnsupported(field("i", new ArrowType.Interval(IntervalUnit.DAY_TIME)), "i");
        assertUnsupported(field("v", ArrowType.Utf8View.INSTANCE), "v");
        assertUnsupported(field("d", new ArrowType.Decimal(9, 2, 32)), "d");
        // Lance 7.0 panics reading timestamp:us:+05:30
        assertUnsupported(field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "+05:30")), "t");
        assertUnsupported(field("s", ArrowType.Struct.INSTANCE, field("inner", new ArrowType.Interval(IntervalUnit.YEAR_MONTH))), "s.inner");
        assertUnsupported(field("l", ArrowType.List.INSTANCE, field("item", ArrowType.List.INSTANCE, field("item", new ArrowType.Duration(TimeUnit.SECOND)), field("extra", FLOAT64))), "l.item");
        assertUnsupported(field("f", new ArrowType.FixedSizeList(2), field("item", ArrowType.Struct.INSTANCE, field("x", FLOAT64))), "f");
        assertUnsupported(field("f", new ArrowType.FixedSizeList(2), field("item", ArrowType.List.INSTANCE, field("item", FLOAT64))), "f");
        assertUnsupported(new Field("dict", new FieldType(true, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(0, false, new ArrowType.Int(32, true))), List.of()), "dict");
    }

    @Test
    void testUnsupportedLogicalTypes()
    {
        assertThatThrownBy(() -> LanceFields.toArrow(new LanceField(0, -1, "d", "dict:string:int32:false", true, Map.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field d ");
        assertThatThrownBy(() -> LanceFields.toArrow(new LanceField(0, -1, "b", "blob", true, Map.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field b ");
        assertThatThrownBy(() -> LanceFields.toArrow(new LanceField(0, -1, "l", "list", true, Map.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field l ");
    }

    private static void assertUnsupported(Field field, String path)
    {
        assertThatThrownBy(() -> LanceFields.fromArrow(List.of(field), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field " + path + " ");
    }

    private static List<Field> referenceSchema()
    {
        return List.of(
                notNull("id", new ArrowType.Int(64, true)),
                new Field("name", new FieldType(true, ArrowType.Utf8.INSTANCE, null, Map.of("comment", "the name")), List.of()),
                field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
                field("ts_ntz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                field("price", new ArrowType.Decimal(10, 2, 128)),
                field("emb", new ArrowType.FixedSizeList(4), field("item", FLOAT32)),
                field("tags", ArrowType.List.INSTANCE, field("item", ArrowType.Utf8.INSTANCE)),
                field("point", ArrowType.Struct.INSTANCE, field("x", FLOAT64), field("y", FLOAT64)),
                field("day", new ArrowType.Date(DateUnit.DAY)),
                field("big", new ArrowType.Decimal(38, 10, 128)),
                field("flag", ArrowType.Bool.INSTANCE));
    }

    private static List<Field> everyType()
    {
        return List.of(
                field("c_null", ArrowType.Null.INSTANCE),
                notNull("c_bool", ArrowType.Bool.INSTANCE),
                field("c_int8", new ArrowType.Int(8, true)),
                field("c_int16", new ArrowType.Int(16, true)),
                field("c_int32", new ArrowType.Int(32, true)),
                field("c_int64", new ArrowType.Int(64, true)),
                field("c_uint8", new ArrowType.Int(8, false)),
                field("c_uint16", new ArrowType.Int(16, false)),
                field("c_uint32", new ArrowType.Int(32, false)),
                field("c_uint64", new ArrowType.Int(64, false)),
                field("c_half", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
                field("c_float", FLOAT32),
                field("c_double", FLOAT64),
                new Field("c_string", new FieldType(true, ArrowType.Utf8.INSTANCE, null, Map.of("comment", "text", "k", "v")), List.of()),
                field("c_large_string", ArrowType.LargeUtf8.INSTANCE),
                field("c_binary", ArrowType.Binary.INSTANCE),
                field("c_large_binary", ArrowType.LargeBinary.INSTANCE),
                field("c_date32", new ArrowType.Date(DateUnit.DAY)),
                field("c_date64", new ArrowType.Date(DateUnit.MILLISECOND)),
                field("c_time_s", new ArrowType.Time(TimeUnit.SECOND, 32)),
                field("c_time_ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
                field("c_time_us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
                field("c_time_ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)),
                field("c_ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
                field("c_ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
                field("c_ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")),
                field("c_ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "Asia/Kolkata")),
                field("c_duration", new ArrowType.Duration(TimeUnit.MILLISECOND)),
                notNull("c_decimal", new ArrowType.Decimal(38, 10, 128)),
                field("c_decimal256", new ArrowType.Decimal(76, 5, 256)),
                field("c_fixed_binary", new ArrowType.FixedSizeBinary(16)),
                field("c_vector", new ArrowType.FixedSizeList(128), field("item", FLOAT32)),
                field("c_matrix", new ArrowType.FixedSizeList(3), field("item", new ArrowType.FixedSizeList(2), field("item", new ArrowType.Int(32, true)))),
                field("c_bf16", new ArrowType.FixedSizeList(8), new Field("item", new FieldType(true, new ArrowType.FixedSizeBinary(2), null,
                        Map.of("ARROW:extension:name", "lance.bfloat16", "ARROW:extension:metadata", "")), List.of())),
                field("c_list", ArrowType.List.INSTANCE, notNull("item", new ArrowType.Int(64, true))),
                field("c_large_list", ArrowType.LargeList.INSTANCE, field("item", ArrowType.Utf8.INSTANCE)),
                field("c_list_struct", ArrowType.List.INSTANCE, field("item", ArrowType.Struct.INSTANCE,
                        notNull("name", ArrowType.Utf8.INSTANCE),
                        field("scores", ArrowType.List.INSTANCE, field("item", FLOAT64)))),
                field("c_large_list_struct", ArrowType.LargeList.INSTANCE, field("item", ArrowType.Struct.INSTANCE, field("ok", ArrowType.Bool.INSTANCE))),
                new Field("c_struct", new FieldType(false, ArrowType.Struct.INSTANCE, null, Map.of("comment", "nested")), List.of(
                        field("numbers", ArrowType.List.INSTANCE, field("item", new ArrowType.Int(32, true))),
                        field("inner", ArrowType.Struct.INSTANCE,
                                new Field("day", new FieldType(true, new ArrowType.Date(DateUnit.DAY), null, Map.of("comment", "deep")), List.of()),
                                field("pair", new ArrowType.FixedSizeList(2), field("item", FLOAT64))))),
                field("c_list_list", ArrowType.List.INSTANCE, field("item", ArrowType.List.INSTANCE, field("item", ArrowType.Utf8.INSTANCE))));
    }

    private static Field field(String name, ArrowType type, Field... children)
    {
        return new Field(name, FieldType.nullable(type), List.of(children));
    }

    private static Field notNull(String name, ArrowType type, Field... children)
    {
        return new Field(name, FieldType.notNullable(type), List.of(children));
    }
}
