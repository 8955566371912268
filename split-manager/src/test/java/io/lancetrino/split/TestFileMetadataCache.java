package io.lancetrino.split;

import io.airlift.slice.Slice;
import io.trino.filesystem.local.LocalInputFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

final class TestFileMetadataCache
{
    @Test
    void testReadsEachFileOnceUntilItChanges(@TempDir Path directory)
            throws Exception
    {
        Path file = directory.resolve("data.lance");
        writeRows(file, 10);
        FileMetadataCache cache = new FileMetadataCache(1_000);

        DataFileMetadata first = cache.get(new LocalInputFile(file.toFile())).metadata();
        DataFileMetadata second = cache.get(new LocalInputFile(file.toFile())).metadata();
        assertThat(second).isSameAs(first);
        assertThat(cache.reads()).isEqualTo(1);
        assertThat(first.container().columns().getFirst().rows()).isEqualTo(10);

        // replaced in place: another length and modification time
        writeRows(file, 2_000);
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 60_000));
        DataFileMetadata replaced = cache.get(new LocalInputFile(file.toFile())).metadata();
        assertThat(replaced.container().columns().getFirst().rows()).isEqualTo(2_000);
        assertThat(cache.reads()).isEqualTo(2);
    }

    @Test
    void testSharesPageBuffersUntilTheFileChanges(@TempDir Path directory)
            throws Exception
    {
        Path file = directory.resolve("data.lance");
        writeRows(file, 10);
        FileMetadataCache cache = new FileMetadataCache(1_000, 1 << 20);
        List<Long> reads = new java.util.ArrayList<>();
        FileMetadataCache.BufferRead read = (position, length) -> {
            reads.add(position);
            return io.airlift.slice.Slices.wrappedBuffer(new byte[length]);
        };
        Slice first = cache.get(new LocalInputFile(file.toFile())).buffers().get(8, 16, read);
        Slice again = cache.get(new LocalInputFile(file.toFile())).buffers().get(8, 16, read);
        assertThat(again).isSameAs(first);
        cache.get(new LocalInputFile(file.toFile())).buffers().get(64, 16, read);
        assertThat(reads).containsExactly(8L, 64L);

        // replaced in place: its buffers are read again
        writeRows(file, 2_000);
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 60_000));
        cache.get(new LocalInputFile(file.toFile())).buffers().get(8, 16, read);
        assertThat(reads).containsExactly(8L, 64L, 8L);
        assertThat(cache.pageBufferReads()).isEqualTo(3);
    }

    @Test
    void testZeroPagesDisablesTheCache(@TempDir Path directory)
            throws Exception
    {
        Path file = directory.resolve("data.lance");
        writeRows(file, 10);
        FileMetadataCache cache = new FileMetadataCache(0);
        DataFileMetadata first = cache.get(new LocalInputFile(file.toFile())).metadata();
        DataFileMetadata second = cache.get(new LocalInputFile(file.toFile())).metadata();
        assertThat(second).isNotSameAs(first);
        assertThat(cache.reads()).isEqualTo(2);
    }

    private static void writeRows(Path file, int rows)
            throws Exception
    {
        Files.deleteIfExists(file);
        Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(32, true))));
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                LanceFileWriter writer = LanceFileWriter.open(file.toString(), allocator, null, Optional.of("2.1"), Map.of())) {
            IntVector vector = (IntVector) root.getVector("x");
            vector.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                vector.set(i, i);
            }
            root.setRowCount(rows);
            writer.write(root);
        }
    }
}
