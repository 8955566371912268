package io.lancetrino.sharing.recipient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A Delta-Sharing-style profile file: where the sharing server is and the recipient's bearer token.
 *
 * @param endpoint the server's base URI, e.g. {@code http://host:8090/lance-sharing}, without a trailing slash
 */
public record SharingProfile(URI endpoint, String bearerToken, Optional<Instant> expirationTime)
{
    public static final int SUPPORTED_VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public SharingProfile
    {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(bearerToken, "bearerToken is null");
        requireNonNull(expirationTime, "expirationTime is null");
    }

    public static SharingProfile read(Path file)
    {
        JsonNode node;
        try {
            node = MAPPER.readTree(Files.readAllBytes(file));
        }
        catch (IOException e) {
            throw new IllegalArgumentException("Cannot read sharing profile %s: %s".formatted(file, e.getMessage()), e);
        }
        int version = node.path("shareCredentialsVersion").asInt(-1);
        if (version < 1) {
            throw new IllegalArgumentException("Sharing profile %s has no shareCredentialsVersion".formatted(file));
        }
        if (version > SUPPORTED_VERSION) {
            throw new IllegalArgumentException("Sharing profile %s has shareCredentialsVersion %s, this connector reads version %s: upgrade the connector"
                    .formatted(file, version, SUPPORTED_VERSION));
        }
        String endpoint = node.path("endpoint").asText("");
        String token = node.path("bearerToken").asText("");
        if (endpoint.isEmpty() || token.isEmpty()) {
            throw new IllegalArgumentException("Sharing profile %s needs both endpoint and bearerToken".formatted(file));
        }
        Optional<Instant> expiration = Optional.empty();
        if (node.hasNonNull("expirationTime")) {
            try {
                expiration = Optional.of(Instant.parse(node.get("expirationTime").asText()));
            }
            catch (DateTimeParseException e) {
                throw new IllegalArgumentException("Sharing profile %s: expirationTime is not an ISO-8601 instant: %s".formatted(file, node.get("expirationTime").asText()), e);
            }
        }
        URI uri = URI.create(endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint);
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new IllegalArgumentException("Sharing profile %s: endpoint must be an http or https URI, not %s".formatted(file, endpoint));
        }
        return new SharingProfile(uri, token, expiration);
    }

    @Override
    public String toString()
    {
        // never print the token
        return "SharingProfile[endpoint=%s, expirationTime=%s]".formatted(endpoint, expirationTime);
    }
}
