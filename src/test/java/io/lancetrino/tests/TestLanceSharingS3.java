package io.lancetrino.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lancetrino.sharing.server.LanceSharingServer;
import io.lancetrino.tests.fixtures.S3ProxyServer;
import io.lancetrino.tests.fixtures.RecipientCatalogs;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sharing server over a warehouse on S3-compatible storage: file URLs are the store's own pre-signed URLs, so a
 * recipient catalog reads every version, tag, branch and shallow clone from the store while the server sends no byte
 * of any table file.
 */
final class TestLanceSharingS3
        extends AbstractTestQueryFramework
{
    private static final String BUCKET = "lance-shared";
    private static final String WAREHOUSE = "s3://" + BUCKET + "/warehouse";
    private static final String TOKEN = "s3-partner-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String SHARED = "partner.\"sales.tpch\"";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private S3ProxyServer s3;
    private LanceSharingServer server;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = S3ProxyServer.start();
        s3.createBucket(BUCKET);
        DistributedQueryRunner runner = LanceQueryRunner.builder(WAREHOUSE)
                .withSchema("owner")
                .setWorkerCount(0)
                .addConnectorProperties(s3.catalogProperties(s3.endpoint()))
                .build();
        runner.execute("CREATE SCHEMA owner");
        runner.execute("CREATE SCHEMA lab");
        // version 1 tagged; 2 deletes (a deletion file); 3 appends; branch dev from version 2; a shallow clone of the tag
        runner.execute("CREATE TABLE owner.orders AS SELECT orderkey, custkey, orderstatus, totalprice, orderdate FROM tpch.tiny.orders");
        runner.execute("CALL lance.system.create_tag('owner', 'orders', 'release', '1')");
        runner.execute("DELETE FROM owner.orders WHERE orderkey % 7 = 0");
        runner.execute("INSERT INTO owner.orders SELECT orderkey + 1000000, custkey, orderstatus, totalprice, orderdate FROM tpch.tiny.orders WHERE orderkey < 1000");
        runner.execute("CREATE BRANCH dev WITH (from_version = 2) IN TABLE owner.orders");
        runner.execute("INSERT INTO owner.orders @ dev VALUES (-1, 1, 'X', 1.5, DATE '2026-12-01')");
        runner.execute("CALL lance.system.shallow_clone('owner', 'orders', 'lab', 'orders_clone', 'release')");
        runner.execute("INSERT INTO lab.orders_clone VALUES (-2, 2, 'Y', 2.5, DATE '2026-12-02')");

        Path directory = TemporaryWarehouses.create("lance-sharing-s3");
        Path config = directory.resolve("shares.json");
        String storage = s3.catalogProperties(s3.endpoint()).entrySet().stream()
                .map(entry -> "\"%s\": \"%s\"".formatted(entry.getKey(), entry.getValue()))
                .collect(Collectors.joining(", "));
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s", "urlLifetimeSeconds": 600,
                 "storage": {%s},
                 "shares": [{"name": "sales", "schemas": [{"name": "tpch", "tables": [
                     {"name": "orders", "table": "owner.orders"},
                     {"name": "orders_release", "table": "owner.orders", "refs": ["release"]},
                     {"name": "clone", "location": "%s/lab/orders_clone.lance"}]}]}],
                 "recipients": [{"name": "partner", "bearerToken": "%s", "shares": ["sales"]}]}
                """.formatted(WAREHOUSE, "12".repeat(32), storage, WAREHOUSE, TOKEN));
        server = LanceSharingServer.start(config, 0);
        RecipientCatalogs.create(runner, "partner", server, TOKEN, directory.resolve("profile.json"));
        return runner;
    }

    @AfterAll
    void stopServers()
            throws Exception
    {
        if (server != null) {
            server.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void testRecipientReadsEveryRefFromTheStore()
    {
        long servedBefore = server.fileBytesServed();
        assertThat(query("SELECT * FROM " + SHARED + ".orders")).matches("SELECT * FROM lance.owner.orders");
        for (String version : List.of("1", "2", "3", "'release'", "'dev'")) {
            assertThat(query("SELECT * FROM %s.orders FOR VERSION AS OF %s".formatted(SHARED, version)))
                    .matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF " + version);
        }
        assertThat(query("SELECT * FROM " + SHARED + ".orders_release")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'release'");
        assertThat(query("SELECT * FROM " + SHARED + ".clone")).matches("SELECT * FROM lance.lab.orders_clone");
        assertThat(query("SELECT count(*) FROM " + SHARED + ".orders FOR VERSION AS OF 2 WHERE orderkey % 7 = 0")).matches("VALUES BIGINT '0'");
        // every byte came from the store
        assertThat(server.fileBytesServed()).isEqualTo(servedBefore).isZero();
    }

    @Test
    void testFileUrlsArePreSignedByTheStore()
            throws Exception
    {
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/shares/sales/schemas/tpch/tables/clone/query"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Lance-Sharing-Capabilities", "responseformat=lance;readerfeatures=deletionfiles,basepaths,stablerowids,v2files")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        List<JsonNode> files = new ArrayList<>();
        for (String line : answer.body().split("\n")) {
            MAPPER.readTree(line).path("fragment").path("files").forEach(files::add);
        }
        // the clone's own fragment and the source's, reached through its base path
        assertThat(files).hasSizeGreaterThanOrEqualTo(2);
        for (JsonNode file : files) {
            URI url = URI.create(file.get("url").asText());
            assertThat(url.getPort()).isEqualTo(s3.port());
            assertThat(url.getRawQuery()).contains("X-Amz-Signature=").contains("X-Amz-Expires=");
            HttpResponse<byte[]> tail = client.send(HttpRequest.newBuilder(url).header("Range", "bytes=-4").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(tail.statusCode()).isEqualTo(206);
            assertThat(new String(tail.body(), java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("LANC");
            // a tampered signature is the store's refusal
            String tampered = url.toString().replaceFirst("X-Amz-Signature=.", "X-Amz-Signature=" + (url.getRawQuery().contains("X-Amz-Signature=0") ? "1" : "0"));
            assertThat(client.send(HttpRequest.newBuilder(URI.create(tampered)).build(), HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(403);
        }
        assertThat(server.fileBytesServed()).isZero();
    }

    @Test
    void testStoragePropertiesAreValidated()
            throws Exception
    {
        Path directory = TemporaryWarehouses.create("lance-sharing-s3-bad");
        Path config = directory.resolve("shares.json");
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s", "storage": {"s3.endpoint": "%s", "s3.no-such-property": "x"}, "shares": [], "recipients": []}
                """.formatted(WAREHOUSE, "12".repeat(32), s3.endpoint()));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LanceSharingServer.start(config, 0))
                .hasMessageContaining("s3.no-such-property");
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s", "shares": [], "recipients": []}
                """.formatted(WAREHOUSE, "12".repeat(32)));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LanceSharingServer.start(config, 0))
                .hasMessageContaining("needs 'storage' properties");
    }
}
