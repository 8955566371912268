package io.lancetrino.split;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import io.lancetrino.sharing.recipient.SharedLocation;

import java.nio.file.Path;
import java.util.Optional;

import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.SECONDS;

public class LanceConfig
{
    private String warehouse;
    private int maxSplitRows = 1 << 20;
    private int readBatchRows = 8192;
    private DataSize manifestCacheSize = DataSize.of(256, MEGABYTE);
    private DataSize indexCacheSize = DataSize.of(256, MEGABYTE);
    private DataSize pageBufferCacheSize = DataSize.of(64, MEGABYTE);
    private DataSize searchIndexCacheSize = DataSize.of(1024, MEGABYTE);
    private DataSize readerMemoryLimit = DataSize.of(2048, MEGABYTE);
    private Duration dynamicFilteringWaitTimeout = new Duration(1, SECONDS);
    private Duration cleanupMinRetention = new Duration(7, DAYS);
    private LanceFileReaderType fileReader = LanceFileReaderType.JAVA;
    private LanceFileWriterType fileWriter = LanceFileWriterType.JAVA;
    private long fileMetadataCachePages = 1_000_000;
    private String sharingProfile;

    public String getWarehouse()
    {
        return warehouse;
    }

    @Config("lance.warehouse")
    @ConfigDescription("Directory or URI whose subdirectories are schemas holding <table>.lance datasets")
    public LanceConfig setWarehouse(String warehouse)
    {
        this.warehouse = warehouse;
        return this;
    }

    @Min(1)
    @Max(Integer.MAX_VALUE)
    public int getMaxSplitRows()
    {
        return maxSplitRows;
    }

    @Config("lance.max-split-rows")
    @ConfigDescription("Fragments with more physical rows are read as several row-range splits")
    public LanceConfig setMaxSplitRows(int maxSplitRows)
    {
        this.maxSplitRows = maxSplitRows;
        return this;
    }

    @Min(1)
    @Max(1 << 20)
    public int getReadBatchRows()
    {
        return readBatchRows;
    }

    @Config("lance.read-batch-rows")
    @ConfigDescription("Rows per page read from Lance data files")
    public LanceConfig setReadBatchRows(int readBatchRows)
    {
        this.readBatchRows = readBatchRows;
        return this;
    }

    @NotNull
    public DataSize getManifestCacheSize()
    {
        return manifestCacheSize;
    }

    @Config("lance.manifest-cache-size")
    @ConfigDescription("Memory for parsed manifests, which are immutable and shared by queries")
    public LanceConfig setManifestCacheSize(DataSize manifestCacheSize)
    {
        this.manifestCacheSize = manifestCacheSize;
        return this;
    }

    @NotNull
    public DataSize getPageBufferCacheSize()
    {
        return pageBufferCacheSize;
    }

    @Config("lance.page-buffer-cache-size")
    @ConfigDescription("Memory for the chunk tables and dictionaries of data file pages that reads of a few index-selected rows need every time; 0B turns the cache off")
    public LanceConfig setPageBufferCacheSize(DataSize pageBufferCacheSize)
    {
        this.pageBufferCacheSize = pageBufferCacheSize;
        return this;
    }

    @NotNull
    public DataSize getIndexCacheSize()
    {
        return indexCacheSize;
    }

    @NotNull
    public DataSize getSearchIndexCacheSize()
    {
        return searchIndexCacheSize;
    }

    @Config("lance.search.index-cache-size")
    @ConfigDescription("Memory of the Lance SDK's cache of vector and text indexes (centroids, codebooks, graphs, posting lists) between searches")
    public LanceConfig setSearchIndexCacheSize(DataSize searchIndexCacheSize)
    {
        this.searchIndexCacheSize = searchIndexCacheSize;
        return this;
    }

