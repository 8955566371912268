package io.lancetrino.sharing.server;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Which version a metadata or query request reads: at most one of version, timestamp and tag, with an optional branch.
 */
public record Selectors(OptionalLong version, Optional<Instant> timestamp, Optional<String> tag, Optional<String> branch)
{
    public Selectors
    {
        requireNonNull(version, "version is null");
        requireNonNull(timestamp, "timestamp is null");
        requireNonNull(tag, "tag is null");
        requireNonNull(branch, "branch is null");
        int count = (version.isPresent() ? 1 : 0) + (timestamp.isPresent() ? 1 : 0) + (tag.isPresent() ? 1 : 0);
        if (count > 1) {
            throw SharingException.invalidParameter("At most one of version, timestamp and tag may be given");
        }
        if (tag.isPresent() && branch.isPresent()) {
            throw SharingException.invalidParameter("A tag names its own branch; tag and branch cannot be combined");
        }
    }

    /**
     * What page and refresh tokens are bound to.
     */
    public String canonical()
    {
        return "v=%s;ts=%s;tag=%s;branch=%s".formatted(
                version.isPresent() ? version.getAsLong() : "",
                timestamp.map(Instant::toString).orElse(""),
                tag.orElse(""),
                branch.orElse(""));
    }

    public static OptionalLong parseVersion(String text)
    {
        if (text == null) {
            return OptionalLong.empty();
        }
        try {
            long version = Long.parseLong(text.trim());
            if (version < 0) {
                throw new NumberFormatException();
            }
            return OptionalLong.of(version);
        }
        catch (NumberFormatException e) {
            throw SharingException.invalidParameter("Invalid version number");
        }
    }

    public static Optional<Instant> parseTimestamp(String text)
    {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text.trim()));
        }
        catch (RuntimeException e) {
            try {
                return Optional.of(java.time.OffsetDateTime.parse(text.trim()).toInstant());
            }
            catch (RuntimeException ignored) {
                throw SharingException.invalidParameter("Invalid timestamp: expected ISO-8601 such as 2026-12-02T10:00:00Z");
            }
        }
    }
}
