package io.lancetrino.split.sharing;

import com.google.common.collect.ImmutableMap;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One version of a shared table as a recipient rebuilds it: the Lance manifest file (fragments pointing at the
 * version's {@code _shared} directory) and the signed URL of every file it reads, by {@code data/{id}} and
 * {@code _deletions/{name}}.
 */
public record SharedVersion(byte[] manifestFile, Map<String, SignedFile> files, long fetchedAtMillis)
{
    public SharedVersion
    {
        requireNonNull(manifestFile, "manifestFile is null");
        files = ImmutableMap.copyOf(requireNonNull(files, "files is null"));
    }

    public Optional<SignedFile> file(String name)
    {
        return Optional.ofNullable(files.get(name));
    }

    public long minExpiresAtMillis()
    {
        return files.values().stream().mapToLong(SignedFile::expiresAtMillis).min().orElse(Long.MAX_VALUE);
    }

    /**
     * Whether the URLs are still good for a while: a quarter of their lifetime, at most a minute, before they expire.
     */
    public boolean isFresh(long nowMillis)
    {
        long expires = minExpiresAtMillis();
        if (expires == Long.MAX_VALUE) {
            return true;
        }
        long margin = Math.min(60_000, Math.max(0, (expires - fetchedAtMillis) / 4));
        return nowMillis < expires - margin;
    }
}
