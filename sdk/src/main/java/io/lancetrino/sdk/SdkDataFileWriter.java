package io.lancetrino.sdk;

import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.plugin.write.DataFileWriter;
import io.lancetrino.sdk.arrow.ArrowWriters;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.Page;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.file.LanceFileWriter;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A data file written by the Lance SDK: pages become Arrow batches, which the SDK encodes as the fields' lance-encoding
 * metadata asks.
 */
final class SdkDataFileWriter
        implements DataFileWriter
{
    private final TableFileSystem fileSystem;
    private final String location;
    private final List<Type> types;
    private final Schema arrowSchema;
    private final BufferAllocator allocator;
    private final LanceFileWriter writer;

    SdkDataFileWriter(TableFileSystem fileSystem, String location, List<Type> types, Schema arrowSchema, String fileFormatVersion, Map<String, String> storageOptions, BufferAllocator parent)
            throws IOException
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.location = requireNonNull(location, "location is null");
        this.types = requireNonNull(types, "types is null");
        this.arrowSchema = requireNonNull(arrowSchema, "arrowSchema is null");
        this.allocator = parent.newChildAllocator("write-" + location, 0, parent.getLimit());
        try {
            this.writer = LanceFileWriter.open(LanceFileSystems.nativeLocation(location), allocator, null, Optional.of(fileFormatVersion), storageOptions);
        }
        catch (IOException | RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    @Override
    public void write(Page page)
            throws IOException
    {
        try (VectorSchemaRoot root = ArrowWriters.toArrow(page, types, arrowSchema, allocator)) {
            writer.write(root);
        }
    }

    @Override
    public long retainedBytes()
    {
        return allocator.getAllocatedMemory();
    }

    @Override
    public long finish()
            throws IOException
    {
        try {
            writer.close();
        }
        catch (Exception e) {
            throw new IOException(e.getMessage(), e);
        }
        finally {
            allocator.close();
        }
        return fileSystem.length(location);
    }

    @Override
    public void abort()
    {
        try {
            writer.close();
        }
        catch (Exception _) {
            // the caller deletes the file
        }
        allocator.close();
    }
}
