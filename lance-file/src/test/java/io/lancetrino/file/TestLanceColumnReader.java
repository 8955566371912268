package io.lancetrino.file;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.block.Block;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Decimals;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.Math.toIntExact;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reads files the Lance SDK writes and compares every value with what the SDK itself reads back. */
class TestLanceColumnReader
{
    private static final int BATCH_ROWS = 3000;
    private static final int BATCHES = 3;

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

    private record Column(String name, ArrowType arrowType, boolean nullable, Type trinoType, Filler filler) {}

    private interface Filler
    {
        void fill(FieldVector vector, int index, int row);
    }

    private static List<Column> columns()
    {
        List<Column> columns = new ArrayList<>();
        // doubles: Flat 64
        columns.add(new Column("dbl", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), false, DOUBLE, (v, i, r) -> ((Float8Vector) v).set(i, r * 0.25 - 17)));
        // small unsigned range: InlineBitpacking
        columns.add(new Column("small", new ArrowType.Int(32, true), false, INTEGER, (v, i, r) -> ((IntVector) v).set(i, r % 100)));
        // negative values defeat bit-packing: Flat
        columns.add(new Column("neg", new ArrowType.Int(64, true), false, BIGINT, (v, i, r) -> ((BigIntVector) v).set(i, (r * 7919L) % 1000 - 500)));
        // def levels
        columns.add(new Column("nullable", new ArrowType.Int(64, true), true, BIGINT, (v, i, r) -> {
            if (r % 7 == 0) {
                v.setNull(i);
            }
            else {
                ((BigIntVector) v).set(i, r * 1_000_003L);
            }
        }));
        // low cardinality strings with nulls: dictionary
        columns.add(new Column("dict", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> {
            if (r % 11 == 0) {
                v.setNull(i);
            }
            else {
                ((VarCharVector) v).setSafe(i, ("colour-" + (r % 5)).getBytes(StandardCharsets.UTF_8));
            }
        }));
        // high cardinality strings shorter than 5 bytes (so never FSST): Variable
        columns.add(new Column("str", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> {
            if (r % 13 == 0) {
                v.setNull(i);
            }
            else {
                ((VarCharVector) v).setSafe(i, Integer.toString(r, 36).getBytes(StandardCharsets.UTF_8));
            }
        }));
        columns.add(new Column("bin", ArrowType.Binary.INSTANCE, false, VARBINARY, (v, i, r) -> ((VarBinaryVector) v).setSafe(i, new byte[] {(byte) r, (byte) (r >> 8), (byte) (r % 3)})));
        columns.add(new Column("allnull", new ArrowType.Int(32, true), true, INTEGER, (v, i, r) -> v.setNull(i)));
        columns.add(new Column("flag", ArrowType.Bool.INSTANCE, true, BOOLEAN, (v, i, r) -> {
            if (r % 5 == 0) {
                v.setNull(i);
            }
            else {
                ((BitVector) v).set(i, r % 3 == 0 ? 1 : 0);
            }
        }));
        columns.add(new Column("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), false, TIMESTAMP_MICROS, (v, i, r) -> ((TimeStampMicroVector) v).set(i, 1_700_000_000_000_000L + r * 1_234_567L)));
        columns.add(new Column("day", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY), false, DATE, (v, i, r) -> ((DateDayVector) v).set(i, 19_000 + r % 400)));
        columns.add(new Column("sh", new ArrowType.Int(16, true), false, SMALLINT, (v, i, r) -> ((SmallIntVector) v).set(i, (short) (r * 31 - 20_000))));
        columns.add(new Column("ti", new ArrowType.Int(8, true), false, TINYINT, (v, i, r) -> ((TinyIntVector) v).set(i, (byte) r)));
        columns.add(new Column("real", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), false, REAL, (v, i, r) -> ((Float4Vector) v).set(i, r / 3.0f)));
        // low cardinality decimal128: dictionary of 128-bit values
        columns.add(new Column("dec", new ArrowType.Decimal(20, 2, 128), true, DecimalType.createDecimalType(20, 2), (v, i, r) -> {
            if (r % 9 == 0) {
                v.setNull(i);
            }
            else {
                ((DecimalVector) v).set(i, BigDecimal.valueOf(r % 4 - 2, 2));
            }
        }));
        // high cardinality decimal128 read as a short decimal: Flat 128
        columns.add(new Column("price", new ArrowType.Decimal(12, 2, 128), false, DecimalType.createDecimalType(12, 2), (v, i, r) -> ((DecimalVector) v).set(i, BigDecimal.valueOf(r * 1_000_003L - 7, 2))));
        // one value throughout: a constant page with an inline value in 2.2, zero-width bit-packing in 2.1
        columns.add(new Column("const", new ArrowType.Int(32, true), false, INTEGER, (v, i, r) -> ((IntVector) v).set(i, 42)));
        return columns;
    }

    @Test
    void readsVersion21LikeTheSdk()
            throws Exception
    {
        readsEveryValueLikeTheSdk("2.1");
    }

    @Test
    void readsVersion22LikeTheSdk()
            throws Exception
    {
        readsEveryValueLikeTheSdk("2.2");
    }

    private void readsEveryValueLikeTheSdk(String version)
            throws Exception
    {
        List<Column> columns = columns();
        Path path = directory.resolve("data-" + version + ".lance");
        writeFile(path, version, columns);

        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.minorVersion()).isEqualTo(version.equals("2.1") ? 1 : 2);
        assertThat(metadata.columns()).hasSize(columns.size());
        int rows = BATCH_ROWS * BATCHES;
        Map<String, String> encodings = new HashMap<>();
        for (int c = 0; c < columns.size(); c++) {
            Column column = columns.get(c);
            encodings.put(column.name(), describe(metadata.columns().get(c)));
            assertThat(metadata.columns().get(c).rows()).as(column.name()).isEqualTo(rows);
            List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(expected).hasSize(rows);

            Block block = LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, rows);
            assertThat(values(block, column.trinoType())).as("%s %s", version, column.name()).isEqualTo(expected);

            // ranges that start and end inside chunks and pages
            for (int[] range : new int[][] {{1, 10}, {1000, 3100}, {4095, 2}, {rows - 5, 5}}) {
                Block part = LanceColumnReader.read(file, metadata, c, column.trinoType(), range[0], range[1]);
                assertThat(values(part, column.trinoType())).as("%s %s rows %s+%s", version, column.name(), range[0], range[1])
                        .isEqualTo(expected.subList(range[0], range[0] + range[1]));
                // what a split of a few indexed rows reads: only the chunks holding them
                Optional<Block> narrowed = readChunksOnly(file, metadata.columns().get(c), column.trinoType(), range[0], range[1]);
                narrowed.ifPresent(chunks -> assertThat(values(chunks, column.trinoType())).as("%s %s chunks of rows %s+%s", version, column.name(), range[0], range[1])
                        .isEqualTo(expected.subList(range[0], range[0] + range[1])));
                if (range[1] < 100 && describe(metadata.columns().get(c)).startsWith("MINI_BLOCK_LAYOUT")) {
                    assertThat(narrowed).as("%s %s: a few rows of a MiniBlock page are read by their chunks", version, column.name()).isPresent();
                }
            }
        }

        // the file really exercises each piece of the reader (the writer's choices, checked so a change shows up)
        assertThat(encodings.get("dbl")).isEqualTo("MINI_BLOCK_LAYOUT(values=FLAT/64)");
        assertThat(encodings.get("small")).isEqualTo("MINI_BLOCK_LAYOUT(values=INLINE_BITPACKING)");
        assertThat(encodings.get("flag")).endsWith("values=FLAT/1)");
        assertThat(encodings.get("str")).endsWith("values=VARIABLE)");
        assertThat(encodings.get("allnull")).isEqualTo("CONSTANT_LAYOUT");
        assertThat(encodings.get("price")).isEqualTo("MINI_BLOCK_LAYOUT(values=FLAT/128)");
        if (version.equals("2.1")) {
            assertThat(encodings.get("neg")).isEqualTo("MINI_BLOCK_LAYOUT(values=FLAT/64)");
            assertThat(encodings.get("nullable")).isEqualTo("MINI_BLOCK_LAYOUT(def=OUT_OF_LINE_BITPACKING,values=INLINE_BITPACKING)");
            assertThat(encodings.get("dict")).isEqualTo("MINI_BLOCK_LAYOUT(def=OUT_OF_LINE_BITPACKING,values=INLINE_BITPACKING,dictionary=VARIABLE)");
            assertThat(encodings.get("dec")).endsWith("dictionary=FLAT)");
        }
        else {
            // 2.2: 64-bit dictionaries, lz4 dictionary items, RLE def levels, constant pages
            assertThat(encodings.get("neg")).isEqualTo("MINI_BLOCK_LAYOUT(values=INLINE_BITPACKING,dictionary=GENERAL)");
            assertThat(encodings.get("nullable")).isEqualTo("MINI_BLOCK_LAYOUT(def=RLE,values=INLINE_BITPACKING)");
            assertThat(encodings.get("dict")).isEqualTo("MINI_BLOCK_LAYOUT(def=RLE,values=INLINE_BITPACKING,dictionary=GENERAL)");
            assertThat(encodings.get("const")).isEqualTo("CONSTANT_LAYOUT");
        }
    }

    private static Optional<Block> readChunksOnly(TrinoInputFile file, LanceColumn column, Type type, int start, int count)
            throws IOException
    {
        List<LanceColumn.PageRows> pages = column.pagesOf(start, start + count);
        if (pages.size() != 1) {
            return Optional.empty();
        }
        LanceColumn.PageRows page = pages.getFirst();
        try (TrinoInput input = file.newInput()) {
            Optional<MiniBlockChunks.NarrowedPage> narrowed = MiniBlockChunks.narrow(input, page.page(), page.from(), page.to());
            if (narrowed.isEmpty()) {
                return Optional.empty();
            }
            LanceColumn chunks = new LanceColumn(column.index(), List.of(narrowed.get().page()));
            return Optional.of(LanceColumnReader.read(input, chunks, type, page.from() - narrowed.get().firstRow(), count));
        }
    }

    @Test
    void readsAcrossPages()
            throws Exception
    {
        // about 36 MB per column: more than the writer puts in one page (32 MiB), so it flushes several pages
        int batchRows = 900_000;
        int batches = 5;
        List<Column> columns = List.of(
                new Column("dbl", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), false, DOUBLE, (v, i, r) -> ((Float8Vector) v).set(i, r * 1.5 - 3)),
                new Column("nullable", new ArrowType.Int(64, true), true, BIGINT, (v, i, r) -> {
                    if (r % 3 == 0) {
                        v.setNull(i);
                    }
                    else {
                        ((BigIntVector) v).set(i, -r * 1_000_003L);
                    }
                }));
        Path path = directory.resolve("pages.lance");
        writeFile(path, "2.1", columns, batchRows, batches);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        int rows = batchRows * batches;
        for (int c = 0; c < columns.size(); c++) {
            Column column = columns.get(c);
            LanceColumn lanceColumn = metadata.columns().get(c);
            assertThat(lanceColumn.pages().size()).as(column.name()).isGreaterThan(1);
            List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, rows), column.trinoType())).as(column.name()).isEqualTo(expected);
            // a range across the first page boundary
            int boundary = toIntExact(lanceColumn.pages().getFirst().rows());
            assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), boundary - 3, 7), column.trinoType()))
                    .isEqualTo(expected.subList(boundary - 3, boundary + 4));
        }
    }

    @Test
    void readsShortPagesWithInlineDefLevels()
            throws Exception
    {
        // at most 1024 levels in the page: 2.1 bit-packs def levels inline instead of out of line
        List<Column> columns = List.of(columns().get(3), columns().get(4));
        Path path = directory.resolve("short.lance");
        writeFile(path, "2.1", columns, 700, 1);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        for (int c = 0; c < columns.size(); c++) {
            Column column = columns.get(c);
            assertThat(describe(metadata.columns().get(c))).contains("def=INLINE_BITPACKING");
            List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, 700), column.trinoType())).as(column.name()).isEqualTo(expected);
        }
    }

    @Test
    void readsColumnMetadataLargerThanTheFirstTailRead()
            throws Exception
    {
        // hundreds of columns put the column metadata beyond the first 64 KiB read from the end of the file
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < 700; c++) {
            int shift = c;
            columns.add(new Column("c" + c, new ArrowType.Int(64, true), false, BIGINT, (v, i, r) -> ((BigIntVector) v).set(i, r * 31L - shift)));
        }
        Path path = directory.resolve("wide.lance");
        writeFile(path, "2.1", columns, 10, 1);
        TrinoInputFile file = inputFile(path);
        assertThat(file.length()).isGreaterThan(64 * 1024);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.columns()).hasSize(700);
        for (int c : new int[] {0, 350, 699}) {
            List<Object> expected = SdkFiles.readColumn(path, allocator, "c" + c).stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(values(LanceColumnReader.read(file, metadata, c, BIGINT, 0, 10), BIGINT)).isEqualTo(expected);
        }
    }

    @Test
    void readsFullZipPages()
            throws Exception
    {
        // values of 256 bytes and more go to FullZip pages; 150 rows keep the page under FSST's 32 KiB threshold
        List<Column> columns = List.of(
                new Column("text", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> {
                    if (r % 4 == 1) {
                        v.setNull(i);
                    }
                    else {
                        ((VarCharVector) v).setSafe(i, ("é" + r).repeat(r % 90).getBytes(StandardCharsets.UTF_8));
                    }
                }),
                new Column("blob", ArrowType.Binary.INSTANCE, false, VARBINARY, (v, i, r) -> ((VarBinaryVector) v).setSafe(i, new byte[(r * 37) % 300])),
                // long and many: over 32 KiB in the page, so FSST per value
                new Column("story", ArrowType.Utf8.INSTANCE, false, VARCHAR, (v, i, r) -> ((VarCharVector) v).setSafe(i, ("once upon a time " + r + " there was a fox; ").repeat(5 + r % 20).getBytes(StandardCharsets.UTF_8))));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("fullzip-" + version + ".lance");
            writeFile(path, version, columns, 150, 1);
            TrinoInputFile file = inputFile(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            for (int c = 0; c < columns.size(); c++) {
                Column column = columns.get(c);
                assertThat(describe(metadata.columns().get(c))).isEqualTo(column.name().equals("story") ? "FULL_ZIP_LAYOUT(values=FSST)" : "FULL_ZIP_LAYOUT(values=VARIABLE)");
                List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
                assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, 150), column.trinoType())).as(column.name()).isEqualTo(expected);
                assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 37, 50), column.trinoType())).isEqualTo(expected.subList(37, 87));
            }
        }
    }

    @Test
    void readsGeneralCompressedFullZipValues()
            throws Exception
    {
        // a value over 32 KiB makes the writer compress each value of the page with zstd (large bitmaps of a bitmap index)
        List<Column> columns = List.of(
                new Column("blob", ArrowType.Binary.INSTANCE, true, VARBINARY, (v, i, r) -> {
                    if (r % 5 == 2) {
                        v.setNull(i);
                        return;
                    }
                    byte[] bytes = new byte[(r * 7_919) % 70_000];
                    for (int b = 0; b < bytes.length; b++) {
                        bytes[b] = (byte) ((b / 7) * r);
                    }
                    ((VarBinaryVector) v).setSafe(i, bytes);
                }),
                new Column("text", ArrowType.Utf8.INSTANCE, false, VARCHAR, (v, i, r) -> ((VarCharVector) v).setSafe(i, ("row " + r + ";").repeat(r * 400).getBytes(StandardCharsets.UTF_8))));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("fullzip-general-" + version + ".lance");
            writeFile(path, version, columns, 40, 1);
            TrinoInputFile file = inputFile(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            for (int c = 0; c < columns.size(); c++) {
                Column column = columns.get(c);
                assertThat(describe(metadata.columns().get(c))).as(column.name()).startsWith("FULL_ZIP_LAYOUT(values=GENERAL");
                List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
                assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, 40), column.trinoType())).as(column.name()).isEqualTo(expected);
                assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 11, 17), column.trinoType())).isEqualTo(expected.subList(11, 28));
            }
        }
    }

    @Test
    void readsFsstStrings()
            throws Exception
    {
        // long, varied strings in a page over 32 KiB: the writer compresses them with FSST
        List<Column> columns = List.of(new Column("text", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> {
            if (r % 17 == 3) {
                v.setNull(i);
            }
            else {
                ((VarCharVector) v).setSafe(i, ("the quick brown fox number " + r * 7919 + " jumps över " + (char) ('a' + r % 26)).getBytes(StandardCharsets.UTF_8));
            }
        }));
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("fsst-" + version + ".lance");
            writeFile(path, version, columns);
            TrinoInputFile file = inputFile(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThat(describe(metadata.columns().getFirst())).contains("values=FSST");
            int rows = BATCH_ROWS * BATCHES;
            List<Object> expected = SdkFiles.readColumn(path, allocator, "text").stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(values(LanceColumnReader.read(file, metadata, 0, VARCHAR, 0, rows), VARCHAR)).isEqualTo(expected);
            assertThat(values(LanceColumnReader.read(file, metadata, 0, VARCHAR, 5000, 77), VARCHAR)).isEqualTo(expected.subList(5000, 5077));
        }
    }

    @Test
    void readsConstantPages()
            throws Exception
    {
        // pages of one value: fixed-width ones inline in the layout, strings and binaries in the page's first buffer;
        // with NULLs among them, raw def levels after an empty rep buffer
        List<Column> columns = List.of(
                new Column("s", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> ((VarCharVector) v).setSafe(i, "constant-string".getBytes(StandardCharsets.UTF_8))),
                new Column("e", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> ((VarCharVector) v).setSafe(i, new byte[0])),
                new Column("b", ArrowType.Binary.INSTANCE, true, VARBINARY, (v, i, r) -> ((VarBinaryVector) v).setSafe(i, new byte[] {1, 2, 3})),
                new Column("sn", ArrowType.Utf8.INSTANCE, true, VARCHAR, (v, i, r) -> {
                    if (r % 3 == 0) {
                        v.setNull(i);
                    }
                    else {
                        ((VarCharVector) v).setSafe(i, "x".getBytes(StandardCharsets.UTF_8));
                    }
                }),
                new Column("in", new ArrowType.Int(64, true), true, BIGINT, (v, i, r) -> {
                    if (r % 4 == 1) {
                        v.setNull(i);
                    }
                    else {
                        ((BigIntVector) v).setSafe(i, -5);
                    }
                }),
                new Column("n", new ArrowType.Int(64, true), true, BIGINT, (v, i, r) -> v.setNull(i)));
        Path path = directory.resolve("constant.lance");
        writeFile(path, "2.2", columns);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        int rows = BATCH_ROWS * BATCHES;
        for (int c = 0; c < columns.size(); c++) {
            Column column = columns.get(c);
            assertThat(metadata.columns().get(c).pages()).as(column.name()).allMatch(page -> page.layout().hasConstantLayout());
            List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, rows), column.trinoType())).as(column.name()).isEqualTo(expected);
            assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 4001, 33), column.trinoType())).as(column.name()).isEqualTo(expected.subList(4001, 4034));
        }
    }

    @Test
    void readsStructLeaves()
            throws Exception
    {
        // a nullable struct's leaves are columns of their own with one def layer per level: null when either is null
        Field x = new Field("x", FieldType.nullable(new ArrowType.Int(64, true)), null);
        Field s = new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
        Schema schema = new Schema(List.of(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(x, s))));
        int rows = 5000;
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("struct-" + version + ".lance");
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                SdkFiles.write(path, version, allocator, root, List.of(batch -> {
                    StructVector struct = (StructVector) batch.getVector("st");
                    BigIntVector xs = (BigIntVector) struct.getChild("x");
                    VarCharVector ss = (VarCharVector) struct.getChild("s");
                    struct.setInitialCapacity(rows);
                    struct.allocateNew();
                    for (int row = 0; row < rows; row++) {
                        if (row % 6 == 0) {
                            struct.setNull(row);
                            xs.setNull(row);
                            ss.setNull(row);
                            continue;
                        }
                        struct.setIndexDefined(row);
                        if (row % 4 == 0) {
                            xs.setNull(row);
                        }
                        else {
                            xs.setSafe(row, row * 3L);
                        }
                        ss.setSafe(row, ("v" + row % 9).getBytes(StandardCharsets.UTF_8));
                    }
                    xs.setValueCount(rows);
                    ss.setValueCount(rows);
                    struct.setValueCount(rows);
                    batch.setRowCount(rows);
                }));
            }
            TrinoInputFile file = inputFile(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThat(metadata.columns()).hasSize(2);
            List<Object> structs = SdkFiles.readColumn(path, allocator, "st");
            for (int c = 0; c < 2; c++) {
                String child = c == 0 ? "x" : "s";
                // one def layer for the leaf, one for the struct
                assertThat(metadata.columns().get(c).pages().getFirst().layout().getMiniBlockLayout().getLayersCount()).isEqualTo(2);
                Type type = c == 0 ? BIGINT : VARCHAR;
                List<Object> expected = structs.stream()
                        .map(value -> value == null ? null : canonical(((Map<?, ?>) value).get(child)))
                        .toList();
                assertThat(values(LanceColumnReader.read(file, metadata, c, type, 0, rows), type)).as("%s %s", version, child).isEqualTo(expected);
            }
        }
    }

    @Test
    void readsGeneralCompressionAndByteStreamSplit()
            throws Exception
    {
        // opt-in general compression per field: miniblock chunks are zstd/lz4 compressed, floats byte-stream split first
        List<Column> columns = columns();
        for (String version : List.of("2.1", "2.2")) {
            for (String scheme : List.of("zstd", "lz4")) {
                Path path = directory.resolve("general-" + scheme + "-" + version + ".lance");
                Schema schema = new Schema(columns.stream()
                        .map(column -> new Field(column.name(), new FieldType(column.nullable(), column.arrowType(), null, Map.of("lance-encoding:compression", scheme)), null))
                        .toList());
                writeFile(path, version, columns, schema, BATCH_ROWS, BATCHES);
                TrinoInputFile file = inputFile(path);
                LanceFileMetadata metadata = LanceFileMetadata.read(file);
                assertThat(describe(metadata.columns().get(0))).isEqualTo("MINI_BLOCK_LAYOUT(values=GENERAL>BYTE_STREAM_SPLIT)");
                assertThat(describe(metadata.columns().get(5))).endsWith("values=GENERAL>VARIABLE)");
                int rows = BATCH_ROWS * BATCHES;
                for (int c = 0; c < columns.size(); c++) {
                    Column column = columns.get(c);
                    List<Object> expected = SdkFiles.readColumn(path, allocator, column.name()).stream().map(TestLanceColumnReader::canonical).toList();
                    assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 0, rows), column.trinoType()))
                            .as("%s %s %s", version, scheme, column.name()).isEqualTo(expected);
                    assertThat(values(LanceColumnReader.read(file, metadata, c, column.trinoType(), 4000, 300), column.trinoType()))
                            .isEqualTo(expected.subList(4000, 4300));
                }
            }
        }
    }

    @Test
    void readsRunsUnderGeneralCompression()
            throws Exception
    {
        // sorted keys repeated a few times each (TPC-H l_orderkey): with zstd and no byte planes Lance keeps the runs,
        // compresses their values and leaves their lengths raw
        List<Column> columns = List.of(new Column("key", new ArrowType.Int(64, true), true, BIGINT, (v, i, r) -> {
            if (r % 101 == 7) {
                v.setNull(i);
            }
            else {
                ((BigIntVector) v).set(i, 1_000_000_000L + r / 5);
            }
        }));
        for (String scheme : List.of("zstd", "lz4")) {
            Path path = directory.resolve("runs-" + scheme + ".lance");
            Schema schema = new Schema(List.of(new Field("key", new FieldType(true, new ArrowType.Int(64, true), null,
                    Map.of("lance-encoding:compression", scheme, "lance-encoding:bss", "off", "lance-encoding:dict-divisor", "100000")), null)));
            writeFile(path, "2.2", columns, schema, BATCH_ROWS, BATCHES);
            TrinoInputFile file = inputFile(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThat(describe(metadata.columns().getFirst())).as(scheme).contains("values=GENERAL>RLE");
            int rows = BATCH_ROWS * BATCHES;
            List<Object> expected = SdkFiles.readColumn(path, allocator, "key").stream().map(TestLanceColumnReader::canonical).toList();
            assertThat(values(LanceColumnReader.read(file, metadata, 0, BIGINT, 0, rows), BIGINT)).as(scheme).isEqualTo(expected);
            assertThat(values(LanceColumnReader.read(file, metadata, 0, BIGINT, 3001, 777), BIGINT)).isEqualTo(expected.subList(3001, 3778));
        }
    }

    @Test
    void signalsUnsupportedEncodings()
            throws Exception
    {
        // a list column has repetition levels, which this reader does not decode yet: the caller must be told
        Field item = new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), null);
        Schema schema = new Schema(List.of(new Field("list", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item))));
        Path path = directory.resolve("list.lance");
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            SdkFiles.write(path, "2.1", allocator, root, List.of(batch -> {
                ListVector list = (ListVector) batch.getVector("list");
                UnionListWriter writer = list.getWriter();
                for (int row = 0; row < 100; row++) {
                    writer.setPosition(row);
                    writer.startList();
                    for (int i = 0; i < row % 4; i++) {
                        writer.bigInt().writeBigInt(row * 10L + i);
                    }
                    writer.endList();
                }
                list.setValueCount(100);
                batch.setRowCount(100);
            }));
        }
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, 0, BIGINT, 0, 10))
                .isInstanceOf(UnsupportedLanceEncodingException.class)
                .hasMessageContaining("column 0 page 0")
                .hasMessageContaining("repetition");
    }

    @Test
    void rejectsTypesOfAnotherWidth()
            throws Exception
    {
        List<Column> columns = List.of(columns().get(2));
        Path path = directory.resolve("width.lance");
        writeFile(path, "2.1", columns, 100, 1);
        TrinoInputFile file = inputFile(path);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, 0, INTEGER, 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64-bit values cannot be read as integer");
    }

    @Test
    void rejectsOtherFileVersions()
            throws Exception
    {
        List<Column> columns = List.of(columns().get(1));
        Path path = directory.resolve("v20.lance");
        writeFile(path, "2.0", columns);
        assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(path)))
                .isInstanceOf(UnsupportedLanceEncodingException.class)
                .hasMessageContaining("version");
    }

    /** Layout and encodings of each page, e.g. "MINI_BLOCK_LAYOUT(def=INLINE_BITPACKING,values=FLAT/64)". */
    private static String describe(LanceColumn column)
    {
        List<String> pages = new ArrayList<>();
        for (LancePage page : column.pages()) {
            var layout = page.layout();
            String text = layout.getLayoutCase().toString();
            if (layout.hasMiniBlockLayout()) {
                var miniBlock = layout.getMiniBlockLayout();
                text += "(" + (miniBlock.hasDefCompression() ? "def=" + miniBlock.getDefCompression().getCompressionCase() + "," : "")
                        + "values=" + miniBlock.getValueCompression().getCompressionCase()
                        + (miniBlock.getValueCompression().hasGeneral() ? ">" + miniBlock.getValueCompression().getGeneral().getValues().getCompressionCase() : "")
                        + (miniBlock.getValueCompression().hasFlat() ? "/" + miniBlock.getValueCompression().getFlat().getBitsPerValue() : "")
                        + (miniBlock.hasDictionary() ? ",dictionary=" + miniBlock.getDictionary().getCompressionCase() : "") + ")";
            }
            if (layout.hasFullZipLayout()) {
                text += "(values=" + layout.getFullZipLayout().getValueCompression().getCompressionCase() + ")";
            }
            pages.add(text);
        }
        return String.join(" ", pages);
    }

    private void writeFile(Path path, String version, List<Column> columns)
            throws Exception
    {
        writeFile(path, version, columns, BATCH_ROWS, BATCHES);
    }

    private void writeFile(Path path, String version, List<Column> columns, int batchRows, int batchCount)
            throws Exception
    {
        Schema schema = new Schema(columns.stream()
                .map(column -> new Field(column.name(), column.nullable() ? FieldType.nullable(column.arrowType()) : FieldType.notNullable(column.arrowType()), null))
                .toList());
        writeFile(path, version, columns, schema, batchRows, batchCount);
    }

    private void writeFile(Path path, String version, List<Column> columns, Schema schema, int batchRows, int batchCount)
            throws Exception
    {
        List<Consumer<VectorSchemaRoot>> batches = new ArrayList<>();
        for (int batch = 0; batch < batchCount; batch++) {
            int firstRow = batch * batchRows;
            batches.add(root -> {
                for (Column column : columns) {
                    FieldVector vector = root.getVector(column.name());
                    vector.setInitialCapacity(batchRows);
                    vector.allocateNew();
                    for (int i = 0; i < batchRows; i++) {
                        column.filler().fill(vector, i, firstRow + i);
                    }
                    vector.setValueCount(batchRows);
                }
                root.setRowCount(batchRows);
            });
        }
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            SdkFiles.write(path, version, allocator, root, batches);
        }
    }

    private static TrinoInputFile inputFile(Path path)
    {
        return new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
    }

    /** The SDK's Arrow values in the canonical form {@link #values} produces. */
    private static Object canonical(Object value)
    {
        return switch (value) {
            case null -> null;
            case Byte b -> (long) b;
            case Short s -> (long) s;
            case Integer i -> (long) i;
            case Text text -> text.toString();
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            case java.time.LocalDateTime dateTime -> {
                java.time.Instant instant = dateTime.toInstant(java.time.ZoneOffset.UTC);
                yield instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
            }
            case java.time.LocalDate date -> date.toEpochDay();
            default -> value;
        };
    }

    private static List<Object> values(Block block, Type type)
    {
        List<Object> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                values.add(null);
                continue;
            }
            Object value;
            if (type == BIGINT || type == TIMESTAMP_MICROS) {
                value = type.getLong(block, position);
            }
            else if (type == INTEGER || type == DATE) {
                value = (long) INTEGER.getInt(block, position);
            }
            else if (type == SMALLINT) {
                value = (long) SMALLINT.getShort(block, position);
            }
            else if (type == TINYINT) {
                value = (long) TINYINT.getByte(block, position);
            }
            else if (type == DOUBLE) {
                value = DOUBLE.getDouble(block, position);
            }
            else if (type == REAL) {
                value = REAL.getFloat(block, position);
            }
            else if (type == BOOLEAN) {
                value = BOOLEAN.getBoolean(block, position);
            }
            else if (type == VARCHAR) {
                value = VARCHAR.getSlice(block, position).toStringUtf8();
            }
            else if (type == VARBINARY) {
                value = HexFormat.of().formatHex(VARBINARY.getSlice(block, position).getBytes());
            }
            else if (type instanceof DecimalType decimal && decimal.isShort()) {
                value = BigDecimal.valueOf(decimal.getLong(block, position), decimal.getScale());
            }
            else if (type instanceof DecimalType decimal) {
                Int128 int128 = (Int128) decimal.getObject(block, position);
                value = new BigDecimal(int128.toBigInteger(), decimal.getScale());
            }
            else {
                throw new AssertionError(type);
            }
            values.add(value);
        }
        return values;
    }
}
