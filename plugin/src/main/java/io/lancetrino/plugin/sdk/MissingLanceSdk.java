package io.lancetrino.plugin.sdk;

import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.plugin.index.IndexSpec;
import io.lancetrino.plugin.write.DataFileWriter;
import io.lancetrino.split.sdk.MissingSdkReads;
import io.lancetrino.split.sdk.SdkAddOn;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;
import java.util.Map;

/**
 * The connector without the SDK add-on: every feature that needs the SDK fails naming the add-on and what needed it.
 */
final class MissingLanceSdk
        extends MissingSdkReads
        implements LanceSdk
{
    @Override
    public void checkAvailable(String feature)
    {
        throw SdkAddOn.missing(feature);
    }

    @Override
    public void createIndex(String datasetLocation, Map<String, String> storageOptions, IndexSpec spec, boolean replace, int dimension, long liveRows)
    {
        throw SdkAddOn.missing("build %s index %s of %s".formatted(spec.type().sqlName(), spec.name(), datasetLocation));
    }

    @Override
    public void optimizeIndex(String datasetLocation, Map<String, String> storageOptions, String name)
    {
        throw SdkAddOn.missing("optimize index %s of %s".formatted(name, datasetLocation));
    }

    @Override
    public DataFileWriter createFileWriter(TableFileSystem fileSystem, String location, List<Type> types, Schema arrowSchema, String fileFormatVersion, Map<String, String> storageOptions)
    {
        throw SdkAddOn.missing("write data file %s with the SDK writer".formatted(location));
    }

    @Override
    public void close() {}
}
