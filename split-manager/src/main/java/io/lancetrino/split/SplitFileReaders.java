package io.lancetrino.split;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.split.fs.LanceFileSystems;
import io.lancetrino.split.sharing.SharingFileSystem;
import io.trino.spi.TrinoException;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.file.LanceFileReader;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.LanceErrorCode.LANCE_MISSING_FILE;
import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_FEATURE;
import static java.util.Objects.requireNonNull;

/**
 * The data file readers of one split, each opened once: the predicate pass and the column streams share them, and
 * they close with the page source.
 */
final class SplitFileReaders
        implements AutoCloseable
{
    private final LanceSplit split;
    private final BufferAllocator allocator;
    private final Map<String, String> storageOptions;
    private final TableFileSystem fileSystem;
    private final Map<String, LanceFileReader> readers = new LinkedHashMap<>();

    SplitFileReaders(LanceSplit split, BufferAllocator allocator, Map<String, String> storageOptions, TableFileSystem fileSystem)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.split = requireNonNull(split, "split is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.storageOptions = ImmutableMap.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
    }

    LanceFileReader open(LanceDataFile file)
    {
        LanceFileReader reader = readers.get(file.location());
        if (reader != null) {
            return reader;
        }
        JvmRequirements.checkSdk("read data file %s of table %s".formatted(file.location(), split.table()));
        try {
            // the SDK cannot read a shared file through its signed URL: it reads a local copy
            String location = fileSystem instanceof SharingFileSystem shares ? shares.localCopy(file.location()).toString() : LanceFileSystems.nativeLocation(file.location());
            reader = LanceFileReader.open(location, storageOptions, allocator);
        }
        catch (IOException | RuntimeException e) {
            throw new TrinoException(LANCE_MISSING_FILE, "Table %s, fragment %s: cannot open data file %s: %s".formatted(split.table(), split.fragmentId(), file.location(), e.getMessage()), e);
        }
        readers.put(file.location(), reader);
        return reader;
    }

    static TrinoException unreadable(LanceSplit split, LanceDataFile file, Exception cause)
    {
        return new TrinoException(LANCE_BAD_DATA, "Table %s, fragment %s: cannot read data file %s: %s".formatted(split.table(), split.fragmentId(), file.location(), cause.getMessage()), cause);
    }

    static TrinoException unreadable(LanceSplit split, LanceDataFile file, String column, Exception cause)
    {
        return new TrinoException(LANCE_BAD_DATA, "Table %s, fragment %s: cannot read column %s of data file %s: %s".formatted(split.table(), split.fragmentId(), column, file.location(), cause.getMessage()), cause);
    }

    /**
     * The SDK's file reader counts the children of a packed struct as columns, so it would read another column's data
     * (or abort inside native code) for a column stored after one; refused instead of read wrongly.
     */
    static TrinoException packedStructBefore(LanceSplit split, LanceDataFile file, LanceColumnHandle column)
    {
        return new TrinoException(LANCE_UNSUPPORTED_FEATURE, ("Table %s, fragment %s: column %s is stored after a packed struct (lance-encoding:packed) in data file %s, " +
                "which the Lance SDK's file reader cannot read; select only the packed struct and the columns stored before it")
                .formatted(split.table(), split.fragmentId(), column.name(), file.location()));
    }

    @Override
    public void close()
    {
        for (LanceFileReader reader : readers.values()) {
            try {
                reader.close();
            }
            catch (Exception _) {
                // closing after a failure must not hide it
            }
        }
        readers.clear();
    }
}
