package io.lancetrino.plugin.write;

import io.airlift.slice.Slices;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.metadata.schema.LanceSchema;
import io.lancetrino.split.LanceFileWriterType;
import io.trino.spi.Page;
import io.trino.spi.block.BlockBuilder;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.sdk.LanceSdks;
import io.lancetrino.split.LanceConfig;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page sink reports to Trino the memory its writer holds: the Java writer's buffered pages are heap, not Arrow
 * memory, and are counted until the file is finished.
 */
final class TestLanceFileSinkMemory
{
    private static final int ROWS = 100_000;

    @Test
    void testJavaWriterBuffersCountAsSinkMemory()
            throws Exception
    {
        Path dataset = Files.createTempDirectory("lance-sink-memory").resolve("t.lance");
        LanceSchema schema = LanceSchema.fromFields(LanceFields.fromArrow(List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.nullable("name", ArrowType.Utf8.INSTANCE)), 0));
        try (LanceSdk sdk = LanceSdks.load(new LanceConfig())) {
            LanceFileSink sink = LanceFileSink.create(new LocalTableFileSystem(), Map.of(), dataset.toString(), schema.fields(), TESTING_TYPE_MANAGER, "2.2", 1_000_000, LanceFileWriterType.JAVA, "memory_test", sdk);
            assertThat(sink.memoryUsage()).isZero();

            BlockBuilder ids = BIGINT.createBlockBuilder(null, ROWS);
            BlockBuilder names = VARCHAR.createBlockBuilder(null, ROWS);
            for (int row = 0; row < ROWS; row++) {
                BIGINT.writeLong(ids, row);
                VARCHAR.writeSlice(names, Slices.utf8Slice("name-" + row));
            }
            sink.append(new Page(ids.build(), names.build()));
            // the buffered longs and strings are the writer's own heap memory
            assertThat(sink.memoryUsage()).isGreaterThanOrEqualTo((long) ROWS * (Long.BYTES + "name-99999".length()));

            assertThat(sink.finish()).hasSize(1);
            assertThat(sink.memoryUsage()).isZero();
        }
    }
}
