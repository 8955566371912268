package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.airlift.configuration.ConfigPropertyMetadata;
import io.airlift.configuration.ConfigurationFactory;
import io.airlift.units.Duration;
import io.lancetrino.filesystem.TrinoTableFileSystem;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.opentelemetry.api.OpenTelemetry;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.UriLocation;
import io.trino.filesystem.s3.S3FileSystemConfig;
import io.trino.filesystem.s3.S3FileSystemFactory;
import io.trino.filesystem.s3.S3FileSystemStats;
import io.trino.spi.security.ConnectorIdentity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;


/**
 * The stores the shared tables live on: local disk, whose files the server streams under its own signatures, and S3 or
 * S3-compatible storage through trino-filesystem, whose files recipients fetch with the store's own pre-signed URLs, so
 * table bytes never pass through the server. The storage properties are a Trino catalog's ({@code s3.endpoint},
 * {@code s3.region}, {@code s3.aws-access-key}, ...).
 */
public final class Warehouses
        implements AutoCloseable
{
    private static final Set<String> OBJECT_STORE_SCHEMES = ImmutableSet.of("s3", "s3a", "s3n");
    // accepted and needless: the server has only the one object store
    private static final Set<String> ENABLE_PROPERTIES = ImmutableSet.of("fs.native-s3.enabled", "fs.s3.enabled");

    private final LocalTableFileSystem local = new LocalTableFileSystem();
    private final Optional<S3FileSystemFactory> s3;
    private final Optional<TrinoFileSystem> objectStore;
    private final Optional<TableFileSystem> objectStoreTables;

    public Warehouses(Map<String, String> storage)
    {
        if (storage.isEmpty()) {
            s3 = Optional.empty();
            objectStore = Optional.empty();
            objectStoreTables = Optional.empty();
            return;
        }
        Map<String, String> properties = storage.entrySet().stream()
                .filter(entry -> !ENABLE_PROPERTIES.contains(entry.getKey()))
                .collect(ImmutableMap.toImmutableMap(Map.Entry::getKey, Map.Entry::getValue));
        S3FileSystemConfig config;
        try (ConfigurationFactory factory = new ConfigurationFactory(properties)) {
            config = factory.build(S3FileSystemConfig.class);
            Set<String> used = factory.getUsedProperties().stream().map(ConfigPropertyMetadata::name).collect(Collectors.toSet());
            Set<String> unknown = properties.keySet().stream().filter(name -> !used.contains(name)).collect(ImmutableSet.toImmutableSet());
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("storage: unknown properties %s (S3 properties as in a Trino catalog: s3.endpoint, s3.region, s3.path-style-access, s3.aws-access-key, s3.aws-secret-key, ...)".formatted(unknown));
            }
        }
        catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException("storage: " + e.getMessage(), e);
        }
        S3FileSystemFactory factory = new S3FileSystemFactory(OpenTelemetry.noop(), config, new S3FileSystemStats());
        TrinoFileSystem fileSystem = factory.create(ConnectorIdentity.ofUser("lance-sharing"));
        s3 = Optional.of(factory);
        objectStore = Optional.of(fileSystem);
        objectStoreTables = Optional.of(new TrinoTableFileSystem(fileSystem, ConcurrentHashMap.newKeySet()));
    }

    public static boolean isObjectStore(String location)
    {
        int colon = location.indexOf("://");
        return colon > 0 && OBJECT_STORE_SCHEMES.contains(location.substring(0, colon).toLowerCase(Locale.ROOT));
    }

    public TableFileSystem fileSystem(String location)
    {
        if (!isObjectStore(location)) {
            return local;
        }
        return objectStoreTables.orElseThrow(() -> new IllegalStateException("No storage configured for " + location));
    }

    /**
     * The store's own pre-signed GET URL for a file, or empty for a local file (the server signs and serves those).
     */
    public Optional<URI> preSignedUrl(String location, long lifetimeMillis)
    {
        if (!isObjectStore(location)) {
            return Optional.empty();
        }
        try {
            Optional<UriLocation> signed = objectStore.orElseThrow().preSignedUri(Location.of(location), new Duration(lifetimeMillis, TimeUnit.MILLISECONDS));
            return Optional.of(signed.orElseThrow(() -> new IllegalStateException("The store cannot pre-sign " + location)).uri());
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot pre-sign a file URL", e);
        }
    }

    @Override
    public void close()
    {
        s3.ifPresent(S3FileSystemFactory::destroy);
    }
}
