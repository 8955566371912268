package io.lancetrino.metadata.fs;

import static java.util.Objects.requireNonNull;

/**
 * One file found by a listing; {@code name} is relative to the listed directory.
 */
public record FileEntry(String name, long length, long lastModifiedMillis)
{
    public FileEntry
    {
        requireNonNull(name, "name is null");
    }
}
