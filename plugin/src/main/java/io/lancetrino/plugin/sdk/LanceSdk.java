package io.lancetrino.plugin.sdk;

import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.plugin.index.IndexSpec;
import io.lancetrino.plugin.write.DataFileWriter;
import io.lancetrino.split.sdk.SdkReads;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Everything the connector does through the Lance SDK (JNI): the reads of {@link SdkReads}, index builds and the SDK
 * writer. The SDK add-on implements it ({@link LanceSdkFactory}); the connector's default paths never call it, so a
 * catalog without the add-on reads and writes tables and never loads the SDK's native library.
 */
public interface LanceSdk
        extends SdkReads, AutoCloseable
{
    /** Fails, naming {@code feature}, when the SDK cannot run here: the add-on is missing or the JVM lacks an option. */
    void checkAvailable(String feature);

    /**
     * Trains, writes and commits an index on the dataset of one branch (a Lance {@code CreateIndex} version).
     *
     * @param dimension the vector column's dimension, for vector kinds
     * @param liveRows rows of the branch, for the default number of IVF partitions
     */
    void createIndex(String datasetLocation, Map<String, String> storageOptions, IndexSpec spec, boolean replace, int dimension, long liveRows);

    /** Brings the rows written since the index was built into it: Lance's optimize, a new delta segment merged in. */
    void optimizeIndex(String datasetLocation, Map<String, String> storageOptions, String name);

    /** A data file written by the SDK's file writer, from pages whose blocks are the schema's columns. */
    DataFileWriter createFileWriter(TableFileSystem fileSystem, String location, List<Type> types, Schema arrowSchema, String fileFormatVersion, Map<String, String> storageOptions)
            throws IOException;

    @Override
    void close();
}
