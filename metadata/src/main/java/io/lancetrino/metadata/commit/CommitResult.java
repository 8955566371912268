package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.ManifestFile;

import static java.util.Objects.requireNonNull;

/**
 * @param attempts how many manifests were tried before one was created (1 when no other writer interfered)
 */
public record CommitResult(ManifestFile manifest, int attempts)
{
    public CommitResult
    {
        requireNonNull(manifest, "manifest is null");
    }

    public long version()
    {
        return manifest.version();
    }
}
