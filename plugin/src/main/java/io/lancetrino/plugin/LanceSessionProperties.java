package io.lancetrino.plugin;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.lancetrino.procedures.CleanupOperations;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceFileReaderType;
import io.lancetrino.split.LanceFileWriterType;
import io.lancetrino.split.LancePageSourceProvider;
import io.lancetrino.split.LanceSplitManager;
import io.lancetrino.split.search.VectorSearchMode;
import io.lancetrino.plugin.search.VectorSearchParameters;
import io.lancetrino.plugin.write.LancePageSinkProvider;
import io.trino.spi.TrinoException;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.plugin.base.session.PropertyMetadataUtil.durationProperty;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.enumProperty;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.StandardErrorCode.INVALID_SESSION_PROPERTY;

public final class LanceSessionProperties
{
    private final List<PropertyMetadata<?>> properties;

    @Inject
    public LanceSessionProperties(LanceConfig config)
    {
        properties = ImmutableList.of(
                durationProperty(
                        CleanupOperations.MIN_RETENTION_PROPERTY,
                        "Shortest retention_threshold cleanup accepts",
                        config.getCleanupMinRetention(),
                        false),
                enumProperty(
                        LancePageSourceProvider.FILE_READER_PROPERTY,
                        "Reader of data files: JAVA (falls back to the SDK per file and column) or SDK",
                        LanceFileReaderType.class,
                        config.getFileReader(),
                        false),
                enumProperty(
                        LancePageSinkProvider.FILE_WRITER_PROPERTY,
                        "Writer of data files: JAVA (for tables of format 2.2 whose columns it writes; the SDK writes the others) or SDK",
                        LanceFileWriterType.class,
                        config.getFileWriter(),
                        false),
                durationProperty(
                        LanceSplitManager.DYNAMIC_FILTERING_WAIT_TIMEOUT_PROPERTY,
                        "How long a scan waits for a join's dynamic filter before it plans its splits",
                        config.getDynamicFilteringWaitTimeout(),
                        false),
                booleanProperty(
                        LanceSplitManager.USE_SCALAR_INDEX_PROPERTY,
                        "Answer filters from the table's scalar indexes (btree, bitmap, zonemap) where they cover the fragments; false scans",
                        true,
                        false),
                enumProperty(
                        VectorSearchMode.PROPERTY,
                        "ORDER BY <vector function> LIMIT n: EXACT computes distances and each split's nearest rows in the scan, exactly as the engine would; APPROXIMATE searches through a vector index of the function's metric where one exists; OFF leaves all of it to the engine",
                        VectorSearchMode.class,
                        VectorSearchMode.EXACT,
                        false),
                nonNegativeInteger(VectorSearchParameters.NPROBES, "Partitions of an IVF vector index an approximate search probes", VectorSearchParameters.DEFAULT_NPROBES),
                nonNegativeInteger(VectorSearchParameters.REFINE_FACTOR, "An approximate search re-ranks this many times k candidates by their exact distance; 0 keeps the index's approximate order", 0),
                nonNegativeInteger(VectorSearchParameters.EF, "Candidates an HNSW vector index keeps while searching; 0 lets Lance choose", 0));
    }

    private static PropertyMetadata<Integer> nonNegativeInteger(String name, String description, int defaultValue)
    {
        return integerProperty(name, description, defaultValue, value -> {
            if (value < 0) {
                throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must not be negative: %s".formatted(name, value));
            }
        }, false);
    }

    public List<PropertyMetadata<?>> properties()
    {
        return properties;
    }
}