    @Config("lance.index-cache-size")
    @ConfigDescription("Memory for what scalar index lookups reuse (page lookups, bitmaps, zone maps); 0B turns the cache off")
    public LanceConfig setIndexCacheSize(DataSize indexCacheSize)
    {
        this.indexCacheSize = indexCacheSize;
        return this;
    }

    @NotNull
    public DataSize getReaderMemoryLimit()
    {
        return readerMemoryLimit;
    }

    @Config("lance.reader-memory-limit")
    @ConfigDescription("Upper bound of Arrow memory held by all Lance readers of one node")
    public LanceConfig setReaderMemoryLimit(DataSize readerMemoryLimit)
    {
        this.readerMemoryLimit = readerMemoryLimit;
        return this;
    }

    @NotNull
    public Duration getDynamicFilteringWaitTimeout()
    {
        return dynamicFilteringWaitTimeout;
    }

    @Config("lance.dynamic-filtering.wait-timeout")
    @ConfigDescription("How long split scheduling waits for dynamic filters from a join's build side before reading")
    public LanceConfig setDynamicFilteringWaitTimeout(Duration dynamicFilteringWaitTimeout)
    {
        this.dynamicFilteringWaitTimeout = dynamicFilteringWaitTimeout;
        return this;
    }

    @NotNull
    public Duration getCleanupMinRetention()
    {
        return cleanupMinRetention;
    }

    @Config("lance.cleanup.min-retention")
    @ConfigDescription("Shortest retention_threshold cleanup accepts; versions and unreferenced files younger than the threshold are kept")
    public LanceConfig setCleanupMinRetention(Duration cleanupMinRetention)
    {
        this.cleanupMinRetention = cleanupMinRetention;
        return this;
    }

    @NotNull
    public LanceFileReaderType getFileReader()
    {
        return fileReader;
    }

    @Config("lance.file-reader")
    @ConfigDescription("Reader of data files: java decodes what it can and falls back to the Lance SDK per file and column; sdk reads everything through the SDK")
    public LanceConfig setFileReader(LanceFileReaderType fileReader)
    {
        this.fileReader = fileReader;
        return this;
    }

    @NotNull
    public LanceFileWriterType getFileWriter()
    {
        return fileWriter;
    }

    @Config("lance.file-writer")
    @ConfigDescription("Writer of data files: java encodes the files of tables whose columns it writes and leaves the others to the Lance SDK; sdk writes every file through the SDK")
    public LanceConfig setFileWriter(LanceFileWriterType fileWriter)
    {
        this.fileWriter = fileWriter;
        return this;
    }

    @Min(0)
    public long getFileMetadataCachePages()
    {
        return fileMetadataCachePages;
    }

    @Config("lance.file-metadata-cache-pages")
    @ConfigDescription("Bound of the Java reader's cache of data file metadata, in pages described (a few hundred bytes each); 0 disables it")
    public LanceConfig setFileMetadataCachePages(long fileMetadataCachePages)
    {
        this.fileMetadataCachePages = fileMetadataCachePages;
        return this;
    }

    public Optional<Path> getSharingProfile()
    {
        return Optional.ofNullable(sharingProfile).map(Path::of);
    }

    @Config("lance.sharing.profile")
    @ConfigDescription("Profile file (endpoint and bearer token) of a Lance sharing server: the catalog then shows the tables shared with this recipient, read-only, instead of a warehouse")
    public LanceConfig setSharingProfile(String sharingProfile)
    {
        this.sharingProfile = sharingProfile;
        return this;
    }

    @AssertTrue(message = "Exactly one of lance.warehouse and lance.sharing.profile must be set")
    public boolean isWarehouseOrSharingProfile()
    {
        return (warehouse == null) != (sharingProfile == null);
    }

    /**
     * Where the catalog's schemas are: the warehouse, or the shares of the sharing profile.
     */
    public String getCatalogRoot()
    {
        return sharingProfile != null ? SharedLocation.ROOT : warehouse;
    }
}
