package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.proto.Transaction;

import static java.util.Objects.requireNonNull;

/**
 * @param attempts how many manifests were tried before one was created (1 when no other writer interfered)
 * @param transaction what was committed: the transaction given, or its rebase over concurrent compactions, or a
 * compaction without the groups concurrent writes changed
 */
public record CommitResult(ManifestFile manifest, int attempts, Transaction transaction)
{
    public CommitResult
    {
        requireNonNull(manifest, "manifest is null");
        requireNonNull(transaction, "transaction is null");
    }

    public long version()
    {
        return manifest.version();
    }
}
