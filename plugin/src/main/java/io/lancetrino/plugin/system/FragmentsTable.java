package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.ArrayType;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The fragments of one version with their resolved file locations; {@code base_path} is set when the fragment's files
 * live in another dataset (a branch's parent or a clone's source).
 */
final class FragmentsTable
        extends InMemorySystemTable
{
    private static final ArrayType FILE_LIST = new ArrayType(VARCHAR);

    private final TableSnapshot snapshot;

    FragmentsTable(SchemaTableName name, LanceTable table, TableSnapshot snapshot)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("id", BIGINT),
                new ColumnMetadata("physical_rows", BIGINT),
                new ColumnMetadata("deleted_rows", BIGINT),
                new ColumnMetadata("data_files", FILE_LIST),
                new ColumnMetadata("deletion_file", VARCHAR),
                new ColumnMetadata("base_path", VARCHAR)));
        this.snapshot = snapshot;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            BlockBuilder files = VARCHAR.createBlockBuilder(null, fragment.getFilesCount());
            for (DataFile file : fragment.getFilesList()) {
                VARCHAR.writeSlice(files, utf8Slice(FilePaths.dataFile(snapshot, fragment, file)));
            }
            String basePath = fragment.getFilesList().stream()
                    .filter(DataFile::hasBaseId)
                    .findFirst()
                    .flatMap(file -> snapshot.manifest().getBasePathsList().stream().filter(base -> base.getId() == file.getBaseId()).findFirst())
                    .map(BasePath::getPath)
                    .orElse(null);
            rows.addRow(
                    fragment.getId(),
                    fragment.getPhysicalRows(),
                    VersionSummary.deletedRows(fragment),
                    files.build(),
                    FilePaths.deletionFile(snapshot, fragment).orElse(null),
                    basePath);
        }
    }
}
