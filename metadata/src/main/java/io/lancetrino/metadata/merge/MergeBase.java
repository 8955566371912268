package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.TableSnapshot;

import static java.util.Objects.requireNonNull;

/**
 * The newest state both sides of a merge share: the fork point, or what an earlier merge between them brought over.
 *
 * @param description how the base is named in messages and transaction properties, e.g. {@code main@3}
 */
public record MergeBase(TableSnapshot snapshot, String description)
{
    public MergeBase
    {
        requireNonNull(snapshot, "snapshot is null");
        requireNonNull(description, "description is null");
    }
}
