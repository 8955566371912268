package io.lancetrino.sharing.recipient;

import java.net.URI;

import static java.util.Objects.requireNonNull;

/**
 * A file of a shared version: its signed URL, size, and when the URL stops working (epoch millis).
 */
public record SignedFile(URI url, long size, long expiresAtMillis)
{
    public SignedFile
    {
        requireNonNull(url, "url is null");
    }
}
