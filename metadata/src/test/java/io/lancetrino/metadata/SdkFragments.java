package io.lancetrino.metadata;

import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.WriteParams;

import java.util.Arrays;
import java.util.List;

/**
 * Data files written by the Lance SDK for table-layer tests: one {@code id bigint} column holding consecutive ids.
 */
public final class SdkFragments
{
    public static final Schema SCHEMA = new Schema(List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

    private SdkFragments() {}

    public static List<FragmentMetadata> write(BufferAllocator allocator, String datasetUri, long firstId, int rows)
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            BigIntVector ids = (BigIntVector) root.getVector(0);
            ids.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                ids.set(i, firstId + i);
            }
            root.setRowCount(rows);
            return Fragment.create(datasetUri, allocator, root, new WriteParams.Builder().build());
        }
    }

    /**
     * The fragments as manifest entries, ready for a transaction of ours.
     */
    public static List<DataFragment> writeProtos(BufferAllocator allocator, String datasetUri, long firstId, int rows)
    {
        return write(allocator, datasetUri, firstId, rows).stream().map(SdkFragments::toProto).toList();
    }

    public static DataFragment toProto(FragmentMetadata fragment)
    {
        DataFragment.Builder builder = DataFragment.newBuilder().setPhysicalRows(fragment.getPhysicalRows());
        for (org.lance.fragment.DataFile file : fragment.getFiles()) {
            DataFile.Builder data = DataFile.newBuilder()
                    .setPath(file.getPath())
                    .addAllFields(Arrays.stream(file.getFields()).boxed().toList())
                    .addAllColumnIndices(Arrays.stream(file.getColumnIndices()).boxed().toList())
                    .setFileMajorVersion(file.getFileMajorVersion())
                    .setFileMinorVersion(file.getFileMinorVersion())
                    .setFileSizeBytes(file.getFileSizeBytes() == null ? 0 : file.getFileSizeBytes());
            file.getBaseId().ifPresent(data::setBaseId);
            builder.addFiles(data);
        }
        return builder.build();
    }
}
