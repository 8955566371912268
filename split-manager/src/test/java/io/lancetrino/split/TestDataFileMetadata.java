package io.lancetrino.split;

import io.trino.filesystem.local.LocalInputFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schema the page source resolves columns by comes from the file's descriptor, not from the SDK's reader: both
 * must describe the file alike.
 */
final class TestDataFileMetadata
{
    @Test
    void testDescriptorSchemaIsTheSdkReadersSchema(@TempDir Path directory)
            throws Exception
    {
        Schema schema = new Schema(List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.notNullable("small", new ArrowType.Int(16, true)),
                Field.nullable("flag", ArrowType.Bool.INSTANCE),
                Field.nullable("price", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                Field.nullable("amount", new ArrowType.Decimal(38, 4, 128)),
                Field.nullable("name", ArrowType.Utf8.INSTANCE),
                Field.nullable("body", ArrowType.LargeUtf8.INSTANCE),
                Field.nullable("raw", ArrowType.Binary.INSTANCE),
                Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
                Field.nullable("at", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
                Field.nullable("local", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE))),
                new Field("embedding", FieldType.nullable(new ArrowType.FixedSizeList(4)), List.of(Field.nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)))),
                new Field("address", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                        Field.nullable("city", ArrowType.Utf8.INSTANCE),
                        new Field("points", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", new ArrowType.Int(32, true)))))),
                new Field("annotated", new FieldType(true, ArrowType.Utf8.INSTANCE, null, Map.of("lance-encoding:compression", "zstd")), List.of())));
        Path file = directory.resolve("data.lance");
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            for (FieldVector vector : root.getFieldVectors()) {
                vector.allocateNew();
            }
            // a NOT NULL column's one value; every other column holds one null
            ((org.apache.arrow.vector.SmallIntVector) root.getVector("small")).setSafe(0, 7);
            root.setRowCount(1);
            try (LanceFileWriter writer = LanceFileWriter.open(file.toString(), allocator, null, Optional.of("2.1"), Map.of())) {
                writer.write(root);
            }
            DataFileMetadata metadata = DataFileMetadata.read(new LocalInputFile(file.toFile()));
            try (LanceFileReader reader = LanceFileReader.open(file.toString(), allocator)) {
                assertThat(metadata.schema()).isPresent();
                assertThat(metadata.schema().get().getFields()).isEqualTo(reader.schema().getFields());
            }
            assertThat(metadata.container().columns()).isNotEmpty();
        }
    }
}
