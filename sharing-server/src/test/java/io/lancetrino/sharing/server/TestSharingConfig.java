package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestSharingConfig
{
    private static final String KEY = "0f".repeat(32);
    private static final String TOKEN = "a-long-enough-token-1234-abcdefghijklmnopqrstuvwxyz";

    @Test
    void testValidConfig(@TempDir Path dir)
            throws Exception
    {
        Files.writeString(dir.resolve("key.hex"), KEY + "\n");
        SharingConfig config = SharingConfigLoader.parse(json("""
                {"warehouse": "wh", "signingKeyFile": "key.hex",
                 "shares": [{"name": "Sales", "schemas": [{"name": "tpch", "tables": [
                   {"name": "Orders", "table": "tpch.orders", "refs": ["main", "Release"], "startVersion": 3},
                   {"name": "lineitem", "location": "/data/lineitem.lance"}]}]}],
                 "recipients": [{"name": "partner", "bearerToken": "%s", "shares": ["SALES"], "expirationTime": "2027-01-01T00:00:00Z"}]}
                """.formatted(TOKEN)), dir);
        assertThat(config.warehouse()).isEqualTo(dir.resolve("wh").toString());
        assertThat(config.signingKey()).hasSize(32);
        assertThat(config.urlLifetimeSeconds()).isEqualTo(3600);
        SharingConfig.Table orders = config.share("sales").orElseThrow().schema("tpch").orElseThrow().table("orders").orElseThrow();
        assertThat(orders.location()).isEqualTo(dir.resolve("wh/tpch/orders.lance").toString());
        assertThat(orders.refs().orElseThrow()).containsExactly("main", "release");
        assertThat(orders.startVersion().getAsLong()).isEqualTo(3);
        assertThat(config.share("sales").orElseThrow().schema("tpch").orElseThrow().table("lineitem").orElseThrow().location()).isEqualTo("/data/lineitem.lance");
        SharingConfig.Recipient recipient = config.recipients().getFirst();
        assertThat(recipient.shares()).containsExactly("sales");
        assertThat(recipient.expirationTime()).contains(Instant.parse("2027-01-01T00:00:00Z"));
        // neither the key nor the token is printed
        assertThat(config.toString()).doesNotContain(KEY).doesNotContain(TOKEN);
    }

    @Test
    void testInvalidConfigs(@TempDir Path dir)
    {
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [], \"recipients\": [{\"name\": \"p\", \"bearerToken\": \"%s\", \"shares\": [\"nope\"]}]}".formatted(KEY, TOKEN),
                "recipient 'p' is granted share 'nope', which is not defined");
        assertInvalid(dir, "{\"signingKey\": \"abcd\"}", "the signing key has 2 bytes, at least 32 are required");
        assertInvalid(dir, "{\"signingKey\": \"%s\"}".formatted("zz".repeat(32)), "the signing key must be hexadecimal");
        assertInvalid(dir, "{}", "exactly one of signingKey (hex) and signingKeyFile is required");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"../x\"}]}".formatted(KEY), "invalid share name '../x'");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"s\", \"schemas\": [{\"name\": \"a.b\"}]}]}".formatted(KEY), "invalid schema name 'a.b'");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"s\", \"schemas\": [{\"name\": \"a\", \"tables\": [{\"name\": \"t\"}]}]}]}".formatted(KEY),
                "needs exactly one of 'table'");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"s\", \"schemas\": [{\"name\": \"a\", \"tables\": [{\"name\": \"t\", \"table\": \"a.t\"}]}]}]}".formatted(KEY),
                "has no 'warehouse'");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"warehouse\": \"/w\", \"shares\": [{\"name\": \"s\", \"schemas\": [{\"name\": \"a\", \"tables\": [{\"name\": \"t\", \"table\": \"../t\"}]}]}]}".formatted(KEY),
                "'table' must be <schema>.<table>");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"s\", \"schemas\": [{\"name\": \"a\", \"tables\": [{\"name\": \"t\", \"location\": \"rel/t.lance\"}]}]}]}".formatted(KEY),
                "must be an absolute path or an object-store URI");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"s\"}, {\"name\": \"S\"}]}".formatted(KEY), "share 's' is defined twice");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"recipients\": [{\"name\": \"p\", \"bearerToken\": \"%s\", \"expirationTime\": \"tomorrow\"}]}".formatted(KEY, TOKEN),
                "expirationTime 'tomorrow' is not an ISO-8601 instant");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"recipients\": [{\"name\": \"p\", \"bearerToken\": \"short\"}]}".formatted(KEY), "openssl rand -base64 32");
        // 48 hex digits hold 192 bits
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"recipients\": [{\"name\": \"p\", \"bearerToken\": \"%s\"}]}".formatted(KEY, "0123456789abcdef".repeat(3)), "at least 256 random bits");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"shres\": []}".formatted(KEY), "unknown key 'shres'");
        assertInvalid(dir, "{\"signingKey\": \"%s\", \"urlLifetimeSeconds\": 0}".formatted(KEY), "urlLifetimeSeconds must be between 1 and 604800");
    }

    @Test
    void testStartFromFile(@TempDir Path dir)
            throws Exception
    {
        Path file = dir.resolve("shares.json");
        Files.writeString(file, "{\"signingKey\": \"%s\", \"shares\": [{\"name\": \"s\"}], \"recipients\": [{\"name\": \"p\", \"bearerToken\": \"%s\", \"shares\": [\"s\"]}]}".formatted(KEY, TOKEN));
        HttpClient client = HttpClient.newHttpClient();
        try (LanceSharingServer server = LanceSharingServer.start(file, 0)) {
            URI endpoint = server.endpoint();
            assertThat(endpoint.getScheme()).isEqualTo("http");
            assertThat(endpoint.getPort()).isPositive();
            assertThat(endpoint.getPath()).isEqualTo("/lance-sharing");
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(endpoint + "/shares")).header("Authorization", "Bearer " + TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("{\"items\":[{\"name\":\"s\"}]}");

            // a correctly signed URL for a file this server never listed (as after a restart): 404, query again
            UrlSigner signer = new UrlSigner(SharingConfigLoader.parse(json(Files.readString(file)), dir).signingKey());
            String fileId = FileRegistry.fileId("/somewhere/data/x.lance");
            long expires = System.currentTimeMillis() + 60_000;
            String sig = signer.sign(UrlSigner.fileUrlText("s", "a", "t", fileId, "0-10", expires));
            HttpResponse<String> unknown = client.send(HttpRequest.newBuilder(URI.create("%s/files/s/a/t/%s?range=0-10&expires=%s&sig=%s".formatted(endpoint, fileId, expires, sig))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.body()).contains("RESOURCE_DOES_NOT_EXIST");
        }
        Files.writeString(file, "{\"signingKey\": \"abcd\"}");
        assertThatThrownBy(() -> LanceSharingServer.start(file, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("at least 32 are required")
                .hasMessageNotContaining("abcd");
    }

    private static void assertInvalid(Path dir, String config, String message)
    {
        assertThatThrownBy(() -> SharingConfigLoader.parse(json(config), dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    private static JsonNode json(String text)
            throws Exception
    {
        return new ObjectMapper().readTree(text);
    }
}
