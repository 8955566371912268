package io.lancetrino.metadata.refs;

import com.google.common.collect.ImmutableMap;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A tag from {@code _refs/tags/{name}.json}: a name for version {@code version} of {@code branch} (empty = main).
 */
public record TagRef(String name, Optional<String> branch, long version, Optional<Instant> createdAt, Optional<Instant> updatedAt, long manifestSize, Map<String, String> metadata)
{
    public TagRef
    {
        requireNonNull(name, "name is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
        metadata = ImmutableMap.copyOf(requireNonNull(metadata, "metadata is null"));
    }
}
