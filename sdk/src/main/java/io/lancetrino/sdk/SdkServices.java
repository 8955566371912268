package io.lancetrino.sdk;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.plugin.index.IndexSpec;
import io.lancetrino.plugin.sdk.LanceSdk;
import io.lancetrino.plugin.write.DataFileWriter;
import io.lancetrino.split.JvmRequirements;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceSplit;
import io.lancetrino.split.sdk.SdkSplitReads;
import io.lancetrino.split.search.AnnSearch;
import io.lancetrino.split.search.LanceSearchSplit;
import io.lancetrino.split.search.TextSearch;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The connector's SDK features of one catalog. Arrow memory the SDK exchanges comes from one root allocator, limited
 * by {@code lance.reader-memory-limit}; the search session (the SDK's index cache) is created on the first search.
 */
final class SdkServices
        implements LanceSdk
{
    // manifests the SDK caches per search are small; its index cache is the one that matters
    private static final long SEARCH_METADATA_CACHE_BYTES = 64L << 20;

    private final BufferAllocator rootAllocator;
    private final SdkSearches searches;

    SdkServices(LanceConfig config)
    {
        this.rootAllocator = ArrowAllocators.newRootAllocator(config.getReaderMemoryLimit().toBytes());
        this.searches = new SdkSearches(config.getSearchIndexCacheSize().toBytes(), SEARCH_METADATA_CACHE_BYTES);
    }

    @Override
    public void checkAvailable(String feature)
    {
        JvmRequirements.checkSdk(feature);
    }

    @Override
    public SdkSplitReads openSplit(LanceSplit split, Map<String, String> storageOptions, TableFileSystem fileSystem)
    {
        return new SdkSplitFileReads(split, rootAllocator, storageOptions, fileSystem);
    }

    @Override
    public ConnectorPageSource search(LanceSearchSplit split, Optional<AnnSearch> vectorSearch, Optional<TextSearch> textSearch, List<ColumnHandle> columns, Map<String, String> storageOptions)
    {
        BufferAllocator allocator = rootAllocator.newChildAllocator("search", 0, rootAllocator.getLimit());
        return new SdkSearchPageSource(split, vectorSearch, textSearch, columns, searches, storageOptions, allocator);
    }

    @Override
    public void createIndex(String datasetLocation, Map<String, String> storageOptions, IndexSpec spec, boolean replace, int dimension, long liveRows)
    {
        SdkIndexes.create(datasetLocation, storageOptions, spec, replace, dimension, liveRows);
    }

    @Override
    public void optimizeIndex(String datasetLocation, Map<String, String> storageOptions, String name)
    {
        SdkIndexes.optimize(datasetLocation, storageOptions, name);
    }

    @Override
    public DataFileWriter createFileWriter(TableFileSystem fileSystem, String location, List<Type> types, Schema arrowSchema, String fileFormatVersion, Map<String, String> storageOptions)
            throws IOException
    {
        return new SdkDataFileWriter(fileSystem, location, types, arrowSchema, fileFormatVersion, storageOptions, rootAllocator);
    }

    @Override
    public void close()
    {
        searches.close();
        rootAllocator.close();
    }
}
