package io.lancetrino.file.writer;

import io.airlift.slice.Slices;
import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.proto.Schema;
import io.lancetrino.metadata.schema.LanceFields;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileReader;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static io.lancetrino.file.writer.RowAssertions.assertSameRows;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arrow's large strings and binaries (64-bit offsets; Lance's {@code json} is a {@code large_binary}), written by the Java
 * writer and read back by the Lance SDK 7.0 and by the Java reader, value by value: NULLs, empty values, values of
 * tens of KiB, many pages, with and without zstd.
 */
final class TestLanceFileWriterLargeOffsets
{
    private static final int BATCHES = Integer.getInteger("lance.writer.batches", 12);

    @Test
    void testSdkAndJavaReaderReadLargeOffsets()
            throws Exception
    {
        for (int minor : List.of(1, 2)) {
            Set<String> encodings = new TreeSet<>();
            long seed = Long.getLong("lance.writer.seed", 5);
            for (EncodingOptions options : List.of(EncodingOptions.DEFAULT, EncodingOptions.UNCOMPRESSED)) {
                // small pages: many of them per column
                for (long pageBytes : List.of(64L * 1024, 8L << 20)) {
                    encodings.addAll(checkRoundTrip(seed++, minor, options, pageBytes));
                }
            }
            // both columns were written with u64 offsets, plain and under zstd; in format 2.1 pages with values of 256
            // bytes or more are full-zip pages, with u64 lengths
            assertThat(encodings).as("format 2.%s", minor).contains("text 64 general");
            if (minor == 1) {
                assertThat(encodings).contains("binary 64 full-zip", "text 64 full-zip");
            }
            else {
                assertThat(encodings).contains("binary 64 plain", "binary 64 general", "text 64 plain").noneMatch(encoding -> encoding.endsWith("full-zip"));
            }
        }
    }

    private static Set<String> checkRoundTrip(long seed, int minor, EncodingOptions options, long pageBytes)
            throws Exception
    {
        Random random = new Random(seed);
        Path directory = Files.createTempDirectory("java-writer-large-offsets");
        Path path = directory.resolve("data.lance");
        List<Object> binaries = new ArrayList<>();
        List<Object> texts = new ArrayList<>();
        try (OutputStream output = Files.newOutputStream(path)) {
            List<FileColumn> columns = List.of(FileColumn.largeVariableWidth(VARBINARY), FileColumn.largeVariableWidth(VARCHAR));
            LanceFileWriter writer = new LanceFileWriter(output, 2, minor, columns, options, TestLanceFileWriterLargeOffsets::descriptor, pageBytes);
            for (int batch = 0; batch < BATCHES; batch++) {
                writer.write(randomPage(random, 1 + random.nextInt(3000), binaries, texts));
            }
            writer.finish();
        }
        String where = "format 2.%s, seed %s, %s, pages of %s bytes".formatted(minor, seed, options, pageBytes);

        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator);
                ArrowReader arrow = reader.readAll(List.of("binary", "text"), null, 4096)) {
            List<Object> sdkBinaries = new ArrayList<>();
            List<Object> sdkTexts = new ArrayList<>();
            while (arrow.loadNextBatch()) {
                LargeVarBinaryVector binary = (LargeVarBinaryVector) arrow.getVectorSchemaRoot().getVector("binary");
                LargeVarCharVector text = (LargeVarCharVector) arrow.getVectorSchemaRoot().getVector("text");
                for (int row = 0; row < binary.getValueCount(); row++) {
                    sdkBinaries.add(binary.isNull(row) ? null : HexFormat.of().formatHex(binary.get(row)));
                    sdkTexts.add(text.isNull(row) ? null : new String(text.get(row), UTF_8));
                }
            }
            assertSameRows(sdkBinaries, binaries, where + ", binaries read by the SDK");
            assertSameRows(sdkTexts, texts, where + ", texts read by the SDK");
        }

        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        int rows = binaries.size();
        Block binary = LanceColumnReader.read(file, metadata, 0, VARBINARY, 0, rows);
        Block text = LanceColumnReader.read(file, metadata, 1, VARCHAR, 0, rows);
        List<Object> javaBinaries = new ArrayList<>();
        List<Object> javaTexts = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            javaBinaries.add(binary.isNull(row) ? null : HexFormat.of().formatHex(VARBINARY.getSlice(binary, row).getBytes()));
            javaTexts.add(text.isNull(row) ? null : VARCHAR.getSlice(text, row).toStringUtf8());
        }
        assertSameRows(javaBinaries, binaries, where + ", binaries read by the Java reader");
        assertSameRows(javaTexts, texts, where + ", texts read by the Java reader");

        Set<String> encodings = new TreeSet<>();
        for (int column = 0; column < 2; column++) {
            for (LancePage page : metadata.columns().get(column).pages()) {
                if (page.layout().hasFullZipLayout()) {
                    encodings.add("%s %s full-zip".formatted(column == 0 ? "binary" : "text", page.layout().getFullZipLayout().getBitsPerOffset()));
                    continue;
                }
                var compression = page.layout().getMiniBlockLayout().getValueCompression();
                boolean general = compression.hasGeneral();
                var variable = general ? compression.getGeneral().getValues().getVariable() : compression.getVariable();
                encodings.add("%s %s %s".formatted(column == 0 ? "binary" : "text", variable.getOffsets().getFlat().getBitsPerValue(), general ? "general" : "plain"));
            }
        }
        return encodings;
    }

    private static byte[] descriptor(long rows)
    {
        List<Field> fields = List.of(Field.nullable("binary", ArrowType.LargeBinary.INSTANCE), Field.nullable("text", ArrowType.LargeUtf8.INSTANCE));
        Schema schema = Schema.newBuilder().addAllFields(LanceFields.fromArrow(fields, 0)).build();
        return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
    }

    /** Random values: NULL, empty, short and repetitive (compressible), now and then tens of KiB of random bytes. */
    private static Page randomPage(Random random, int rows, List<Object> binaries, List<Object> texts)
    {
        BlockBuilder binary = VARBINARY.createBlockBuilder(null, rows);
        BlockBuilder text = VARCHAR.createBlockBuilder(null, rows);
        boolean nulls = random.nextBoolean();
        for (int row = 0; row < rows; row++) {
            if (nulls && random.nextInt(5) == 0) {
                binary.appendNull();
                text.appendNull();
                binaries.add(null);
                texts.add(null);
                continue;
            }
            int length = random.nextInt(50) == 0 ? 10_000 + random.nextInt(30_000) : random.nextInt(60);
            byte[] bytes = new byte[length];
            if (random.nextBoolean()) {
                random.nextBytes(bytes);
            }
            String value = "{\"k\": %s, \"v\": \"%s\"}".formatted(random.nextInt(100), "x".repeat(length));
            VARBINARY.writeSlice(binary, Slices.wrappedBuffer(bytes));
            VARCHAR.writeSlice(text, Slices.utf8Slice(value));
            binaries.add(HexFormat.of().formatHex(bytes));
            texts.add(value);
        }
        return new Page(binary.build(), text.build());
    }
}
