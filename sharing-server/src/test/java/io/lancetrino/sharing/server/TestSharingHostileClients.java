package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * What a hostile client sends, over raw sockets so nothing is cleaned up on the way: malformed percent-encodings,
 * URIs Jetty refuses itself, forwarded and Host headers, refs the share does not allow, oversized bodies. Every answer
 * is the documented status with the protocol's JSON body, never a stack trace, and costs at most one log line.
 */
@TestInstance(PER_CLASS)
final class TestSharingHostileClients
{
    private static final String TOKEN = "hostile-test-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String SOON_TOKEN = "expiring-test-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String CAPABILITIES = "responseformat=lance;readerfeatures=deletionfiles,basepaths,stablerowids,v2files";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<LogRecord> logRecords = new ArrayList<>();
    private final Handler logCapture = new Handler()
    {
        @Override
        public void publish(LogRecord record)
        {
            synchronized (logRecords) {
                logRecords.add(record);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Path directory;
    private Instant soonExpiration;
    private LanceSharingServer server;
    private URI listen;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("lance-sharing-hostile");
        Path warehouse = directory.resolve("warehouse");
        SharingFixture.createOrders(warehouse);
        soonExpiration = Instant.now().plusSeconds(300);
        String config = """
                {"warehouse": "%s", "signingKey": "%s", "urlLifetimeSeconds": 3600,
                 "server": {"listenAddress": "127.0.0.1", "publicUrl": "https://sharing.example.com:8443/base/", "trustedProxies": ["10.0.0.0/8"]},
                 "shares": [{"name": "sales", "schemas": [{"name": "tpch", "tables": [
                     {"name": "orders", "table": "tpch.orders"},
                     {"name": "orders_main", "table": "tpch.orders", "refs": ["main"]}]}]}],
                 "recipients": [
                   {"name": "partner", "bearerToken": "%s", "shares": ["sales"]},
                   {"name": "leaving", "bearerToken": "%s", "shares": ["sales"], "expirationTime": "%s"}]}
                """.formatted(warehouse, "cd".repeat(32), TOKEN, SOON_TOKEN, soonExpiration);
        Path configFile = directory.resolve("shares.json");
        Files.writeString(configFile, config);
        server = LanceSharingServer.start(SharingConfigLoader.load(configFile), 0, Clock.systemUTC());
        listen = server.httpUri().orElseThrow();
        Logger.getLogger("").addHandler(logCapture);
    }

    @AfterAll
    void tearDown()
            throws IOException
    {
        Logger.getLogger("").removeHandler(logCapture);
        if (server != null) {
            server.close();
        }
        try (var paths = Files.walk(directory)) {
            paths.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void testMalformedRequests()
            throws Exception
    {
        String table = "/lance-sharing/shares/sales/schemas/tpch/tables/orders";
        String file = "/lance-sharing/files/sales/tpch/orders/0123456789abcdef0123456789abcdef";
        List<Refusal> refusals = new ArrayList<>();
        for (String token : new String[] {null, TOKEN}) {
            // malformed percent-encodings and repeated parameters
            refusals.add(new Refusal("GET", "/lance-sharing/shares?%zz", token, 400));
            refusals.add(new Refusal("GET", "/lance-sharing/shares?pageToken=%%%", token, 400));
            refusals.add(new Refusal("GET", table + "/versions?branch=%%%", token, 400));
            refusals.add(new Refusal("GET", table + "/metadata?version=%G1", token, 400));
            refusals.add(new Refusal("GET", table + "/version?tag=a&tag=b", token, 400));
            refusals.add(new Refusal("GET", "/lance-sharing/shares/%zz/schemas", token, 400));
            refusals.add(new Refusal("GET", file + "?%zz", token, 403));
            refusals.add(new Refusal("GET", file + "?range=0-1&expires=%G1&sig=00", token, 403));
            // URIs Jetty refuses before the servlet (400 for file URLs too: nothing has read the path yet): encoded
            // dots, backslashes, empty segments, overlong UTF-8, malformed percent-encodings in the path
            refusals.add(new Refusal("GET", "/lance-sharing/files/%zz/tpch/orders/0123456789abcdef0123456789abcdef?range=0-1&expires=1&sig=0", token, 400));
            refusals.add(new Refusal("GET", "/lance-sharing/shares/%2e%2e/schemas", token, 400));
            refusals.add(new Refusal("GET", "/lance-sharing/shares/a\\b/schemas", token, 400));
            refusals.add(new Refusal("GET", "/lance-sharing//shares", token, 400));
            refusals.add(new Refusal("GET", "/lance-sharing/shares/%c0%ae%c0%ae/schemas", token, 400));
        }
        refusals.add(new Refusal("GET", "/lance-sharing/shares", null, 401));
        refusals.add(new Refusal("GET", "/lance-sharing/shares", "wrong-" + TOKEN, 401));

        int before = logRecords.size();
        for (Refusal refusal : refusals) {
            for (String accept : new String[] {"text/html", "*/*", "application/json"}) {
                Map<String, String> headers = new LinkedHashMap<>();
                headers.put("Accept", accept);
                if (refusal.token() != null) {
                    headers.put("Authorization", "Bearer " + refusal.token());
                }
                Answer answer = send(refusal.method(), refusal.target(), headers, null);
                assertThat(answer.status()).as(refusal + " accepting " + accept + ": " + answer.body()).isIn(refusal.statuses());
                assertJsonError(answer, refusal + " accepting " + accept);
            }
        }
        int requests = refusals.size() * 3;
        List<LogRecord> written;
        synchronized (logRecords) {
            written = List.copyOf(logRecords.subList(before, logRecords.size()));
        }
        assertThat(written.size()).as("log records for %s hostile requests", requests).isLessThanOrEqualTo(requests);
        assertThat(written).as("no stack traces in the log").allMatch(record -> record.getThrown() == null);
    }

    @Test
    void testOversizedBodies()
            throws Exception
    {
        String target = "/lance-sharing/shares/sales/schemas/tpch/tables/orders/query";
        Map<String, String> headers = authorized();
        headers.put("Content-Type", "application/json");
        // announced
        Answer announced = send("POST", target, headers, new byte[(1 << 20) + 1]);
        assertThat(announced.status()).isEqualTo(413);
        assertJsonError(announced, "announced body");
        // chunked, so only reading tells
        headers.put("Transfer-Encoding", "chunked");
        byte[] body = ("{\"limitHint\": 1, \"padding\": \"" + "x".repeat((1 << 20) + 10) + "\"}").getBytes(UTF_8);
        Answer chunked = send("POST", target, headers, chunked(body));
        assertThat(chunked.status()).isEqualTo(413);
        assertJsonError(chunked, "chunked body");
    }

    @Test
    void testUrlsIgnoreHostAndForwardedHeaders()
            throws Exception
    {
        Map<String, String> headers = authorized();
        headers.put("Host", "evil.example");
        headers.put("X-Forwarded-Host", "evil.example");
        headers.put("X-Forwarded-Proto", "http");
        headers.put("X-Forwarded-Port", "81");
        headers.put("X-Forwarded-For", "10.1.2.3");
        headers.put("Forwarded", "for=10.1.2.3;host=evil.example;proto=http");
        headers.put("Lance-Sharing-Capabilities", CAPABILITIES);
        headers.put("Content-Type", "application/json");
        Answer answer = send("POST", "/lance-sharing/shares/sales/schemas/tpch/tables/orders/query", headers, "{}".getBytes(UTF_8));
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        List<String> urls = new ArrayList<>();
        for (String line : answer.body().split("\n")) {
            JsonNode node = MAPPER.readTree(line);
            node.path("fragment").path("files").forEach(file -> urls.add(file.get("url").asText()));
        }
        assertThat(urls).isNotEmpty().allMatch(url -> url.startsWith("https://sharing.example.com:8443/base/lance-sharing/files/sales/tpch/orders/"));
        assertThat(server.endpoint().toString()).isEqualTo("https://sharing.example.com:8443/base/lance-sharing");
    }

    @Test
    void testUrlsNeverOutliveTheRecipient()
            throws Exception
    {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + SOON_TOKEN);
        headers.put("Lance-Sharing-Capabilities", CAPABILITIES);
        Answer answer = send("POST", "/lance-sharing/shares/sales/schemas/tpch/tables/orders/query", headers, "{}".getBytes(UTF_8));
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        String[] lines = answer.body().split("\n");
        long minimum = MAPPER.readTree(lines[lines.length - 1]).get("endStreamAction").get("minUrlExpirationTimestamp").asLong();
        assertThat(minimum).isEqualTo(soonExpiration.toEpochMilli());
        for (String line : lines) {
            JsonNode fragment = MAPPER.readTree(line).path("fragment");
            fragment.path("files").forEach(file -> assertThat(file.get("url").asText()).contains("expires=" + soonExpiration.toEpochMilli()));
        }
    }

    @Test
    void testUnsharedRefsAnswerLikeMissingOnes()
            throws Exception
    {
        String table = "/lance-sharing/shares/sales/schemas/tpch/tables/orders_main";
        // dev exists, but orders_main shares main only
        for (String request : new String[] {"/versions?branch=%s", "/version?branch=%s", "/metadata?branch=%s", "/changes?startingVersion=1&branch=%s"}) {
            Answer unshared = send("GET", table + request.formatted("dev"), withCapabilities(authorized()), null);
            Answer missing = send("GET", table + request.formatted("nosuch"), withCapabilities(authorized()), null);
            assertThat(unshared.status()).as(request + ": " + unshared.body()).isEqualTo(404);
            assertSameAnswer(unshared, missing, request);
        }
        Map<String, String> headers = withCapabilities(authorized());
        headers.put("Content-Type", "application/json");
        Answer unshared = send("POST", table + "/query", headers, "{\"branch\": \"dev\"}".getBytes(UTF_8));
        Answer missing = send("POST", table + "/query", headers, "{\"branch\": \"nosuch\"}".getBytes(UTF_8));
        assertThat(unshared.status()).isEqualTo(404);
        assertSameAnswer(unshared, missing, "query");
        Answer tagUnshared = send("GET", table + "/version?tag=release", authorized(), null);
        Answer tagMissing = send("GET", table + "/version?tag=nosuch", authorized(), null);
        assertSameAnswer(tagUnshared, tagMissing, "tag");
        // the refs listing does not name it
        Answer refs = send("GET", table + "/refs", authorized(), null);
        assertThat(refs.body()).doesNotContain("dev").doesNotContain("release");
    }

    @Test
    void testFilesAreNotCompressed()
            throws Exception
    {
        Map<String, String> headers = withCapabilities(authorized());
        Answer answer = send("POST", "/lance-sharing/shares/sales/schemas/tpch/tables/orders/query", headers, "{}".getBytes(UTF_8));
        String url = MAPPER.readTree(answer.body().split("\n")[2]).get("fragment").get("files").get(0).get("url").asText();
        URI uri = URI.create(url);
        Map<String, String> download = new LinkedHashMap<>();
        download.put("Accept-Encoding", "gzip, deflate, br");
        Answer file = send("GET", uri.getRawPath().substring("/base".length()) + "?" + uri.getRawQuery(), download, null);
        assertThat(file.status()).isEqualTo(200);
        assertThat(file.headers()).doesNotContainKey("content-encoding");
        assertThat(file.headers().get("content-length")).isEqualTo(Integer.toString(file.rawBody().length));
    }

    private static Map<String, String> authorized()
    {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + TOKEN);
        return headers;
    }

    private static Map<String, String> withCapabilities(Map<String, String> headers)
    {
        headers.put("Lance-Sharing-Capabilities", CAPABILITIES);
        return headers;
    }

    private static void assertSameAnswer(Answer first, Answer second, String what)
    {
        assertThat(first.status()).as(what).isEqualTo(second.status());
        assertThat(first.body()).as(what).isEqualTo(second.body());
        Map<String, String> firstHeaders = new LinkedHashMap<>(first.headers());
        Map<String, String> secondHeaders = new LinkedHashMap<>(second.headers());
        firstHeaders.remove("date");
        secondHeaders.remove("date");
        assertThat(firstHeaders).as(what).isEqualTo(secondHeaders);
    }

    private static void assertJsonError(Answer answer, String what)
            throws IOException
    {
        assertThat(answer.headers().get("content-type")).as(what).startsWith("application/json");
        JsonNode error = MAPPER.readTree(answer.body());
        assertThat(error.get("errorCode").asText()).as(what).isNotEmpty();
        assertThat(error.get("message").asText()).as(what).isNotEmpty();
        assertThat(answer.body()).as(what)
                .doesNotContain("\tat ")
                .doesNotContain("Exception")
                .doesNotContainIgnoringCase("<html")
                .doesNotContain("jetty")
                .doesNotContain(TOKEN);
    }

    private static byte[] chunked(byte[] body)
    {
        StringBuilder text = new StringBuilder();
        int chunk = 64 << 10;
        for (int offset = 0; offset < body.length; offset += chunk) {
            int length = Math.min(chunk, body.length - offset);
            text.append(Integer.toHexString(length)).append("\r\n").append(new String(body, offset, length, ISO_8859_1)).append("\r\n");
        }
        text.append("0\r\n\r\n");
        return text.toString().getBytes(ISO_8859_1);
    }

    private record Refusal(String method, String target, String token, int status)
    {
        List<Integer> statuses()
        {
            return List.of(status);
        }

        @Override
        public String toString()
        {
            return method + " " + target + (token == null ? " without a token" : " with a token");
        }
    }

    private record Answer(int status, Map<String, String> headers, byte[] rawBody)
    {
        String body()
        {
            return new String(rawBody, UTF_8);
        }
    }

    /**
     * One HTTP/1.1 exchange, the request line and headers written as given (a chunked body is sent as prepared).
     */
    private Answer send(String method, String target, Map<String, String> headers, byte[] body)
            throws IOException
    {
        try (Socket socket = new Socket(listen.getHost(), listen.getPort())) {
            socket.setSoTimeout(30_000);
            StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
            if (!headers.containsKey("Host")) {
                request.append("Host: ").append(listen.getHost()).append(':').append(listen.getPort()).append("\r\n");
            }
            headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
            if (body != null && !headers.containsKey("Transfer-Encoding")) {
                request.append("Content-Length: ").append(body.length).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream output = socket.getOutputStream();
            output.write(request.toString().getBytes(ISO_8859_1));
            if (body != null) {
                try {
                    output.write(body);
                }
                catch (IOException e) {
                    // the server may answer and close before reading all of a refused body
                }
            }
            output.flush();
            return readAnswer(socket.getInputStream());
        }
    }

    private static Answer readAnswer(InputStream input)
            throws IOException
    {
        byte[] all = input.readAllBytes();
        String text = new String(all, ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        assertThat(end).as("a complete response head: " + text).isPositive();
        String[] head = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(head[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < head.length; i++) {
            int colon = head[i].indexOf(':');
            headers.put(head[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), head[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Answer(status, headers, body);
    }

    private static byte[] dechunk(byte[] body)
    {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int position = 0;
        while (position < body.length) {
            int lineEnd = new String(body, position, body.length - position, ISO_8859_1).indexOf("\r\n");
            int size = Integer.parseInt(new String(body, position, lineEnd, ISO_8859_1).split(";")[0].trim(), 16);
            position += lineEnd + 2;
            if (size == 0) {
                break;
            }
            out.write(body, position, size);
            position += size + 2;
        }
        return out.toByteArray();
    }
}
