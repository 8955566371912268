package io.lancetrino.metadata.refs;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A tag from {@code _refs/tags/{name}.json}: a name for version {@code version} of {@code branch} (empty = main).
 */
public record TagRef(String name, Optional<String> branch, long version, Optional<Instant> createdAt)
{
    public TagRef
    {
        requireNonNull(name, "name is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(createdAt, "createdAt is null");
    }
}
