package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.split.arrow.ArrowWriters;
import io.lancetrino.split.arrow.TrinoTypes;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.file.LanceFileWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.lancetrino.split.LanceErrorCode.LANCE_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Writes pages into new Lance data files through the Lance SDK, one fragment per file of at most
 * {@code maxRowsPerFile} rows, and describes each as a {@link DataFragment} whose ids the commit assigns.
 */
public final class LanceFileSink
{
    private final TableFileSystem fileSystem;
    private final Map<String, String> storageOptions;
    private final String dataDirectory;
    private final List<Type> types;
    private final Schema arrowSchema;
    private final String fileFormatVersion;
    private final List<Integer> storedFieldIds;
    private final int maxRowsPerFile;
    private final String queryId;
    private final BufferAllocator allocator;

    private final List<DataFragment> fragments = new ArrayList<>();
    private final List<String> writtenFiles = new ArrayList<>();
    private LanceFileWriter writer;
    private String currentName;
    private long currentRows;
    private long writtenBytes;

    /**
     * A sink for pages holding one block per field of {@code fields}, in order, written under
     * {@code datasetLocation/data}; the caller closes the allocator after {@link #finish} or {@link #abort}.
     */
    public static LanceFileSink create(TableFileSystem fileSystem, Map<String, String> storageOptions, String datasetLocation, List<LanceField> fields, TypeManager typeManager, String fileFormatVersion, int maxRowsPerFile, String queryId, BufferAllocator allocator)
    {
        List<Type> types = fields.stream()
                .map(field -> TrinoTypes.toTrinoType(field, typeManager).orElseThrow(() -> new IllegalArgumentException("Field %s has no Trino type".formatted(field.name()))))
                .collect(toImmutableList());
        return new LanceFileSink(fileSystem, storageOptions, datasetLocation, fields, types, fileFormatVersion, maxRowsPerFile, queryId, allocator);
    }

    private LanceFileSink(TableFileSystem fileSystem, Map<String, String> storageOptions, String datasetLocation, List<LanceField> fields, List<Type> types, String fileFormatVersion, int maxRowsPerFile, String queryId, BufferAllocator allocator)
    {
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.storageOptions = ImmutableMap.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
        this.dataDirectory = TableFileSystem.join(datasetLocation, "data");
        this.types = ImmutableList.copyOf(types);
        this.arrowSchema = LanceFields.toArrowSchema(fields);
        this.fileFormatVersion = requireNonNull(fileFormatVersion, "fileFormatVersion is null");
        this.storedFieldIds = LanceDataFileLayout.storedFieldIds(fields, fileFormatVersion);
        this.maxRowsPerFile = maxRowsPerFile;
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    public void append(Page page)
    {
        int position = 0;
        while (position < page.getPositionCount()) {
            if (writer == null) {
                openFile();
            }
            int rows = (int) Math.min(page.getPositionCount() - position, maxRowsPerFile - currentRows);
            Page chunk = position == 0 && rows == page.getPositionCount() ? page : page.getRegion(position, rows);
            try (VectorSchemaRoot root = ArrowWriters.toArrow(chunk, types, arrowSchema, allocator)) {
                writer.write(root);
            }
            catch (IOException e) {
                throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot write Lance data file %s/%s: %s".formatted(dataDirectory, currentName, e.getMessage()), e);
            }
            currentRows += rows;
            position += rows;
            if (currentRows >= maxRowsPerFile) {
                closeFile();
            }
        }
    }

    public List<DataFragment> finish()
    {
        if (writer != null) {
            closeFile();
        }
        return ImmutableList.copyOf(fragments);
    }

    /**
     * Deletes every file this sink wrote, also after {@link #finish}, for a change that will not be committed.
     */
    public void abort()
    {
        if (writer != null) {
            try {
                writer.close();
            }
            catch (Exception _) {
                // the files are removed below
            }
            writer = null;
        }
        for (String name : writtenFiles) {
            try {
                fileSystem.deleteFile(TableFileSystem.join(dataDirectory, name));
            }
            catch (IOException | RuntimeException _) {
                // an unreferenced file is harmless; cleanup removes it later
            }
        }
    }

    long writtenBytes()
    {
        return writtenBytes;
    }

    long memoryUsage()
    {
        return allocator.getAllocatedMemory();
    }

    private void openFile()
    {
        currentName = DataFileNames.next(queryId);
        currentRows = 0;
        String location = TableFileSystem.join(dataDirectory, currentName);
        try {
            fileSystem.createDirectory(dataDirectory);
            writer = LanceFileWriter.open(LanceFileSystems.nativeLocation(location), allocator, null, Optional.of(fileFormatVersion), storageOptions);
        }
        catch (IOException | RuntimeException e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot create Lance data file %s: %s".formatted(location, e.getMessage()), e);
        }
        writtenFiles.add(currentName);
    }

    private void closeFile()
    {
        String location = TableFileSystem.join(dataDirectory, currentName);
        long size;
        try {
            writer.close();
            size = fileSystem.length(location);
        }
        catch (Exception e) {
            throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot finish Lance data file %s: %s".formatted(location, e.getMessage()), e);
        }
        finally {
            writer = null;
        }
        writtenBytes += size;
        DataFile.Builder file = DataFile.newBuilder()
                .setPath(currentName)
                .addAllFields(storedFieldIds)
                .setFileMajorVersion(LanceDataFileLayout.majorVersion(fileFormatVersion))
                .setFileMinorVersion(LanceDataFileLayout.minorVersion(fileFormatVersion))
                .setFileSizeBytes(size);
        for (int column = 0; column < storedFieldIds.size(); column++) {
            file.addColumnIndices(column);
        }
        fragments.add(DataFragment.newBuilder().addFiles(file).setPhysicalRows(currentRows).build());
    }
}
