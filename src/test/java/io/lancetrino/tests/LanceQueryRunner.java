package io.lancetrino.tests;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.plugin.LancePlugin;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static java.util.Objects.requireNonNull;

/**
 * A Trino query runner with the Lance connector as catalog {@code lance} over a warehouse directory, plus {@code tpch}.
 */
public final class LanceQueryRunner
{
    public static final String CATALOG = "lance";

    private LanceQueryRunner() {}

    /** The session with one writer per statement, so an INSERT writes its rows in order into fragments of the table's size. */
    public static Session oneWriter(Session session)
    {
        return Session.builder(session)
                .setSystemProperty("redistribute_writes", "false")
                .setSystemProperty("scale_writers", "false")
                .setSystemProperty("task_scale_writers_enabled", "false")
                .setSystemProperty("task_min_writer_count", "1")
                .setSystemProperty("task_max_writer_count", "1")
                .build();
    }

    public static Builder builder(Path warehouse)
    {
        return new Builder(warehouse.toAbsolutePath().toString());
    }

    /**
     * A warehouse at any location the catalog's file systems serve, such as {@code s3://bucket/warehouse}.
     */
    public static Builder builder(String warehouseLocation)
    {
        return new Builder(warehouseLocation);
    }

    public static final class Builder
            extends DistributedQueryRunner.Builder<Builder>
    {
        private final String warehouse;
        private final Map<String, String> connectorProperties = new HashMap<>();

        private Builder(String warehouse)
        {
            super(testSessionBuilder()
                    .setCatalog(CATALOG)
                    .setSchema("default")
                    .build());
            this.warehouse = requireNonNull(warehouse, "warehouse is null");
        }

        public Builder addConnectorProperty(String key, String value)
        {
            connectorProperties.put(key, value);
            return this;
        }

        public Builder addConnectorProperties(Map<String, String> properties)
        {
            connectorProperties.putAll(properties);
            return this;
        }

        public Builder withSchema(String schema)
        {
            return amendSession(session -> session.setSchema(schema));
        }

        @Override
        public DistributedQueryRunner build()
                throws Exception
        {
            DistributedQueryRunner runner = super.build();
            try {
                runner.installPlugin(new TpchPlugin());
                runner.createCatalog("tpch", "tpch");
                runner.installPlugin(new LancePlugin());
                runner.createCatalog(CATALOG, "lance", ImmutableMap.<String, String>builder()
                        .put("lance.warehouse", warehouse)
                        .putAll(connectorProperties)
                        .buildKeepingLast());
                return runner;
            }
            catch (Throwable e) {
                runner.close();
                throw e;
            }
        }
    }
}
