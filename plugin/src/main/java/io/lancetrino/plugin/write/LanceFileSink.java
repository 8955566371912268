package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.split.LanceFileWriterType;
import io.lancetrino.split.arrow.TrinoTypes;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.LanceErrorCode.LANCE_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Writes pages into new Lance data files, one fragment per file of at most {@code maxRowsPerFile} rows, and describes
 * each as a {@link DataFragment} whose ids the commit assigns. The files are encoded by the Java writer where it writes
 * every column of the table, else by the Lance SDK.
 */
public final class LanceFileSink
{
    private final TableFileSystem fileSystem;
    private final Map<String, String> storageOptions;
    private final String dataDirectory;
    private final List<LanceField> fields;
    private final List<Type> types;
    private final Schema arrowSchema;
    private final boolean javaWriter;
    private final String fileFormatVersion;
    private final List<Integer> storedFieldIds;
    private final int maxRowsPerFile;
    private final String queryId;
    private final LanceSdk sdk;

    private final List<DataFragment> fragments = new ArrayList<>();
    private final List<String> writtenFiles = new ArrayList<>();
    private DataFileWriter writer;
    private String currentName;
    private long currentRows;
    private long writtenBytes;

    /**
     * A sink for pages holding one block per field of {@code fields}, in order, written under
     * {@code datasetLocation/data}.
     */
    public static LanceFileSink create(TableFileSystem fileSystem, Map<String, String> storageOptions, String datasetLocation, List<LanceField> fields, TypeManager typeManager, String fileFormatVersion, int maxRowsPerFile, LanceFileWriterType writerType, String queryId, LanceSdk sdk)
    {
        List<Type> types = fields.stream()
                .map(field -> TrinoTypes.toTrinoType(field, typeManager).orElseThrow(() -> new IllegalArgumentException("Field %s has no Trino type".formatted(field.name()))))
                .collect(toImmutableList());
        boolean javaWriter = writerType == LanceFileWriterType.JAVA && JavaDataFileWriter.supports(fields, types, fileFormatVersion);
        if (!javaWriter) {
            sdk.checkAvailable("write data files of format %s under %s with the SDK writer (lance.file-writer = %s)".formatted(fileFormatVersion, datasetLocation, writerType.name().toLowerCase(Locale.ROOT)));
        }
        return new LanceFileSink(fileSystem, storageOptions, datasetLocation, fields, types, fileFormatVersion, maxRowsPerFile, javaWriter, queryId, sdk);
    }

    private LanceFileSink(TableFileSystem fileSystem, Map<String, String> storageOptions, String datasetLocation, List<LanceField> fields, List<Type> types, String fileFormatVersion, int maxRowsPerFile, boolean javaWriter, String queryId, LanceSdk sdk)
    {
        this.fields = ImmutableList.copyOf(fields);
        this.javaWriter = javaWriter;
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.storageOptions = ImmutableMap.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
        this.dataDirectory = TableFileSystem.join(datasetLocation, "data");
        this.types = ImmutableList.copyOf(types);
        this.arrowSchema = LanceFields.toArrowSchema(fields);
        this.fileFormatVersion = requireNonNull(fileFormatVersion, "fileFormatVersion is null");
        this.storedFieldIds = LanceDataFileLayout.storedFieldIds(fields, fileFormatVersion);
        this.maxRowsPerFile = maxRowsPerFile;
        this.sdk = requireNonNull(sdk, "sdk is null");
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
            try {
                writer.write(chunk);
            }
            catch (IOException e) {
                throw new TrinoException(LANCE_FILESYSTEM_ERROR, "Cannot write Lance data file %s/%s: %s".formatted(dataDirectory, currentName, e.getMessage()), e);
            }
            catch (IllegalArgumentException e) {
                // values the format cannot hold, found before anything is committed
                throw new TrinoException(LANCE_BAD_DATA, "Cannot write Lance data file %s/%s: %s".formatted(dataDirectory, currentName, e.getMessage()), e);
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
            writer.abort();
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

    /** The Java writer's buffered pages, or the SDK writer's Arrow memory. */
    long memoryUsage()
    {
        return writer == null ? 0 : writer.retainedBytes();
    }

    private void openFile()
    {
        currentName = DataFileNames.next(queryId);
        currentRows = 0;
        String location = TableFileSystem.join(dataDirectory, currentName);
        try {
            fileSystem.createDirectory(dataDirectory);
            writer = javaWriter
                    ? new JavaDataFileWriter(fileSystem, location, fields, arrowSchema, types, fileFormatVersion)
                    : sdk.createFileWriter(fileSystem, location, types, arrowSchema, fileFormatVersion, storageOptions);
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
            size = writer.finish();
        }
        catch (IllegalArgumentException e) {
            // values the format cannot hold, found as the file's last pages are encoded; nothing is committed
            throw new TrinoException(LANCE_BAD_DATA, "Cannot write Lance data file %s: %s".formatted(location, e.getMessage()), e);
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
