package io.lancetrino.file;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.block.Block;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/** Reads list and struct columns the Lance SDK writes and compares every row with what the SDK reads back. */
class TestNestedColumnReader
{
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

    private static Field list(String name, boolean nullable, Field item)
    {
        return new Field(name, nullable ? FieldType.nullable(ArrowType.List.INSTANCE) : FieldType.notNullable(ArrowType.List.INSTANCE), List.of(item));
    }

    private static Field primitive(String name, boolean nullable, ArrowType type)
    {
        return new Field(name, nullable ? FieldType.nullable(type) : FieldType.notNullable(type), null);
    }

    @Test
    void readsListsOfPrimitives()
            throws Exception
    {
        // nullable lists of nullable bigints: null lists, empty lists and null items; several batches make several pages
        Schema schema = new Schema(List.of(list("l", true, primitive("item", true, new ArrowType.Int(64, true)))));
        Type type = new ArrayType(BIGINT);
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("list-bigint-" + version + ".lance");
            write(path, version, schema, 3, 4000, (root, firstRow, rows) -> {
                ListVector list = (ListVector) root.getVector("l");
                BigIntVector items = (BigIntVector) list.getDataVector();
                int item = 0;
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 7 == 3) {
                        list.setNull(i);
                        continue;
                    }
                    int start = list.startNewValue(i);
                    int length = row % 5;
                    for (int j = 0; j < length; j++) {
                        if ((row + j) % 9 == 0) {
                            items.setNull(start + j);
                        }
                        else {
                            items.setSafe(start + j, row * 10L + j);
                        }
                    }
                    list.endValue(i, length);
                    item = start + length;
                }
                items.setValueCount(item);
            });
            assertReadsLikeSdk(path, "l", type, 1);
        }
    }

    @Test
    void readsRowsSpanningChunks()
            throws Exception
    {
        // long lists continue across mini-block chunks: the repetition index must find the chunks of any row range
        Schema schema = new Schema(List.of(list("l", true, primitive("item", false, new ArrowType.Int(64, true)))));
        Type type = new ArrayType(BIGINT);
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("list-long-" + version + ".lance");
            write(path, version, schema, 1, 3000, (root, firstRow, rows) -> {
                ListVector list = (ListVector) root.getVector("l");
                BigIntVector items = (BigIntVector) list.getDataVector();
                int item = 0;
                for (int row = 0; row < rows; row++) {
                    int start = list.startNewValue(row);
                    int length = row % 50 == 7 ? 700 + row : row % 3;
                    for (int j = 0; j < length; j++) {
                        items.setSafe(start + j, (row * 7919L + j * 31L) % 100000 - 50000);
                    }
                    list.endValue(row, length);
                    item = start + length;
                }
                items.setValueCount(item);
            });
            assertReadsLikeSdk(path, "l", type, 1);
            TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThat(metadata.columns().getFirst().pages().getFirst().layout().getMiniBlockLayout().getRepetitionIndexDepth()).isEqualTo(1);
            List<Object> expected = SdkFiles.readColumn(path, allocator, "l").stream().map(TestNestedColumnReader::canonical).toList();
            try (TrinoInput input = file.newInput()) {
                for (int start = 0; start < 3000; start += 23) {
                    int count = Math.min(23, 3000 - start);
                    assertThat(values(read(input, metadata, type, start, count), type)).as("%s rows [%s, +%s)", version, start, count)
                            .isEqualTo(expected.subList(start, start + count));
                }
            }
        }
    }

    @Test
    void readsListsOfStrings()
            throws Exception
    {
        Schema schema = new Schema(List.of(list("l", true, primitive("item", true, ArrowType.Utf8.INSTANCE))));
        Type type = new ArrayType(VARCHAR);
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("list-varchar-" + version + ".lance");
            write(path, version, schema, 2, 5000, (root, firstRow, rows) -> {
                ListVector list = (ListVector) root.getVector("l");
                VarCharVector items = (VarCharVector) list.getDataVector();
                int item = 0;
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 11 == 5) {
                        list.setNull(i);
                        continue;
                    }
                    int start = list.startNewValue(i);
                    int length = row % 4;
                    for (int j = 0; j < length; j++) {
                        if ((row + j) % 13 == 0) {
                            items.setNull(start + j);
                        }
                        else {
                            items.setSafe(start + j, ("s" + row * 7 % 1000 + "-" + j).getBytes(StandardCharsets.UTF_8));
                        }
                    }
                    list.endValue(i, length);
                    item = start + length;
                }
                items.setValueCount(item);
            });
            assertReadsLikeSdk(path, "l", type, 1);
        }
    }

    @Test
    void readsFullZipListsOfLongStrings()
            throws Exception
    {
        // values of 256 bytes and more go to FullZip pages: records with rep/def control words and a row index
        Schema schema = new Schema(List.of(list("l", true, primitive("item", true, ArrowType.Utf8.INSTANCE))));
        Type type = new ArrayType(VARCHAR);
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("list-long-strings-" + version + ".lance");
            write(path, version, schema, 2, 2000, (root, firstRow, rows) -> {
                ListVector list = (ListVector) root.getVector("l");
                VarCharVector items = (VarCharVector) list.getDataVector();
                int item = 0;
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 7 == 2) {
                        list.setNull(i);
                        continue;
                    }
                    int start = list.startNewValue(i);
                    int length = row % 4;
                    for (int j = 0; j < length; j++) {
                        if ((row + j) % 5 == 0) {
                            items.setNull(start + j);
                        }
                        else {
                            items.setSafe(start + j, ("r" + row + "-" + j + "-" + Integer.toHexString(row * 31 + j).repeat(40 + row % 30)).getBytes(StandardCharsets.UTF_8));
                        }
                    }
                    list.endValue(i, length);
                    item = start + length;
                }
                items.setValueCount(item);
            });
            TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
            assertThat(LanceFileMetadata.read(file).columns().getFirst().pages().getFirst().layout().hasFullZipLayout()).isTrue();
            assertReadsLikeSdk(path, "l", type, 1);
        }
    }

    @Test
    void readsFullZipStructFields()
            throws Exception
    {
        // a long string field of a struct: FullZip without rep levels, whose def levels tell the struct's nulls
        Schema schema = new Schema(List.of(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                primitive("id", false, new ArrowType.Int(32, true)),
                primitive("doc", true, ArrowType.Utf8.INSTANCE)))));
        Type type = RowType.from(List.of(RowType.field("id", INTEGER), RowType.field("doc", VARCHAR)));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("struct-long-" + version + ".lance");
            write(path, version, schema, 2, 2000, (root, firstRow, rows) -> {
                StructVector struct = (StructVector) root.getVector("st");
                IntVector ids = (IntVector) struct.getChild("id");
                VarCharVector docs = (VarCharVector) struct.getChild("doc");
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    ids.setSafe(i, row);
                    if (row % 9 == 0) {
                        struct.setNull(i);
                        docs.setNull(i);
                        continue;
                    }
                    struct.setIndexDefined(i);
                    if (row % 4 == 0) {
                        docs.setNull(i);
                    }
                    else {
                        docs.setSafe(i, ("doc" + row + "z".repeat(260 + row % 50)).getBytes(StandardCharsets.UTF_8));
                    }
                }
                ids.setValueCount(rows);
                docs.setValueCount(rows);
            });
            TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
            assertThat(LanceFileMetadata.read(file).columns().get(1).pages().getFirst().layout().hasFullZipLayout()).isTrue();
            assertReadsLikeSdk(path, "st", type, 2);
        }
    }

    @Test
    void readsConstantAndAllNullPages()
            throws Exception
    {
        // a struct field that is constant where the struct is valid (2.2 writes a constant page with def levels) and
        // a list column whose lists are all null or empty (an all-null page with rep/def levels)
        Schema schema = new Schema(List.of(
                new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(primitive("c", true, new ArrowType.Int(64, true)), primitive("v", true, new ArrowType.Int(64, true)))),
                list("l", true, primitive("item", true, new ArrowType.Int(32, true)))));
        Type structType = RowType.from(List.of(RowType.field("c", BIGINT), RowType.field("v", BIGINT)));
        Type listType = new ArrayType(INTEGER);
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("constant-" + version + ".lance");
            write(path, version, schema, 1, 3000, (root, firstRow, rows) -> {
                StructVector struct = (StructVector) root.getVector("st");
                BigIntVector cs = (BigIntVector) struct.getChild("c");
                BigIntVector vs = (BigIntVector) struct.getChild("v");
                ListVector list = (ListVector) root.getVector("l");
                for (int i = 0; i < rows; i++) {
                    if (i % 5 == 1) {
                        struct.setNull(i);
                        cs.setNull(i);
                        vs.setNull(i);
                    }
                    else {
                        struct.setIndexDefined(i);
                        cs.setSafe(i, 42);
                        vs.setSafe(i, i * 3L);
                    }
                    if (i % 3 == 0) {
                        list.setNull(i);
                    }
                    else {
                        list.startNewValue(i);
                        list.endValue(i, 0);
                    }
                }
                cs.setValueCount(rows);
                vs.setValueCount(rows);
                list.getDataVector().setValueCount(0);
            });
            TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThat(metadata.columns().get(2).pages().getFirst().layout().hasConstantLayout()).isTrue();
            if (version.equals("2.2")) {
                assertThat(metadata.columns().get(0).pages().getFirst().layout().hasConstantLayout()).isTrue();
            }
            List<Object> structs = SdkFiles.readColumn(path, allocator, "st").stream().map(TestNestedColumnReader::canonical).toList();
            List<Object> lists = SdkFiles.readColumn(path, allocator, "l").stream().map(TestNestedColumnReader::canonical).toList();
            try (TrinoInput input = file.newInput()) {
                assertThat(values(NestedColumnReader.read(input, metadata.columns().subList(0, 2), structType, 0, 3000), structType)).as(version).isEqualTo(structs);
                assertThat(values(NestedColumnReader.read(input, metadata.columns().subList(0, 2), structType, 1234, 100), structType)).isEqualTo(structs.subList(1234, 1334));
                assertThat(values(NestedColumnReader.read(input, metadata.columns().subList(2, 3), listType, 0, 3000), listType)).as(version).isEqualTo(lists);
                assertThat(values(NestedColumnReader.read(input, metadata.columns().subList(2, 3), listType, 77, 500), listType)).isEqualTo(lists.subList(77, 577));
            }
        }
    }

    @Test
    void readsAcrossPages()
            throws Exception
    {
        // about 50 MB of strings in lists: more than the writer puts in one page (32 MiB), so it flushes several
        Schema schema = new Schema(List.of(list("l", true, primitive("item", true, ArrowType.Utf8.INSTANCE))));
        Type type = new ArrayType(VARCHAR);
        Path path = directory.resolve("list-pages.lance");
        int batchRows = 100_000;
        write(path, "2.1", schema, 3, batchRows, (root, firstRow, rows) -> {
            ListVector list = (ListVector) root.getVector("l");
            VarCharVector items = (VarCharVector) list.getDataVector();
            java.util.Random random = new java.util.Random(firstRow);
            byte[] bytes = new byte[60];
            int item = 0;
            for (int i = 0; i < rows; i++) {
                int row = firstRow + i;
                if (row % 10 == 3) {
                    list.setNull(i);
                    continue;
                }
                int start = list.startNewValue(i);
                int length = row % 4;
                for (int j = 0; j < length; j++) {
                    random.nextBytes(bytes);
                    items.setSafe(start + j, java.util.Base64.getEncoder().encode(bytes));
                }
                list.endValue(i, length);
                item = start + length;
            }
            items.setValueCount(item);
        });
        TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        LanceColumn column = metadata.columns().getFirst();
        assertThat(column.pages().size()).isGreaterThan(1);
        List<Object> expected = SdkFiles.readColumn(path, allocator, "l").stream().map(TestNestedColumnReader::canonical).toList();
        int boundary = (int) column.pages().getFirst().rows();
        try (TrinoInput input = file.newInput()) {
            assertThat(values(read(input, metadata, type, boundary - 5, 11), type)).isEqualTo(expected.subList(boundary - 5, boundary + 6));
            assertThat(values(read(input, metadata, type, 0, expected.size()), type)).isEqualTo(expected);
        }
    }

    @Test
    void readsListsOfLists()
            throws Exception
    {
        Schema schema = new Schema(List.of(list("l", true, list("inner", true, primitive("item", false, new ArrowType.Int(32, true))))));
        Type type = new ArrayType(new ArrayType(INTEGER));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("list-list-" + version + ".lance");
            write(path, version, schema, 2, 3000, (root, firstRow, rows) -> {
                ListVector outer = (ListVector) root.getVector("l");
                ListVector inner = (ListVector) outer.getDataVector();
                IntVector items = (IntVector) inner.getDataVector();
                int innerCount = 0;
                int itemCount = 0;
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 10 == 1) {
                        outer.setNull(i);
                        continue;
                    }
                    int innerStart = outer.startNewValue(i);
                    int lists = row % 3;
                    for (int j = 0; j < lists; j++) {
                        int index = innerStart + j;
                        if ((row + j) % 8 == 0) {
                            inner.setNull(index);
                            continue;
                        }
                        int start = inner.startNewValue(index);
                        int length = (row + j) % 4;
                        for (int k = 0; k < length; k++) {
                            items.setSafe(start + k, row * 100 + j * 10 + k);
                        }
                        inner.endValue(index, length);
                        itemCount = start + length;
                    }
                    outer.endValue(i, lists);
                    innerCount = innerStart + lists;
                }
                items.setValueCount(itemCount);
                inner.setValueCount(innerCount);
            });
            assertReadsLikeSdk(path, "l", type, 1);
        }
    }

    @Test
    void readsConstantStringsInStructs()
            throws Exception
    {
        // a struct field of one string throughout: a constant page whose value is in its first buffer
        Schema schema = new Schema(List.of(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                primitive("x", true, ArrowType.Utf8.INSTANCE),
                primitive("n", true, new ArrowType.Int(64, true))))));
        Type type = RowType.from(List.of(RowType.field("x", VARCHAR), RowType.field("n", BIGINT)));
        Path path = directory.resolve("struct-constant.lance");
        write(path, "2.2", schema, 2, 3000, (root, firstRow, rows) -> {
            StructVector struct = (StructVector) root.getVector("st");
            VarCharVector xs = (VarCharVector) struct.getChild("x");
            BigIntVector ns = (BigIntVector) struct.getChild("n");
            for (int i = 0; i < rows; i++) {
                struct.setIndexDefined(i);
                xs.setSafe(i, "nested".getBytes(StandardCharsets.UTF_8));
                ns.setSafe(i, 7);
            }
            xs.setValueCount(rows);
            ns.setValueCount(rows);
        });
        TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
        assertThat(LanceFileMetadata.read(file).columns().getFirst().pages()).allMatch(page -> page.layout().hasConstantLayout() && page.bufferSizes().size() == 1);
        assertReadsLikeSdk(path, "st", type, 2);
    }

    @Test
    void readsStructs()
            throws Exception
    {
        // a null struct and a null field are told apart by the def levels of each leaf
        Schema schema = new Schema(List.of(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                primitive("x", true, new ArrowType.Int(64, true)),
                primitive("s", true, ArrowType.Utf8.INSTANCE)))));
        Type type = RowType.from(List.of(RowType.field("x", BIGINT), RowType.field("s", VARCHAR)));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("struct-" + version + ".lance");
            write(path, version, schema, 3, 3000, (root, firstRow, rows) -> {
                StructVector struct = (StructVector) root.getVector("st");
                BigIntVector xs = (BigIntVector) struct.getChild("x");
                VarCharVector ss = (VarCharVector) struct.getChild("s");
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 6 == 0) {
                        struct.setNull(i);
                        xs.setNull(i);
                        ss.setNull(i);
                        continue;
                    }
                    struct.setIndexDefined(i);
                    if (row % 4 == 0) {
                        xs.setNull(i);
                    }
                    else {
                        xs.setSafe(i, row * 3L);
                    }
                    if (row % 5 == 0) {
                        ss.setNull(i);
                    }
                    else {
                        ss.setSafe(i, ("v" + row % 9).getBytes(StandardCharsets.UTF_8));
                    }
                }
                xs.setValueCount(rows);
                ss.setValueCount(rows);
            });
            assertReadsLikeSdk(path, "st", type, 2);
        }
    }

    @Test
    void readsStructsWithoutNulls()
            throws Exception
    {
        // no nulls at any layer: 2.2 then writes chunks with no rep or def levels at all (as for Trino's ROW columns)
        Schema schema = new Schema(List.of(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                primitive("x", true, new ArrowType.Int(64, true)),
                primitive("s", true, ArrowType.Utf8.INSTANCE)))));
        Type type = RowType.from(List.of(RowType.field("x", BIGINT), RowType.field("s", VARCHAR)));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("struct-no-nulls-" + version + ".lance");
            write(path, version, schema, 2, 3000, (root, firstRow, rows) -> {
                StructVector struct = (StructVector) root.getVector("st");
                BigIntVector xs = (BigIntVector) struct.getChild("x");
                VarCharVector ss = (VarCharVector) struct.getChild("s");
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    struct.setIndexDefined(i);
                    xs.setSafe(i, row * 7L - 1000);
                    ss.setSafe(i, ("w" + row % 13).getBytes(StandardCharsets.UTF_8));
                }
                xs.setValueCount(rows);
                ss.setValueCount(rows);
            });
            assertReadsLikeSdk(path, "st", type, 2);
        }
    }

    @Test
    void readsStructsOfLists()
            throws Exception
    {
        // the struct's nulls are the outer item layer of both leaves, the list's the layer inside it
        Schema schema = new Schema(List.of(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                primitive("k", true, new ArrowType.Int(32, true)),
                list("vals", true, primitive("item", true, new ArrowType.Int(64, true)))))));
        Type type = RowType.from(List.of(RowType.field("k", INTEGER), RowType.field("vals", new ArrayType(BIGINT))));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("struct-list-" + version + ".lance");
            write(path, version, schema, 2, 3000, (root, firstRow, rows) -> {
                StructVector struct = (StructVector) root.getVector("st");
                IntVector ks = (IntVector) struct.getChild("k");
                ListVector vals = (ListVector) struct.getChild("vals");
                BigIntVector items = (BigIntVector) vals.getDataVector();
                int item = 0;
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 8 == 0) {
                        struct.setNull(i);
                        ks.setNull(i);
                        vals.setNull(i);
                        continue;
                    }
                    struct.setIndexDefined(i);
                    if (row % 3 == 0) {
                        ks.setNull(i);
                    }
                    else {
                        ks.setSafe(i, row);
                    }
                    if (row % 5 == 0) {
                        vals.setNull(i);
                        continue;
                    }
                    int start = vals.startNewValue(i);
                    int length = row % 3;
                    for (int j = 0; j < length; j++) {
                        items.setSafe(start + j, row * 10L + j);
                    }
                    vals.endValue(i, length);
                    item = start + length;
                }
                items.setValueCount(item);
                ks.setValueCount(rows);
                vals.setValueCount(rows);
            });
            assertReadsLikeSdk(path, "st", type, 2);
        }
    }

    @Test
    void readsListsOfStructs()
            throws Exception
    {
        // the list's offsets and nulls come from the first leaf; the struct's nulls sit between the list and the leaves
        Schema schema = new Schema(List.of(list("l", true, new Field("item", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                primitive("px", true, new ArrowType.Int(32, true)),
                primitive("label", true, ArrowType.Utf8.INSTANCE))))));
        Type type = new ArrayType(RowType.from(List.of(RowType.field("px", INTEGER), RowType.field("label", VARCHAR))));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("list-struct-" + version + ".lance");
            write(path, version, schema, 2, 3000, (root, firstRow, rows) -> {
                ListVector list = (ListVector) root.getVector("l");
                StructVector struct = (StructVector) list.getDataVector();
                IntVector xs = (IntVector) struct.getChild("px");
                VarCharVector labels = (VarCharVector) struct.getChild("label");
                int item = 0;
                for (int i = 0; i < rows; i++) {
                    int row = firstRow + i;
                    if (row % 9 == 2) {
                        list.setNull(i);
                        continue;
                    }
                    int start = list.startNewValue(i);
                    int length = row % 4;
                    for (int j = 0; j < length; j++) {
                        int index = start + j;
                        if ((row + j) % 7 == 0) {
                            struct.setNull(index);
                            xs.setNull(index);
                            labels.setNull(index);
                            continue;
                        }
                        struct.setIndexDefined(index);
                        xs.setSafe(index, row + j);
                        if ((row + j) % 5 == 0) {
                            labels.setNull(index);
                        }
                        else {
                            labels.setSafe(index, ("p" + j).getBytes(StandardCharsets.UTF_8));
                        }
                    }
                    list.endValue(i, length);
                    item = start + length;
                }
                xs.setValueCount(item);
                labels.setValueCount(item);
                struct.setValueCount(item);
            });
            assertReadsLikeSdk(path, "l", type, 2);
        }
    }

    private interface BatchFiller
    {
        void fill(VectorSchemaRoot root, int firstRow, int rows);
    }

    private void write(Path path, String version, Schema schema, int batches, int batchRows, BatchFiller filler)
            throws Exception
    {
        List<Consumer<VectorSchemaRoot>> fillers = new ArrayList<>();
        for (int batch = 0; batch < batches; batch++) {
            int firstRow = batch * batchRows;
            fillers.add(root -> {
                filler.fill(root, firstRow, batchRows);
                root.getFieldVectors().forEach(vector -> vector.setValueCount(batchRows));
                root.setRowCount(batchRows);
            });
        }
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            SdkFiles.write(path, version, allocator, root, fillers);
        }
    }

    private void assertReadsLikeSdk(Path path, String column, Type type, int leafCount)
            throws Exception
    {
        TrinoInputFile file = new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.columns()).hasSize(leafCount);
        List<Object> expected = SdkFiles.readColumn(path, allocator, column).stream().map(TestNestedColumnReader::canonical).toList();
        int rows = expected.size();
        try (TrinoInput input = file.newInput()) {
            assertThat(values(read(input, metadata, type, 0, rows), type)).as("%s all rows", path.getFileName()).isEqualTo(expected);
            // sub-ranges: inside one page, across pages, single rows
            for (int[] range : List.of(new int[] {1, 17}, new int[] {rows / 2 - 100, 250}, new int[] {rows - 1, 1}, new int[] {Math.min(3999, rows - 3), 3})) {
                assertThat(values(read(input, metadata, type, range[0], range[1]), type))
                        .as("%s rows [%s, +%s)", path.getFileName(), range[0], range[1])
                        .isEqualTo(expected.subList(range[0], range[0] + range[1]));
            }
        }
    }

    private static Block read(TrinoInput input, LanceFileMetadata metadata, Type type, long rowStart, int rowCount)
            throws Exception
    {
        return NestedColumnReader.read(input, metadata.columns(), type, rowStart, rowCount);
    }

    /** Arrow's Java objects in the form {@link #values} gives: lists, maps without null fields, longs, strings. */
    private static Object canonical(Object value)
    {
        return switch (value) {
            case null -> null;
            case List<?> list -> list.stream().map(TestNestedColumnReader::canonical).toList();
            case Map<?, ?> map -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                map.forEach((key, field) -> {
                    if (field != null) {
                        fields.put(key.toString(), canonical(field));
                    }
                });
                yield fields;
            }
            case Integer i -> (long) i;
            case Text text -> text.toString();
            default -> value;
        };
    }

    private static List<Object> values(Block block, Type type)
    {
        List<Object> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            values.add(value(block, position, type));
        }
        return values;
    }

    private static Object value(Block block, int position, Type type)
    {
        if (block.isNull(position)) {
            return null;
        }
        return switch (type) {
            case ArrayType array -> values(array.getObject(block, position), array.getElementType());
            case RowType row -> {
                var sqlRow = row.getObject(block, position);
                Map<String, Object> fields = new LinkedHashMap<>();
                for (int field = 0; field < row.getFields().size(); field++) {
                    Object fieldValue = value(sqlRow.getUnderlyingFieldBlock(field), sqlRow.getUnderlyingFieldPosition(field), row.getFields().get(field).getType());
                    if (fieldValue != null) {
                        fields.put(row.getFields().get(field).getName().orElseThrow(), fieldValue);
                    }
                }
                yield fields;
            }
            default -> {
                if (type == BIGINT) {
                    yield BIGINT.getLong(block, position);
                }
                if (type == INTEGER) {
                    yield (long) INTEGER.getInt(block, position);
                }
                if (type == VARCHAR) {
                    yield VARCHAR.getSlice(block, position).toStringUtf8();
                }
                throw new AssertionError(type);
            }
        };
    }
}
