package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.plugin.LancePlugin;
import io.trino.Session;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static java.util.Objects.requireNonNull;

/**
 * One single-node Trino with the Lance connector ({@code lance}), Trino's Iceberg connector on Parquet with a file
 * metastore ({@code iceberg}) and {@code tpch}, so both connectors run in the same engine on the same machine.
 */
public final class BenchmarkEnvironment
        implements AutoCloseable
{
    public static final String SCHEMA = "tpch";

    private final DistributedQueryRunner runner;
    private final Path lanceWarehouse;
    private final Path icebergCatalog;

    private BenchmarkEnvironment(DistributedQueryRunner runner, Path lanceWarehouse, Path icebergCatalog)
    {
        this.runner = requireNonNull(runner, "runner is null");
        this.lanceWarehouse = requireNonNull(lanceWarehouse, "lanceWarehouse is null");
        this.icebergCatalog = requireNonNull(icebergCatalog, "icebergCatalog is null");
    }

    public static BenchmarkEnvironment start(Path dataDirectory, Map<String, String> lanceProperties)
            throws Exception
    {
        Path lanceWarehouse = Files.createDirectories(dataDirectory.resolve("lance"));
        Path icebergCatalog = Files.createDirectories(dataDirectory.resolve("iceberg"));
        // one node: both connectors get the same two cores, with no exchange between in-process workers
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session("lance"))
                .setWorkerCount(0)
                .build();
        try {
            runner.installPlugin(new TpchPlugin());
            runner.createCatalog("tpch", "tpch", ImmutableMap.of("tpch.column-naming", "STANDARD"));
            runner.installPlugin(new LancePlugin());
            runner.createCatalog("lance", "lance", ImmutableMap.<String, String>builder()
                    .put("lance.warehouse", lanceWarehouse.toAbsolutePath().toString())
                    .putAll(lanceProperties)
                    .buildKeepingLast());
            runner.installPlugin(new IcebergPlugin());
            runner.createCatalog("iceberg", "iceberg", ImmutableMap.of(
                    "iceberg.catalog.type", "TESTING_FILE_METASTORE",
                    "hive.metastore.catalog.dir", "local:///",
                    "fs.local.enabled", "true",
                    "local.location", icebergCatalog.toAbsolutePath().toString(),
                    "iceberg.file-format", "PARQUET"));
            return new BenchmarkEnvironment(runner, lanceWarehouse, icebergCatalog);
        }
        catch (Throwable e) {
            runner.close();
            throw e;
        }
    }

    /**
     * Another catalog over the same warehouse, to compare catalog settings on the same tables.
     */
    public void addLanceCatalog(String name, Map<String, String> lanceProperties)
    {
        runner.createCatalog(name, "lance", ImmutableMap.<String, String>builder()
                .put("lance.warehouse", lanceWarehouse.toAbsolutePath().toString())
                .putAll(lanceProperties)
                .buildKeepingLast());
    }

    public static Session session(String catalog)
    {
        return session(catalog, SCHEMA);
    }

    public static Session session(String catalog, String schema)
    {
        return testSessionBuilder()
                .setCatalog(catalog)
                .setSchema(schema)
                .build();
    }

    public DistributedQueryRunner runner()
    {
        return runner;
    }

    public Path lanceWarehouse()
    {
        return lanceWarehouse;
    }

    public Path lanceTable(String schema, String table)
    {
        return lanceWarehouse.resolve(schema).resolve(table + ".lance");
    }

    public Path icebergCatalog()
    {
        return icebergCatalog;
    }

    @Override
    public void close()
            throws IOException
    {
        runner.close();
    }
}
