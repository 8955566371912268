package io.lancetrino.metadata;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import java.util.concurrent.ExecutionException;

/**
 * Manifests are immutable once written, so a parsed manifest can be shared by every query that reads that version.
 */
public final class ManifestCache
{
    private final Cache<String, ManifestFile> cache;

    public ManifestCache(long maxBytes)
    {
        this.cache = CacheBuilder.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String location, ManifestFile file) -> (int) Math.min(Integer.MAX_VALUE, file.sizeInBytes() * 4 + 256))
                .build();
    }

    public static ManifestCache disabled()
    {
        return new ManifestCache(0);
    }

    ManifestFile get(String location, java.util.concurrent.Callable<ManifestFile> loader)
    {
        try {
            return cache.get(location, loader);
        }
        catch (ExecutionException | com.google.common.util.concurrent.UncheckedExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RuntimeException(e.getCause());
        }
    }
}
