package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Base64;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Page and refresh tokens: a JSON payload and its HMAC, so a client can neither forge a version nor move a token to
 * another table.
 */
public final class Tokens
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final UrlSigner signer;

    public Tokens(UrlSigner signer)
    {
        this.signer = requireNonNull(signer, "signer is null");
    }

    public String encode(ObjectNode payload)
    {
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.toString().getBytes(UTF_8));
        return body + "." + signer.sign("token\n" + body);
    }

    /**
     * The payload of a token this server issued of the given kind, or 400 {@code INVALID_PARAMETER_VALUE}.
     */
    public JsonNode decode(String token, String kind)
    {
        int dot = token.indexOf('.');
        if (dot > 0 && signer.verify("token\n" + token.substring(0, dot), token.substring(dot + 1))) {
            try {
                JsonNode payload = MAPPER.readTree(Base64.getUrlDecoder().decode(token.substring(0, dot)));
                if (payload.path("kind").asText().equals(kind)) {
                    return payload;
                }
            }
            catch (IOException | IllegalArgumentException ignored) {
                // answered below
            }
        }
        throw SharingException.invalidParameter("Invalid " + kind);
    }
}
