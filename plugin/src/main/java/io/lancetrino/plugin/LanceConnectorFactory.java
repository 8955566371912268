package io.lancetrino.plugin;

import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.json.JsonModule;
import io.lancetrino.split.fs.ObjectStoreOptions;
import io.trino.filesystem.manager.FileSystemModule;
import io.trino.plugin.base.ConnectorContextModule;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;

import java.util.Map;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

public final class LanceConnectorFactory
        implements ConnectorFactory
{
    public static final String NAME = "lance";

    @Override
    public String getName()
    {
        return NAME;
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        if (Boolean.parseBoolean(config.getOrDefault("fs.cache.enabled", "false").trim())) {
            // the plugin zip leaves out the Alluxio cache: it would only cache manifests, the SDK reads data files itself
            throw new TrinoException(CONFIGURATION_INVALID, "Catalog %s: fs.cache.enabled=true is not supported by the Lance connector (the Lance SDK reads data files itself, bypassing the file system cache); remove the property"
                    .formatted(catalogName));
        }
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(LanceConnectorFactory.class.getClassLoader())) {
            Bootstrap app = new Bootstrap(
                    "io.trino.bootstrap.catalog." + catalogName,
                    new JsonModule(),
                    new ConnectorContextModule(catalogName, context),
                    new FileSystemModule(catalogName, context, false),
                    new LanceModule(),
                    // the Lance SDK opens data files itself, so it needs the same store settings as trino-filesystem
                    binder -> binder.bind(ObjectStoreOptions.class).toInstance(ObjectStoreOptions.fromCatalogProperties(config)));
            Injector injector = app
                    .doNotInitializeLogging()
                    .disableSystemProperties()
                    .setRequiredConfigurationProperties(config)
                    .initialize();
            return injector.getInstance(LanceConnector.class);
        }
    }
}
