package io.lancetrino.tests.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/share} as the README tells owners to run it: a separate process over a warehouse the Lance SDK wrote,
 * answering a plain HTTP client with the demo table's shares, version, fragments and a signed file.
 */
final class TestShareScript
{
    private static final String READY = "Lance sharing server listening at ";
    private static final String TOKEN = "script-test-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void testServesTheDemoWarehouse()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-share-script");
        DemoWarehouse.create(warehouse);
        Path config = warehouse.resolve("shares.json");
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s",
                 "shares": [{"name": "rides", "schemas": [{"name": "demo", "tables": [{"name": "trips", "table": "demo.trips"}]}]}],
                 "recipients": [{"name": "analyst", "bearerToken": "%s", "shares": ["rides"]}]}
                """.formatted(warehouse, "ab".repeat(32), TOKEN));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process process = new ProcessBuilder(ImmutableList.of("bash", ServeProcess.projectRoot().resolve("bin/share").toString(), "--config", config.toString(), "--port", String.valueOf(port)))
                .redirectErrorStream(true)
                .start();
        List<String> output = new CopyOnWriteArrayList<>();
        CompletableFuture<URI> endpoint = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.add(line);
                    if (line.startsWith(READY)) {
                        endpoint.complete(URI.create(line.substring(READY.length()).trim()));
                    }
                }
                endpoint.completeExceptionally(new IllegalStateException("bin/share exited: " + String.join("\n", output)));
            }
            catch (Exception e) {
                endpoint.completeExceptionally(e);
            }
        }, "bin/share output");
        reader.setDaemon(true);
        reader.start();
        try {
            URI base = endpoint.get(10, TimeUnit.MINUTES);
            assertThat(base.getPort()).isEqualTo(port);
            HttpClient http = HttpClient.newHttpClient();

            assertThat(get(http, base + "/shares", null).statusCode()).isEqualTo(401);
            JsonNode shares = MAPPER.readTree(get(http, base + "/shares", TOKEN).body());
            assertThat(shares.path("items").get(0).path("name").asText()).isEqualTo("rides");

            String table = base + "/shares/rides/schemas/demo/tables/trips";
            // the demo table has five versions on main
            assertThat(get(http, table + "/version", TOKEN).headers().firstValue("Lance-Table-Version")).contains("5");

            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(table + "/query"))
                    .header("Authorization", "Bearer " + TOKEN)
                    .header("lance-sharing-capabilities", "responseformat=lance;readerfeatures=deletionfiles,basepaths,stablerowids,v2files")
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            List<JsonNode> lines = answer.body().lines().map(TestShareScript::json).toList();
            assertThat(lines.getFirst().has("protocol")).isTrue();
            assertThat(lines.get(1).path("metaData").path("version").asLong()).isEqualTo(5);
            assertThat(lines.getLast().has("endStreamAction")).isTrue();
            JsonNode file = lines.stream().filter(line -> line.has("fragment")).findFirst().orElseThrow().path("fragment").path("files").get(0);
            HttpResponse<byte[]> data = http.send(HttpRequest.newBuilder(URI.create(file.path("url").asText())).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(data.statusCode()).isEqualTo(200);
            assertThat((long) data.body().length).isEqualTo(file.path("size").asLong());
            // a Lance file ends with its magic
            assertThat(new String(data.body(), data.body().length - 4, 4, UTF_8)).isEqualTo("LANC");
        }
        finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static HttpResponse<String> get(HttpClient http, String uri, String token)
            throws Exception
    {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String line)
    {
        try {
            return MAPPER.readTree(line);
        }
        catch (Exception e) {
            throw new IllegalStateException(line, e);
        }
    }
}
