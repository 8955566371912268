package io.lancetrino.sharing.recipient;

import com.google.common.collect.ImmutableMap;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One version of a shared table as a recipient rebuilds it: the Lance manifest file (fragments pointing at the
 * version's {@code _shared} directory) and the signed URL of every file it reads, by {@code data/{id}} and
 * {@code _deletions/{name}}.
 */
public final class SharedVersion
{
    private final byte[] manifestFile;
    private final Map<String, SignedFile> files;
    private final long fetchedAtMillis;
    // checked on every read, so computed once
    private final long minExpiresAtMillis;

    public SharedVersion(byte[] manifestFile, Map<String, SignedFile> files, long fetchedAtMillis)
    {
        this.manifestFile = requireNonNull(manifestFile, "manifestFile is null");
        this.files = ImmutableMap.copyOf(requireNonNull(files, "files is null"));
        this.fetchedAtMillis = fetchedAtMillis;
        this.minExpiresAtMillis = this.files.values().stream().mapToLong(SignedFile::expiresAtMillis).min().orElse(Long.MAX_VALUE);
    }

    public byte[] manifestFile()
    {
        return manifestFile;
    }

    public Map<String, SignedFile> files()
    {
        return files;
    }

    public Optional<SignedFile> file(String name)
    {
        return Optional.ofNullable(files.get(name));
    }

    /**
     * Whether the URLs are still good for a while: a quarter of their lifetime, at most a minute, before they expire.
     */
    public boolean isFresh(long nowMillis)
    {
        if (minExpiresAtMillis == Long.MAX_VALUE) {
            return true;
        }
        long margin = Math.min(60_000, Math.max(0, (minExpiresAtMillis - fetchedAtMillis) / 4));
        return nowMillis < minExpiresAtMillis - margin;
    }
}
