package io.lancetrino.metadata.refs;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A branch from {@code _refs/branches/{name with / as %2F}.json}; its dataset lives under {@code tree/{name}}.
 */
public record BranchRef(String name, Optional<String> parentBranch, long parentVersion, Optional<Instant> createdAt)
{
    public BranchRef
    {
        requireNonNull(name, "name is null");
        requireNonNull(parentBranch, "parentBranch is null");
        requireNonNull(createdAt, "createdAt is null");
    }
}
