package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The server as it is deployed, in processes of its own: HTTPS served directly with a self-signed certificate, and
 * plain HTTP behind nginx terminating TLS, where the public URL makes every URL point at the proxy and the proxy's
 * forwarded headers are accepted. Clients trust the certificate and nothing else.
 */
@TestInstance(PER_CLASS)
final class TestSharingDeployment
{
    private static final String TOKEN = "deployment-test-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String CAPABILITIES = "responseformat=lance;readerfeatures=deletionfiles,basepaths,stablerowids,v2files";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<Process> processes = new ArrayList<>();
    private Path directory;
    private Path warehouse;
    private Path certificate;
    private Path keyAndCertificate;
    private HttpClient client;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("lance-sharing-deployment");
        warehouse = directory.resolve("warehouse");
        SharingFixture.createOrders(warehouse);
        certificate = directory.resolve("server.crt");
        Path key = directory.resolve("server.key");
        run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key.toString(), "-out", certificate.toString()));
        keyAndCertificate = directory.resolve("server.pem");
        Files.writeString(keyAndCertificate, Files.readString(key) + Files.readString(certificate));
        client = HttpClient.newBuilder().sslContext(trusting(certificate)).connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    void tearDown()
            throws IOException
    {
        for (Process process : processes) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (var paths = Files.walk(directory)) {
            paths.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void testHttpsServedDirectly()
            throws Exception
    {
        int port = freePort();
        Path config = writeConfig("https.json", """
                "server": {"listenAddress": "127.0.0.1", "http": false, "publicUrl": "https://localhost:%s",
                           "https": {"port": %s, "keystorePath": "%s"}}""".formatted(port, port, keyAndCertificate));
        startServer(config, 0);
        String endpoint = "https://localhost:%s/lance-sharing".formatted(port);
        assertReadsThrough(endpoint, "https://localhost:%s/lance-sharing/files/".formatted(port));
        // plain HTTP is not served at all
        assertThat(canConnectPlain(port)).isFalse();
    }

    @Test
    void testBehindNginxTerminatingTls()
            throws Exception
    {
        Path nginx = Path.of("/usr/sbin/nginx");
        // CI installs nginx (.ci/run); elsewhere the test needs it too, but a missing package is not a failure there
        assumeTrue(Files.isExecutable(nginx) || System.getenv("CI") != null, "nginx is not installed (apt-get install nginx-light)");
        int serverPort = freePort();
        int proxyPort = freePort();
        Path config = writeConfig("proxied.json", """
                "server": {"listenAddress": "127.0.0.1", "publicUrl": "https://localhost:%s", "trustedProxies": ["127.0.0.1"]}""".formatted(proxyPort));
        Process server = startServer(config, serverPort);
        Path nginxDirectory = Files.createDirectories(directory.resolve("nginx"));
        Files.writeString(nginxDirectory.resolve("nginx.conf"), nginxConfig(nginxDirectory, proxyPort, serverPort));
        Process proxy = new ProcessBuilder(nginx.toString(), "-p", nginxDirectory.toString(), "-c", nginxDirectory.resolve("nginx.conf").toString(), "-g", "daemon off;")
                .redirectErrorStream(true)
                .redirectOutput(nginxDirectory.resolve("nginx.out").toFile())
                .start();
        processes.add(proxy);
        awaitListening(proxyPort, proxy, nginxDirectory.resolve("nginx.out"));

        String endpoint = "https://localhost:%s/lance-sharing".formatted(proxyPort);
        assertReadsThrough(endpoint, "https://localhost:%s/lance-sharing/files/".formatted(proxyPort));
        assertThat(server.isAlive()).isTrue();
    }

    private void assertReadsThrough(String endpoint, String filePrefix)
            throws Exception
    {
        HttpResponse<String> shares = client.send(HttpRequest.newBuilder(URI.create(endpoint + "/shares")).header("Authorization", "Bearer " + TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(shares.statusCode()).as(shares.body()).isEqualTo(200);
        assertThat(MAPPER.readTree(shares.body()).get("items").get(0).get("name").asText()).isEqualTo("sales");

        HttpResponse<String> query = client.send(HttpRequest.newBuilder(URI.create(endpoint + "/shares/sales/schemas/tpch/tables/orders/query"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Lance-Sharing-Capabilities", CAPABILITIES)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"version\": 3}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(query.statusCode()).as(query.body()).isEqualTo(200);
        List<JsonNode> files = new ArrayList<>();
        for (String line : query.body().split("\n")) {
            MAPPER.readTree(line).path("fragment").path("files").forEach(files::add);
        }
        assertThat(files).isNotEmpty();
        for (JsonNode file : files) {
            String url = file.get("url").asText();
            assertThat(url).startsWith(filePrefix);
            long size = file.get("size").asLong();
            HttpResponse<byte[]> whole = client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(whole.body()).hasSize((int) size);
            assertThat(whole.headers().firstValue("Content-Encoding")).isEmpty();
            HttpResponse<byte[]> tail = client.send(HttpRequest.newBuilder(URI.create(url)).header("Range", "bytes=-16").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(tail.statusCode()).isEqualTo(206);
            assertThat(tail.body()).isEqualTo(java.util.Arrays.copyOfRange(whole.body(), (int) size - 16, (int) size));
            // Lance files end with their magic
            assertThat(new String(tail.body(), 12, 4, UTF_8)).isEqualTo("LANC");
        }
    }

    private Path writeConfig(String name, String serverSection)
            throws IOException
    {
        Path config = directory.resolve(name);
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s", %s,
                 "shares": [{"name": "sales", "schemas": [{"name": "tpch", "tables": [{"name": "orders", "table": "tpch.orders"}]}]}],
                 "recipients": [{"name": "partner", "bearerToken": "%s", "shares": ["sales"]}]}
                """.formatted(warehouse, "ef".repeat(32), serverSection, TOKEN));
        return config;
    }

    /**
     * The server's main class in a JVM of its own, as {@code bin/share} runs it.
     */
    private Process startServer(Path config, int port)
            throws Exception
    {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = config.resolveSibling(config.getFileName() + ".log");
        Process process = new ProcessBuilder(java, "-Xmx256m", "--add-opens=java.base/java.nio=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"),
                LanceSharingServer.class.getName(), "--config", config.toString(), "--port", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(process);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (Files.readString(log).contains("Lance sharing server listening at")) {
                return process;
            }
            assertThat(process.isAlive()).as("the sharing server exited: " + Files.readString(log)).isTrue();
            Thread.sleep(200);
        }
        throw new AssertionError("the sharing server did not start: " + Files.readString(log));
    }

    private static String nginxConfig(Path directory, int proxyPort, int serverPort)
    {
        boolean root = "root".equals(System.getProperty("user.name"));
        return """
                %s
                worker_processes 1;
                error_log %s/error.log warn;
                pid %s/nginx.pid;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path %s/client_body;
                    proxy_temp_path %s/proxy;
                    fastcgi_temp_path %s/fastcgi;
                    uwsgi_temp_path %s/uwsgi;
                    scgi_temp_path %s/scgi;
                    server {
                        listen 127.0.0.1:%s ssl;
                        server_name localhost;
                        ssl_certificate %s;
                        ssl_certificate_key %s;
                        client_max_body_size 2m;
                        location /lance-sharing/ {
                            proxy_pass http://127.0.0.1:%s;
                            proxy_http_version 1.1;
                            proxy_set_header Host $host;
                            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                            proxy_set_header X-Forwarded-Proto $scheme;
                            proxy_set_header Forwarded "for=$remote_addr;proto=$scheme";
                            proxy_buffering off;
                            proxy_request_buffering off;
                        }
                    }
                }
                """.formatted(root ? "user root;" : "", directory, directory, directory, directory, directory, directory, directory,
                proxyPort, directory.getParent().resolve("server.crt"), directory.getParent().resolve("server.key"), serverPort);
    }

    private static void awaitListening(int port, Process process, Path log)
            throws Exception
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (java.net.Socket _ = new java.net.Socket("127.0.0.1", port)) {
                return;
            }
            catch (IOException e) {
                assertThat(process.isAlive()).as("nginx exited: " + Files.readString(log)).isTrue();
                Thread.sleep(100);
            }
        }
        throw new AssertionError("nginx did not listen: " + Files.readString(log));
    }

    private static boolean canConnectPlain(int port)
    {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:%s/lance-sharing/shares".formatted(port)))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() < 400;
        }
        catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static SSLContext trusting(Path certificate)
            throws Exception
    {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream input = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(input));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    private static void run(List<String> command)
            throws Exception
    {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertThat(process.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
