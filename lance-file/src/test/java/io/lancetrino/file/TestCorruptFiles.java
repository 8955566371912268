package io.lancetrino.file;

import com.google.protobuf.ByteString;
import io.lancetrino.file.proto.AnyMessage;
import io.lancetrino.file.proto.ColumnMetadata;
import io.lancetrino.file.proto.Encoding;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.block.Block;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Damaged files: truncated footers, positions and sizes outside the file, lying lengths and counts, encodings this
 * reader does not know. The reader must throw an {@link IOException} naming the file (metadata) or the column and page
 * (pages), or {@link UnsupportedLanceEncodingException} for what may be valid but is not decoded, so the SDK takes it;
 * never allocate for a lying size, hang, or return rows. Each file is damaged by rewriting its tail (column metadata,
 * offset table, footer) or bytes of its pages, found through the column metadata.
 */
@Timeout(120)
class TestCorruptFiles
{
    private static final int ROWS = 2000;
    // columns of the sample file
    private static final int NULLABLE = 0;
    private static final int FULL_ZIP = 1;
    private static final int LZ4 = 2;
    private static final long KEEP = Long.MIN_VALUE;

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
    void readsTheUndamagedSample()
            throws Exception
    {
        // the control: what the other tests damage reads like the SDK reads it
        for (String version : List.of("2.1", "2.2")) {
            Path path = sample(version);
            TrinoInputFile file = inputFile(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThat(metadata.columns().get(FULL_ZIP).pages().getFirst().layout().hasFullZipLayout()).isTrue();
            assertThat(metadata.columns().get(LZ4).pages().getFirst().layout().getMiniBlockLayout().getValueCompression().hasGeneral()).isTrue();
            for (int column = 0; column < 3; column++) {
                String name = List.of("n", "long", "z").get(column);
                List<Object> expected = SdkFiles.readColumn(path, allocator, name).stream().<Object>map(value -> value == null ? null : value.toString()).toList();
                Block block = LanceColumnReader.read(file, metadata, column, column == FULL_ZIP ? VARCHAR : BIGINT, 0, ROWS);
                List<Object> actual = new ArrayList<>();
                for (int i = 0; i < ROWS; i++) {
                    actual.add(block.isNull(i) ? null : column == FULL_ZIP ? VARCHAR.getSlice(block, i).toStringUtf8() : String.valueOf(BIGINT.getLong(block, i)));
                }
                assertThat(actual).as("%s %s", version, name).isEqualTo(expected);
            }
        }
    }

    @Test
    void rejectsTruncatedFiles()
            throws Exception
    {
        Path path = sample("2.1");
        byte[] bytes = Files.readAllBytes(path);
        for (int cut : new int[] {1, 7, 39, 41, 200, bytes.length / 2, bytes.length - 20}) {
            Path truncated = directory.resolve("truncated-" + cut + ".lance");
            Files.write(truncated, Arrays.copyOf(bytes, bytes.length - cut));
            assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(truncated)))
                    .as("cut %s bytes", cut)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(truncated.getFileName().toString());
        }
    }

    @Test
    void rejectsFootersPointingOutsideTheFile()
            throws Exception
    {
        Path path = sample("2.2");
        byte[] bytes = Files.readAllBytes(path);
        int footer = bytes.length - 40;
        // column metadata start, offset table position (u64), column count (u32): beyond the file, "negative", huge
        long[][] damages = {
                {footer, bytes.length + 100L, 8}, {footer, -1, 8}, {footer + 8, bytes.length + 100L, 8}, {footer + 8, -16, 8}, {footer + 8, 0, 8},
                {footer + 28, Integer.MAX_VALUE, 4}, {footer + 28, -1, 4}, {footer + 28, 1_000_000, 4}};
        for (long[] damage : damages) {
            Path damaged = directory.resolve("footer-" + damage[0] + "-" + damage[1] + ".lance");
            Files.write(damaged, patch(bytes, (int) damage[0], damage[1], (int) damage[2]));
            assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(damaged)))
                    .as("footer byte %s set to %s", damage[0] - footer, damage[1])
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(damaged.getFileName().toString());
        }
    }

    @Test
    void rejectsColumnMetadataOutsideTheFile()
            throws Exception
    {
        Path path = sample("2.1");
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer footer = ByteBuffer.wrap(bytes, bytes.length - 40, 40).slice().order(ByteOrder.LITTLE_ENDIAN);
        int table = (int) footer.getLong(8);
        for (long[] damage : new long[][] {{table, bytes.length}, {table + 8, Long.MAX_VALUE}, {table + 8, -1}, {table + 16 + 8, 1L << 40}, {table, 0}}) {
            Path damaged = directory.resolve("column-" + damage[0] + "-" + damage[1] + ".lance");
            Files.write(damaged, patch(bytes, (int) damage[0], damage[1], 8));
            assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(damaged)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(damaged.getFileName().toString())
                    .hasMessageMatching("(?s).*column [01] metadata.*");
        }
        // garbage where a column's metadata should be
        Path garbage = rewrite(path, "garbage", (column, metadata) -> column == 1 ? null : metadata);
        assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(garbage)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(garbage.getFileName().toString())
                .hasMessageContaining("column 1");
    }

    @Test
    void rejectsPageBuffersOutsideTheFile()
            throws Exception
    {
        for (String version : List.of("2.1", "2.2")) {
            Path path = sample(version);
            long length = Files.size(path);
            // positions past the end, sizes past the end, sizes no allocation can hold, "negative" (above 2^63) values
            long[][] damages = {{length + 10, KEEP}, {-1, KEEP}, {KEEP, length}, {0, 3L << 30}, {0, Long.MAX_VALUE}, {0, -8}, {length - 4, 64}};
            for (long[] damage : damages) {
                Path damaged = rewrite(path, version + "-buffer-" + damage[0] + "-" + damage[1], (column, metadata) -> column != NULLABLE ? metadata : withPage(metadata, 0, page -> {
                    ColumnMetadata.Page.Builder builder = page.toBuilder();
                    if (damage[0] != KEEP) {
                        builder.setBufferPositions(1, damage[0]);
                    }
                    if (damage[1] != KEEP) {
                        builder.setBufferSizes(1, damage[1]);
                    }
                    return builder.build();
                }));
                assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(damaged)))
                        .as("%s buffer 1 at %s of %s bytes", version, damage[0], damage[1])
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining(damaged.getFileName().toString())
                        .hasMessageContaining("column 0 page 0 buffer 1");
            }
        }
    }

    @Test
    void rejectsLyingRowCounts()
            throws Exception
    {
        for (String version : List.of("2.1", "2.2")) {
            Path path = sample(version);
            for (int target : new int[] {NULLABLE, FULL_ZIP}) {
                // the column metadata says more (or fewer) rows than the page holds: later pages' rows would shift
                for (long rows : new long[] {ROWS + 1, ROWS - 1, 1L << 40}) {
                    Path damaged = rewrite(path, version + "-rows-" + target + "-" + rows, (column, metadata) -> column != target ? metadata
                            : withPage(metadata, 0, page -> page.toBuilder().setLength(rows).build()));
                    TrinoInputFile file = inputFile(damaged);
                    LanceFileMetadata metadata = LanceFileMetadata.read(file);
                    assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, target, target == FULL_ZIP ? VARCHAR : BIGINT, 0, 10))
                            .isInstanceOf(IOException.class)
                            .hasMessageContaining("column %s page 0 is corrupt".formatted(target));
                }
            }
            // the layout's own item count lies, huge: no allocation of that size
            Path damaged = rewrite(path, version + "-items", (column, metadata) -> column != NULLABLE ? metadata : withLayout(metadata, layout -> {
                PageLayout.Builder builder = layout.toBuilder();
                builder.getMiniBlockLayoutBuilder().setNumItems(1L << 40);
                return builder.build();
            }));
            TrinoInputFile file = inputFile(damaged);
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, NULLABLE, BIGINT, 0, 10))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("column 0 page 0 is corrupt");
            // a dictionary larger than the page
            Path dictionary = rewrite(path, version + "-dictionary", (column, columnMetadata) -> column != NULLABLE ? columnMetadata : withLayout(columnMetadata, layout -> {
                PageLayout.Builder builder = layout.toBuilder();
                builder.getMiniBlockLayoutBuilder().setNumDictionaryItems(Long.MAX_VALUE);
                return builder.build();
            }));
            TrinoInputFile dictionaryFile = inputFile(dictionary);
            LanceFileMetadata dictionaryMetadata = LanceFileMetadata.read(dictionaryFile);
            assertThatThrownBy(() -> LanceColumnReader.read(dictionaryFile, dictionaryMetadata, NULLABLE, BIGINT, 0, 10))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("column 0 page 0 is corrupt");
        }
    }

    @Test
    void rejectsLyingSizesInsidePages()
            throws Exception
    {
        for (String version : List.of("2.1", "2.2")) {
            Path path = sample(version);
            byte[] bytes = Files.readAllBytes(path);
            LanceFileMetadata metadata = LanceFileMetadata.read(inputFile(path));

            // miniblock chunk metadata (buffer 0) claiming chunks far larger than the chunk buffer
            LancePage nullable = metadata.columns().get(NULLABLE).pages().getFirst();
            byte[] chunks = bytes.clone();
            Arrays.fill(chunks, toIntExact(nullable.bufferPositions().get(0)), toIntExact(nullable.bufferPositions().get(0) + nullable.bufferSizes().get(0)), (byte) 0xFF);
            assertCorruptPage(version + "-chunks", chunks, NULLABLE, BIGINT);

            // a FullZip value whose length runs far past the page (the column has no def levels: the length comes first)
            LancePage fullZip = metadata.columns().get(FULL_ZIP).pages().getFirst();
            assertThat(fullZip.layout().getFullZipLayout().getBitsDef()).isZero();
            assertCorruptPage(version + "-fullzip", patch(bytes, toIntExact(fullZip.bufferPositions().get(0)), 0x7FFF_FFF0, 4), FULL_ZIP, VARCHAR);

            // an LZ4 chunk whose size prefix claims 2 GB: the chunk header (level count, value size) is 8 bytes with alignment
            LancePage lz4 = metadata.columns().get(LZ4).pages().getFirst();
            assertCorruptPage(version + "-lz4", patch(bytes, toIntExact(lz4.bufferPositions().get(1) + 8), Integer.MAX_VALUE, 4), LZ4, BIGINT);
        }
    }

    @Test
    void signalsUnknownLayoutsAndEncodingsAsUnsupported()
            throws Exception
    {
        // valid protobuf the reader does not know: may be a newer writer's, so the SDK gets the chance to read it
        Path path = sample("2.2");
        Path layout = rewrite(path, "no-layout", (column, metadata) -> column != NULLABLE ? metadata : withLayout(metadata, _ -> PageLayout.getDefaultInstance()));
        TrinoInputFile layoutFile = inputFile(layout);
        LanceFileMetadata layoutMetadata = LanceFileMetadata.read(layoutFile);
        assertThatThrownBy(() -> LanceColumnReader.read(layoutFile, layoutMetadata, NULLABLE, BIGINT, 0, 10))
                .isInstanceOf(UnsupportedLanceEncodingException.class)
                .hasMessageContaining("column 0 page 0");

        // an encoding id from the future: an unknown field number in the CompressiveEncoding oneof
        Path encoding = rewrite(path, "unknown-encoding", (column, metadata) -> column != LZ4 ? metadata : withLayout(metadata, pageLayout -> {
            PageLayout.Builder builder = pageLayout.toBuilder();
            CompressiveEncoding unknown = CompressiveEncoding.newBuilder()
                    .setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder()
                            .addField(99, com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build())
                    .build();
            builder.getMiniBlockLayoutBuilder().setValueCompression(unknown);
            return builder.build();
        }));
        TrinoInputFile encodingFile = inputFile(encoding);
        LanceFileMetadata encodingMetadata = LanceFileMetadata.read(encodingFile);
        assertThatThrownBy(() -> LanceColumnReader.read(encodingFile, encodingMetadata, LZ4, BIGINT, 0, 10))
                .isInstanceOf(UnsupportedLanceEncodingException.class)
                .hasMessageContaining("column 2 page 0");

        // a page encoding of another message type
        Path typeUrl = rewrite(path, "type-url", (column, metadata) -> column != NULLABLE ? metadata : withPage(metadata, 0, page -> page.toBuilder()
                .setEncoding(Encoding.newBuilder().setDirect(Encoding.Direct.newBuilder().setEncoding(AnyMessage.newBuilder().setTypeUrl("/lance.encodings.ArrayEncoding").build().toByteString())))
                .build()));
        assertThatThrownBy(() -> LanceFileMetadata.read(inputFile(typeUrl)))
                .isInstanceOf(UnsupportedLanceEncodingException.class)
                .hasMessageContaining("Column 0 page 0");
    }

    private void assertCorruptPage(String name, byte[] bytes, int column, io.trino.spi.type.Type type)
            throws Exception
    {
        Path damaged = directory.resolve(name + ".lance");
        Files.write(damaged, bytes);
        TrinoInputFile file = inputFile(damaged);
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThatThrownBy(() -> LanceColumnReader.read(file, metadata, column, type, 0, ROWS))
                .as(name)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("column %s page 0 is corrupt".formatted(column));
    }

    // ---- the sample and its damage ----

    /** Three columns: a nullable bigint (MiniBlock with def levels), long strings (FullZip), LZ4-compressed bigints. */
    private Path sample(String version)
            throws Exception
    {
        Path path = directory.resolve("sample-" + version + ".lance");
        Schema schema = new Schema(List.of(
                new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null),
                new Field("long", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                new Field("z", new FieldType(false, new ArrowType.Int(64, true), null, Map.of("lance-encoding:compression", "lz4")), null)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            SdkFiles.write(path, version, allocator, root, List.of(batch -> {
                BigIntVector n = (BigIntVector) batch.getVector("n");
                VarCharVector text = (VarCharVector) batch.getVector("long");
                BigIntVector z = (BigIntVector) batch.getVector("z");
                n.allocateNew(ROWS);
                z.allocateNew(ROWS);
                for (int row = 0; row < ROWS; row++) {
                    if (row % 7 == 0) {
                        n.setNull(row);
                    }
                    else {
                        n.set(row, row * 1_000_003L - 5);
                    }
                    text.setSafe(row, ("row " + row + " ").repeat(40).getBytes(StandardCharsets.UTF_8));
                    z.set(row, (row % 100) * 1_000_000_007L);
                }
                n.setValueCount(ROWS);
                text.setValueCount(ROWS);
                z.setValueCount(ROWS);
                batch.setRowCount(ROWS);
            }));
        }
        return path;
    }

    /**
     * A copy of the file with each column's metadata replaced (null: garbage bytes instead) and the offset table and
     * footer rewritten to match; the pages and global buffers stay where they are.
     */
    private Path rewrite(Path path, String name, BiFunction<Integer, ColumnMetadata, ColumnMetadata> change)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer footer = ByteBuffer.wrap(bytes, bytes.length - 40, 40).slice().order(ByteOrder.LITTLE_ENDIAN);
        long columnMetaStart = footer.getLong(0);
        long offsetTable = footer.getLong(8);
        long globalTable = footer.getLong(16);
        int columns = footer.getInt(28);
        ByteBuffer table = ByteBuffer.wrap(bytes, (int) offsetTable, columns * 16).slice().order(ByteOrder.LITTLE_ENDIAN);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, (int) columnMetaStart);
        long[] positions = new long[columns];
        long[] sizes = new long[columns];
        for (int column = 0; column < columns; column++) {
            ColumnMetadata metadata = ColumnMetadata.parseFrom(Arrays.copyOfRange(bytes, (int) table.getLong(column * 16), (int) (table.getLong(column * 16) + table.getLong(column * 16 + 8))));
            ColumnMetadata changed = change.apply(column, metadata);
            byte[] serialized = changed == null ? new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01, 0x02} : changed.toByteArray();
            positions[column] = out.size();
            sizes[column] = serialized.length;
            out.write(serialized);
        }
        long newOffsetTable = out.size();
        ByteBuffer newTable = ByteBuffer.allocate(columns * 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int column = 0; column < columns; column++) {
            newTable.putLong(positions[column]).putLong(sizes[column]);
        }
        out.write(newTable.array());
        long newGlobalTable = out.size();
        out.write(bytes, (int) globalTable, (int) (bytes.length - 40 - globalTable));
        ByteBuffer newFooter = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        newFooter.put(footer.duplicate().order(ByteOrder.LITTLE_ENDIAN));
        newFooter.putLong(0, columnMetaStart).putLong(8, newOffsetTable).putLong(16, newGlobalTable);
        out.write(newFooter.array());

        Path damaged = directory.resolve(name + ".lance");
        Files.write(damaged, out.toByteArray());
        return damaged;
    }

    private static ColumnMetadata withPage(ColumnMetadata metadata, int page, java.util.function.UnaryOperator<ColumnMetadata.Page> change)
    {
        return metadata.toBuilder().setPages(page, change.apply(metadata.getPages(page))).build();
    }

    private static ColumnMetadata withLayout(ColumnMetadata metadata, java.util.function.UnaryOperator<PageLayout> change)
    {
        return withPage(metadata, 0, page -> {
            try {
                AnyMessage any = AnyMessage.parseFrom(page.getEncoding().getDirect().getEncoding());
                PageLayout layout = change.apply(PageLayout.parseFrom(any.getValue()));
                ByteString encoded = any.toBuilder().setValue(layout.toByteString()).build().toByteString();
                return page.toBuilder().setEncoding(Encoding.newBuilder().setDirect(Encoding.Direct.newBuilder().setEncoding(encoded))).build();
            }
            catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    /** The bytes with a little-endian value of {@code width} bytes written at {@code position}. */
    private static byte[] patch(byte[] bytes, int position, long value, int width)
    {
        byte[] patched = bytes.clone();
        for (int i = 0; i < width; i++) {
            patched[position + i] = (byte) (value >>> (8 * i));
        }
        return patched;
    }

    private static int toIntExact(long value)
    {
        return Math.toIntExact(value);
    }

    private static TrinoInputFile inputFile(Path path)
    {
        return new LocalFileSystem(path.getParent()).newInputFile(Location.of("local:///" + path.getFileName()));
    }
}
