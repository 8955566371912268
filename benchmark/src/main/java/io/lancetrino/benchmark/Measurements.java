package io.lancetrino.benchmark;

import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.LanceTables;
import io.lancetrino.split.fs.LanceFileSystems;
import io.lancetrino.split.fs.ObjectStoreOptions;
import io.trino.filesystem.local.LocalFileSystemFactory;

import java.nio.file.Path;
import java.util.List;

/**
 * What the measurements share: medians, and the connector's table access on local disk without a Trino engine.
 */
final class Measurements
{
    private Measurements() {}

    static double median(List<Double> values)
    {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /**
     * The nearest-rank percentile: the smallest value at least {@code fraction} of the values are at or below.
     */
    static double percentile(List<Double> values, double fraction)
    {
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(fraction * sorted.size());
        return sorted.get(Math.max(rank, 1) - 1);
    }

    /**
     * A fresh catalog-wide table access, with its own (empty) manifest cache.
     */
    static LanceTables localTables(LanceConfig config)
    {
        return new LanceTables(new LanceFileSystems(new LocalFileSystemFactory(Path.of("/")), ObjectStoreOptions.NONE, config), config);
    }
}
