package io.lancetrino.split.sdk;

import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.split.ColumnStream;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceDataFile;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.RowRange;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceSearchSplit;
import io.lancetrino.split.search.TextSearch;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads without the SDK add-on: each one that needs the SDK fails, naming the table, the file or search, and the add-on.
 */
public class MissingSdkReads
        implements SdkReads
{
    @Override
    public SdkSplitReads openSplit(LanceSplit split, Map<String, String> storageOptions, TableFileSystem fileSystem)
    {
        return new SdkSplitReads()
        {
            @Override
            public Schema schema(LanceDataFile file)
            {
                throw missing(split, file);
            }

            @Override
            public ColumnStream readFile(LanceDataFile file, List<Integer> columns, List<String> names, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows)
            {
                throw missing(split, file);
            }

            @Override
            public ColumnStream takeThroughDataset(LanceDataFile file, List<Integer> columns, List<LanceColumnHandle> handles, List<RowRange> ranges, int batchRows)
            {
                throw missing(split, file);
            }

            @Override
            public long allocatedBytes()
            {
                return 0;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public ConnectorPageSource search(LanceSearchSplit split, Optional<AnnSearch> vectorSearch, Optional<TextSearch> textSearch, List<ColumnHandle> columns, Map<String, String> storageOptions)
    {
        throw SdkAddOn.missing("run the %s on table %s".formatted(vectorSearch.map(Object::toString).orElseGet(() -> textSearch.orElseThrow().toString()), split.table()));
    }

    private static RuntimeException missing(LanceSplit split, LanceDataFile file)
    {
        // the Java reader declined the file (format 2.0, or an encoding it lacks) or the session asked for the SDK reader
        return SdkAddOn.missing("read data file %s of table %s (fragment %s), which the Java reader does not read".formatted(file.location(), split.table(), split.fragmentId()));
    }
}
