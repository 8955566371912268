package io.lancetrino.split.sdk;

import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceSearchSplit;
import io.lancetrino.split.search.TextSearch;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reads that go through the Lance SDK: files or columns the Java reader does not decode, and vector and text
 * searches. Implemented by the SDK add-on; without it each read fails naming the add-on ({@link MissingSdkReads}).
 */
public interface SdkReads
{
    /** The SDK's reads of one split's data files; they close with the split's page source. */
    SdkSplitReads openSplit(LanceSplit split, Map<String, String> storageOptions, TableFileSystem fileSystem);

    /** The rows of one vector or text search, run by the SDK over the split's version. */
    ConnectorPageSource search(LanceSearchSplit split, Optional<AnnSearch> vectorSearch, Optional<TextSearch> textSearch, List<ColumnHandle> columns, Map<String, String> storageOptions);
}
