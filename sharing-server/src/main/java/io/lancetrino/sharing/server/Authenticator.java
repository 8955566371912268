package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableList;

import java.security.MessageDigest;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Bearer tokens: the SHA-256 of the presented token is compared in constant time with every recipient's, so neither
 * the comparison nor the number of recipients tried tells how close a guess was.
 */
public final class Authenticator
{
    private static final String BEARER = "bearer ";

    private final List<SharingConfig.Recipient> recipients;
    private final Clock clock;

    public Authenticator(List<SharingConfig.Recipient> recipients, Clock clock)
    {
        this.recipients = ImmutableList.copyOf(recipients);
        this.clock = requireNonNull(clock, "clock is null");
    }

    public SharingConfig.Recipient authenticate(String authorization)
    {
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            throw SharingException.unauthenticated();
        }
        byte[] presented = SharingConfigLoader.sha256(authorization.substring(BEARER.length()).trim());
        SharingConfig.Recipient match = null;
        for (SharingConfig.Recipient recipient : recipients) {
            if (MessageDigest.isEqual(presented, recipient.tokenHash())) {
                match = recipient;
            }
        }
        if (match == null || match.expirationTime().map(expiration -> !clock.instant().isBefore(expiration)).orElse(false)) {
            throw SharingException.unauthenticated();
        }
        return match;
    }
}
