package io.lancetrino.file;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** Writes Lance files with the SDK (the oracle) and reads columns back through it. */
final class SdkFiles
{
    private SdkFiles() {}

    /** Writes one batch per consumer call; each consumer fills the root and sets its row count. */
    static void write(Path path, String version, BufferAllocator allocator, VectorSchemaRoot root, List<Consumer<VectorSchemaRoot>> batches)
            throws Exception
    {
        try (LanceFileWriter writer = LanceFileWriter.open(path.toString(), allocator, null, Optional.of(version), Map.of())) {
            for (Consumer<VectorSchemaRoot> batch : batches) {
                root.clear();
                root.allocateNew();
                batch.accept(root);
                writer.write(root);
            }
        }
    }

    /** Every value of a column as the SDK reads it, Java objects via Arrow's getObject. */
    static List<Object> readColumn(Path path, BufferAllocator allocator, String column)
            throws Exception
    {
        List<Object> values = new ArrayList<>();
        try (LanceFileReader reader = LanceFileReader.open(path.toString(), allocator);
                ArrowReader arrow = reader.readAll(List.of(column), null, 8192)) {
            while (arrow.loadNextBatch()) {
                FieldVector vector = arrow.getVectorSchemaRoot().getVector(column);
                for (int i = 0; i < vector.getValueCount(); i++) {
                    values.add(vector.getObject(i));
                }
            }
        }
        return values;
    }
}
