package io.lancetrino.split;

import com.google.protobuf.InvalidProtocolBufferException;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.metadata.schema.LanceSchema;
import io.trino.filesystem.TrinoInputFile;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the Java reader needs of a data file before reading a column: the container (pages and their layouts) and the
 * Arrow schema the file was written with, taken from its {@code FileDescriptor} so no column is resolved through the
 * Lance SDK.
 *
 * @param schema empty when the descriptor holds a type plain Arrow cannot express here (a dictionary), which leaves
 * the file to the SDK's reader
 */
public record DataFileMetadata(LanceFileMetadata container, Optional<Schema> schema)
{
    // a file's schema is a few kilobytes; more than this is a damaged buffer table
    private static final long MAX_DESCRIPTOR_BYTES = 16 * 1024 * 1024;

    public DataFileMetadata
    {
        requireNonNull(container, "container is null");
        requireNonNull(schema, "schema is null");
    }

    static DataFileMetadata read(TrinoInputFile file)
            throws IOException
    {
        LanceFileMetadata container = LanceFileMetadata.read(file);
        if (container.globalBufferCount() == 0 || container.globalBuffers().getFirst().size() > MAX_DESCRIPTOR_BYTES) {
            return new DataFileMetadata(container, Optional.empty());
        }
        FileDescriptor descriptor;
        try {
            descriptor = FileDescriptor.parseFrom(container.readGlobalBuffer(file, 0).toByteBuffer());
        }
        catch (InvalidProtocolBufferException e) {
            throw new IOException("Corrupt Lance file %s: its schema does not parse: %s".formatted(file.location(), e.getMessage()), e);
        }
        try {
            return new DataFileMetadata(container, Optional.of(LanceFields.toArrowSchema(LanceSchema.fromFields(descriptor.getSchema().getFieldsList()).fields())));
        }
        catch (IllegalArgumentException | LanceTableException _) {
            return new DataFileMetadata(container, Optional.empty());
        }
    }
}
