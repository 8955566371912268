package io.lancetrino.metadata.clone;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A record under the source's {@code _refs/clones/} that a clone reads files of a source version, so cleanup of the
 * source can keep them. Lance engines list only {@code _refs/branches/} and {@code _refs/tags/} and ignore it.
 *
 * @param sourceBranch the branch the cloned version belongs to, empty for main
 */
public record ClonePin(String id, String cloneLocation, Optional<String> sourceBranch, long sourceVersion, Instant createdAt)
{
    public ClonePin
    {
        requireNonNull(id, "id is null");
        requireNonNull(cloneLocation, "cloneLocation is null");
        requireNonNull(sourceBranch, "sourceBranch is null");
        requireNonNull(createdAt, "createdAt is null");
    }
}
