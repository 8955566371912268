package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.refs.RefResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The protocol of PROTOCOL.md end to end, over HTTP, against a table the Lance SDK wrote ({@link SharingFixture}).
 */
@TestInstance(PER_CLASS)
final class TestLanceSharingServer
{
    private static final String TOKEN = "partner-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String EXPIRED_TOKEN = "expired-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String OTHER_TOKEN = "other-token-0123456789ab-abcdefghijklmnopqrstuvwxyz";
    private static final String ALL_FEATURES = "responseformat=lance;readerfeatures=deletionfiles,basepaths,stablerowids,v2files";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MovableClock clock = new MovableClock();
    private final HttpClient client = HttpClient.newHttpClient();
    private Path directory;
    private Path orders;
    private LanceTable table;
    private LanceSharingServer server;
    private String endpoint;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("lance-sharing");
        Path warehouse = directory.resolve("warehouse");
        orders = SharingFixture.createOrders(warehouse);
        SharingFixture.createEvolving(warehouse);
        table = new LanceTable(new LocalTableFileSystem(), orders.toString(), "orders", ManifestCache.disabled());
        String config = """
                {"warehouse": "%s", "signingKey": "%s", "urlLifetimeSeconds": 600,
                 "shares": [
                   {"name": "sales", "schemas": [{"name": "tpch", "tables": [
                     {"name": "orders", "table": "tpch.orders"},
                     {"name": "orders_release", "location": "%s", "refs": ["release"]},
                     {"name": "orders_recent", "table": "tpch.orders", "startVersion": 4},
                     {"name": "orders_dev", "table": "tpch.orders", "refs": ["dev"]},
                     {"name": "evolving", "table": "tpch.evolving"}]},
                     {"name": "empty", "tables": []},
                     {"name": "gone", "tables": [{"name": "t", "location": "%s"}]}]},
                   {"name": "s2", "schemas": []},
                   {"name": "s3", "schemas": []},
                   {"name": "other", "schemas": [{"name": "x", "tables": [{"name": "t", "table": "tpch.orders"}]}]}],
                 "recipients": [
                   {"name": "partner", "bearerToken": "%s", "shares": ["sales", "s2", "s3"], "expirationTime": "2999-01-01T00:00:00Z"},
                   {"name": "late", "bearerToken": "%s", "shares": ["sales"], "expirationTime": "2020-01-01T00:00:00Z"},
                   {"name": "other", "bearerToken": "%s", "shares": ["other"]}]}
                """.formatted(warehouse, "ab".repeat(32), orders, directory.resolve("nothing/t.lance"), TOKEN, EXPIRED_TOKEN, OTHER_TOKEN);
        Path configFile = directory.resolve("shares.json");
        Files.writeString(configFile, config);
        server = LanceSharingServer.start(SharingConfigLoader.load(configFile), 0, clock);
        endpoint = server.endpoint().toString();
    }

    @AfterAll
    void tearDown()
            throws IOException
    {
        if (server != null) {
            server.close();
        }
        try (var paths = Files.walk(directory)) {
            paths.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void testListing()
            throws Exception
    {
        JsonNode shares = json(get("/shares", TOKEN));
        assertThat(names(shares)).containsExactly("sales", "s2", "s3");
        assertThat(shares.has("nextPageToken")).isFalse();

        // pages of one
        List<String> paged = new ArrayList<>();
        String token = null;
        do {
            JsonNode page = json(get("/shares?maxResults=1" + (token == null ? "" : "&pageToken=" + token), TOKEN));
            assertThat(page.get("items")).hasSize(1);
            paged.addAll(names(page));
            token = page.has("nextPageToken") ? page.get("nextPageToken").asText() : null;
        }
        while (token != null);
        assertThat(paged).containsExactly("sales", "s2", "s3");
        assertError(get("/shares?maxResults=0", TOKEN), 400, "INVALID_PARAMETER_VALUE");
        assertError(get("/shares?pageToken=garbage!", TOKEN), 400, "INVALID_PARAMETER_VALUE");

        assertThat(json(get("/shares/sales", TOKEN)).get("share").get("name").asText()).isEqualTo("sales");
        assertThat(json(get("/shares/SALES", TOKEN)).get("share").get("name").asText()).isEqualTo("sales");
        JsonNode schemas = json(get("/shares/sales/schemas", TOKEN));
        assertThat(names(schemas)).containsExactly("tpch", "empty", "gone");
        assertThat(json(get("/shares/sales/schemas/empty/tables", TOKEN)).get("items")).isEmpty();
        // a configured table whose directory holds no Lance table
        assertThat(names(json(get("/shares/sales/schemas/gone/tables", TOKEN)))).containsExactly("t");
        assertError(get("/shares/sales/schemas/gone/tables/t/version", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query("/shares/sales/schemas/gone/tables/t", "{}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(schemas.get("items").get(0).get("share").asText()).isEqualTo("sales");
        JsonNode tables = json(get("/shares/sales/schemas/tpch/tables", TOKEN));
        assertThat(names(tables)).containsExactly("orders", "orders_release", "orders_recent", "orders_dev", "evolving");
        assertThat(tables.get("items").get(0).get("schema").asText()).isEqualTo("tpch");
        JsonNode firstTwo = json(get("/shares/sales/schemas/tpch/tables?maxResults=2", TOKEN));
        assertThat(names(firstTwo)).containsExactly("orders", "orders_release");
        JsonNode nextTwo = json(get("/shares/sales/schemas/tpch/tables?maxResults=2&pageToken=" + firstTwo.get("nextPageToken").asText(), TOKEN));
        assertThat(names(nextTwo)).containsExactly("orders_recent", "orders_dev");
        JsonNode lastOne = json(get("/shares/sales/schemas/tpch/tables?maxResults=2&pageToken=" + nextTwo.get("nextPageToken").asText(), TOKEN));
        assertThat(names(lastOne)).containsExactly("evolving");
        assertThat(lastOne.has("nextPageToken")).isFalse();
        JsonNode all = json(get("/shares/sales/all-tables", TOKEN));
        assertThat(names(all)).containsExactly("orders", "orders_release", "orders_recent", "orders_dev", "evolving", "t");
        assertThat(all.get("items").get(3).get("share").asText()).isEqualTo("sales");
        assertThat(all.get("items").get(5).get("schema").asText()).isEqualTo("gone");
        assertThat(names(json(get("/shares/sales/all-tables?maxResults=3", TOKEN)))).hasSize(3);
        assertError(get("/shares/sales/schemas/nope/tables", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
    }

    @Test
    void testAuthentication()
            throws Exception
    {
        assertError(get("/shares", null), 401, "UNAUTHENTICATED");
        assertError(send(request("/shares").header("Authorization", "Basic " + TOKEN).GET()), 401, "UNAUTHENTICATED");
        assertError(get("/shares", TOKEN + "x"), 401, "UNAUTHENTICATED");
        assertError(get("/shares", "short"), 401, "UNAUTHENTICATED");
        assertError(get("/shares", EXPIRED_TOKEN), 401, "UNAUTHENTICATED");
        assertError(get("/shares/sales/schemas/tpch/tables/orders/version", EXPIRED_TOKEN), 401, "UNAUTHENTICATED");

        // a share that is not granted is answered exactly as one that does not exist
        HttpResponse<byte[]> notGranted = get("/shares/other", TOKEN);
        HttpResponse<byte[]> missing = get("/shares/nosuchshare", TOKEN);
        assertError(notGranted, 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(new String(notGranted.body(), UTF_8)).isEqualTo(new String(missing.body(), UTF_8));
        assertThat(get("/shares/other/schemas/x/tables/t/version", TOKEN).statusCode()).isEqualTo(404);
        assertThat(new String(get("/shares/other/schemas/x/tables/t/version", TOKEN).body(), UTF_8))
                .isEqualTo(new String(get("/shares/nosuchshare/schemas/x/tables/t/version", TOKEN).body(), UTF_8));
        // and the other recipient reads it
        assertThat(get("/shares/other/schemas/x/tables/t/version", OTHER_TOKEN).statusCode()).isEqualTo(200);
        assertThat(names(json(get("/shares", OTHER_TOKEN)))).containsExactly("other");
    }

    @Test
    void testVersionVersionsAndRefs()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/orders";
        HttpResponse<byte[]> version = get(base + "/version", TOKEN);
        assertThat(version.statusCode()).isEqualTo(200);
        assertThat(version.headers().firstValue("Lance-Table-Version")).contains("6");
        assertThat(version.body()).isEmpty();
        HttpResponse<byte[]> head = send(request(base + "/version").header("Authorization", "Bearer " + TOKEN).method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.headers().firstValue("Lance-Table-Version")).contains("6");
        assertThat(get(base + "/version?branch=dev", TOKEN).headers().firstValue("Lance-Table-Version")).contains("7");
        assertThat(get(base + "/version?branch=DEV", TOKEN).headers().firstValue("Lance-Table-Version")).contains("7");
        assertThat(get(base + "/version?branch=Main", TOKEN).headers().firstValue("Lance-Table-Version")).contains("6");
        assertThat(get(base + "/version?tag=release", TOKEN).headers().firstValue("Lance-Table-Version")).contains("3");
        assertThat(get(base + "/version?startingTimestamp=2000-01-01T00:00:00Z", TOKEN).headers().firstValue("Lance-Table-Version")).contains("1");
        assertError(get(base + "/version?startingTimestamp=2999-01-01T00:00:00Z", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get(base + "/version?branch=nope", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get(base + "/version?tag=nope", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get(base + "/version?startingTimestamp=yesterday", TOKEN), 400, "INVALID_PARAMETER_VALUE");

        JsonNode versions = json(get(base + "/versions", TOKEN));
        assertThat(versions.get("items")).hasSize(6);
        assertThat(versions.get("items").get(0).get("version").asLong()).isEqualTo(1);
        assertThat(Instant.parse(versions.get("items").get(5).get("timestamp").asText()))
                .isEqualTo(RefResolver.commitTime(table.snapshot(Optional.empty(), 6)));
        JsonNode devVersions = json(get(base + "/versions?branch=dev", TOKEN));
        assertThat(devVersions.get("items").get(devVersions.get("items").size() - 1).get("version").asLong()).isEqualTo(7);

        JsonNode refs = json(get(base + "/refs", TOKEN)).get("items");
        assertThat(refs).hasSize(2);
        JsonNode tag = refs.get(0);
        assertThat(tag.get("type").asText()).isEqualTo("tag");
        assertThat(tag.get("name").asText()).isEqualTo("release");
        assertThat(tag.get("branch").isNull()).isTrue();
        assertThat(tag.get("version").asLong()).isEqualTo(3);
        JsonNode branch = refs.get(1);
        assertThat(branch.get("type").asText()).isEqualTo("branch");
        assertThat(branch.get("name").asText()).isEqualTo("dev");
        assertThat(branch.get("parentBranch").isNull()).isTrue();
        assertThat(branch.get("parentVersion").asLong()).isEqualTo(6);
        assertThat(branch.get("version").asLong()).isEqualTo(7);
    }

    @Test
    void testMetadata()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/orders";
        HttpResponse<byte[]> response = get(base + "/metadata", TOKEN, ALL_FEATURES);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/x-ndjson");
        assertThat(response.headers().firstValue("lance-sharing-capabilities")).contains("responseformat=lance");
        List<JsonNode> lines = ndjson(response);
        assertThat(lines).hasSize(2);
        JsonNode protocol = lines.get(0).get("protocol");
        assertThat(protocol.get("responseFormat").asText()).isEqualTo("lance");
        assertThat(texts(protocol.get("readerFeatures"))).containsExactly("deletionfiles", "v2files");
        JsonNode metaData = lines.get(1).get("metaData");
        assertThat(metaData.get("version").asLong()).isEqualTo(6);
        assertThat(metaData.get("branch").isNull()).isTrue();
        assertThat(metaData.get("schemaId").asLong()).isEqualTo(1);
        assertThat(metaData.get("schema")).hasSize(2);
        assertThat(metaData.get("schema").get(0).get("name").asText()).isEqualTo("id");
        assertThat(metaData.get("schema").get(0).get("logicalType").asText()).isEqualTo("int64");
        assertThat(metaData.get("schema").get(0).get("nullable").asBoolean()).isFalse();
        assertThat(metaData.get("schema").get(1).get("parentId").asInt()).isEqualTo(-1);
        assertThat(metaData.get("operation").asText()).isEqualTo("delete");
        assertThat(metaData.get("numFragments").asLong()).isEqualTo(4);
        assertThat(metaData.get("numRows").asLong()).isEqualTo(95);
        assertThat(metaData.has("transaction")).isTrue();
        Manifest manifest = Manifest.parseFrom(Base64.getDecoder().decode(metaData.get("manifest").asText()));
        assertThat(manifest.getVersion()).isEqualTo(6);
        assertThat(manifest.getFragmentsCount()).isZero();
        assertThat(manifest.getBasePathsCount()).isZero();
        assertThat(manifest.getFieldsCount()).isEqualTo(2);

        // selectors
        assertThat(ndjson(get(base + "/metadata?version=2", TOKEN, ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(2);
        assertThat(ndjson(get(base + "/metadata?tag=release", TOKEN, ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(3);
        JsonNode dev = ndjson(get(base + "/metadata?branch=dev", TOKEN, ALL_FEATURES)).get(1).get("metaData");
        assertThat(dev.get("version").asLong()).isEqualTo(7);
        assertThat(dev.get("branch").asText()).isEqualTo("dev");
        String timestamp = RefResolver.commitTime(table.snapshot(Optional.empty(), 4)).toString();
        assertThat(ndjson(get(base + "/metadata?timestamp=" + timestamp, TOKEN, ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(4);
        assertError(get(base + "/metadata?version=2&tag=release", TOKEN, ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(get(base + "/metadata?version=99", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get(base + "/metadata?timestamp=2000-01-01T00:00:00Z", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
    }

    @Test
    void testSchemaEvolution()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/evolving";
        // schemaId numbers distinct schemas in order of first appearance, as t$schemas does
        List<Long> ids = new ArrayList<>();
        for (int version = 1; version <= 4; version++) {
            ids.add(ndjson(get(base + "/metadata?version=" + version, TOKEN, ALL_FEATURES)).get(1).get("metaData").get("schemaId").asLong());
        }
        assertThat(ids).containsExactly(1L, 1L, 2L, 3L);
        JsonNode latest = ndjson(get(base + "/metadata", TOKEN, ALL_FEATURES)).get(1).get("metaData");
        assertThat(latest.get("schema").valueStream().map(field -> field.get("name").asText()).toList()).containsExactly("id", "score");

        // a column added in place gives fragment 0 new data files: shipped as removed and added again
        List<JsonNode> changes = ndjson(get(base + "/changes?startingVersion=1", TOKEN, ALL_FEATURES));
        assertThat(changes).hasSize(2 + 4);
        JsonNode added = changes.get(4).get("version");
        assertThat(added.get("version").asLong()).isEqualTo(3);
        assertThat(added.get("removedFragmentIds").get(0).asLong()).isEqualTo(0);
        assertThat(added.get("addedFragments").get(0).get("files")).hasSize(2);
        JsonNode first = changes.get(2).get("version");
        assertThat(first.get("addedFragments")).isEmpty();
        assertThat(first.get("removedFragmentIds")).isEmpty();
    }

    @Test
    void testCapabilities()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/orders";
        // version 1 is empty and needs nothing: no header is fine
        HttpResponse<byte[]> none = get(base + "/metadata?version=1", TOKEN, null);
        assertThat(none.statusCode()).isEqualTo(200);
        assertThat(none.headers().firstValue("lance-sharing-capabilities")).contains("responseformat=lance");
        assertThat(ndjson(none).get(0).get("protocol").get("readerFeatures")).isEmpty();
        // the latest version needs deletion files and v2 files, which no header does not declare
        HttpResponse<byte[]> refused = get(base + "/metadata", TOKEN, null);
        assertError(refused, 400, "UNSUPPORTED_OPERATION");
        assertThat(message(refused)).contains("deletionfiles", "v2files");
        HttpResponse<byte[]> missingOne = get(base + "/metadata", TOKEN, "responseformat=lance;readerfeatures=v2files");
        assertError(missingOne, 400, "UNSUPPORTED_OPERATION");
        assertThat(message(missingOne)).contains("deletionfiles").doesNotContain("v2files");
        assertThat(get(base + "/metadata", TOKEN, "ResponseFormat=LANCE; ReaderFeatures=DeletionFiles,V2Files; other=x").statusCode()).isEqualTo(200);
        assertThat(get(base + "/metadata", TOKEN, "responseformat=parquet,lance;readerfeatures=deletionfiles,v2files").statusCode()).isEqualTo(200);
        HttpResponse<byte[]> parquet = get(base + "/metadata?version=1", TOKEN, "responseformat=parquet,delta");
        assertError(parquet, 400, "UNSUPPORTED_OPERATION");
        assertThat(message(parquet)).contains("lance");
        assertError(query(base, "{}", "responseformat=parquet"), 400, "UNSUPPORTED_OPERATION");
        // a branch's files live under main's base path
        HttpResponse<byte[]> branch = query(base, "{\"branch\": \"dev\"}", "responseformat=lance;readerfeatures=deletionfiles,v2files");
        assertError(branch, 400, "UNSUPPORTED_OPERATION");
        assertThat(message(branch)).contains("basepaths");
        assertError(get(base + "/changes?startingVersion=1", TOKEN, "responseformat=lance;readerfeatures=v2files"), 400, "UNSUPPORTED_OPERATION");
    }

    @Test
    void testQueryAndFiles()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/orders";
        HttpResponse<byte[]> response = query(base, "{}", ALL_FEATURES);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("lance-sharing-capabilities")).contains("responseformat=lance");
        List<JsonNode> lines = ndjson(response);
        assertThat(lines).hasSize(2 + 4 + 1);
        assertThat(lines.get(1).get("metaData").get("version").asLong()).isEqualTo(6);
        JsonNode end = lines.getLast().get("endStreamAction");
        assertThat(end.has("nextPageToken")).isFalse();
        assertThat(end.has("refreshToken")).isFalse();

        TableSnapshot snapshot = table.snapshot(Optional.empty(), 6);
        for (int i = 0; i < 4; i++) {
            JsonNode fragment = lines.get(2 + i).get("fragment");
            DataFragment expected = snapshot.manifest().getFragments(i);
            assertThat(fragment.get("fragmentId").asLong()).isEqualTo(expected.getId());
            assertThat(fragment.get("physicalRows").asLong()).isEqualTo(25);
            assertThat(fragment.get("deletedRows").asLong()).isEqualTo(i == 0 ? 5 : 0);
            assertThat(fragment.get("expirationTimestamp").asLong()).isEqualTo(end.get("minUrlExpirationTimestamp").asLong());
            DataFragment shipped = DataFragment.parseFrom(Base64.getDecoder().decode(fragment.get("fragment").asText()));
            assertThat(shipped.getFilesCount()).isEqualTo(expected.getFilesCount()).isEqualTo(fragment.get("files").size());
            String location = FilePaths.dataFile(snapshot, expected, expected.getFiles(0));
            String fileId = FileRegistry.fileId(location);
            assertThat(shipped.getFiles(0).getPath()).isEqualTo(fileId);
            assertThat(shipped.getFiles(0).hasBaseId()).isFalse();
            JsonNode file = fragment.get("files").get(0);
            assertThat(file.get("id").asText()).isEqualTo(fileId);
            byte[] onDisk = Files.readAllBytes(Path.of(location));
            assertThat(file.get("size").asLong()).isEqualTo(onDisk.length);

            // the whole file, then ranges
            HttpResponse<byte[]> whole = download(file.get("url").asText(), null);
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(whole.body()).isEqualTo(onDisk);
            HttpResponse<byte[]> slice = download(file.get("url").asText(), "bytes=10-99");
            assertThat(slice.statusCode()).isEqualTo(206);
            assertThat(slice.headers().firstValue("Content-Range")).contains("bytes 10-99/" + onDisk.length);
            assertThat(slice.body()).isEqualTo(Arrays.copyOfRange(onDisk, 10, 100));
            assertThat(download(file.get("url").asText(), "bytes=" + (onDisk.length - 7) + "-").body()).isEqualTo(Arrays.copyOfRange(onDisk, onDisk.length - 7, onDisk.length));
            assertThat(download(file.get("url").asText(), "bytes=-16").body()).isEqualTo(Arrays.copyOfRange(onDisk, onDisk.length - 16, onDisk.length));
            assertThat(download(file.get("url").asText(), "bytes=0-" + (onDisk.length - 1)).body()).isEqualTo(onDisk);
            HttpResponse<byte[]> outside = download(file.get("url").asText(), "bytes=" + onDisk.length + "-");
            assertError(outside, 416, "RANGE_NOT_SATISFIABLE");
            assertThat(outside.headers().firstValue("Content-Range")).contains("bytes */" + onDisk.length);
            assertError(download(file.get("url").asText(), "bytes=0-" + onDisk.length), 416, "RANGE_NOT_SATISFIABLE");
            assertError(download(file.get("url").asText(), "bytes=5-2"), 416, "RANGE_NOT_SATISFIABLE");

            if (i == 0) {
                JsonNode deletion = fragment.get("deletionFile");
                String deletionLocation = FilePaths.deletionFile(snapshot, expected).orElseThrow();
                assertThat(deletion.get("id").asText()).isEqualTo(FileRegistry.fileId(deletionLocation));
                assertThat(download(deletion.get("url").asText(), null).body()).isEqualTo(Files.readAllBytes(Path.of(deletionLocation)));
                assertThat(shipped.getDeletionFile().getNumDeletedRows()).isEqualTo(5);
            }
            else {
                assertThat(fragment.has("deletionFile")).isFalse();
            }
        }
        // file ids and fragment ids are stable across requests; URLs are new
        List<JsonNode> again = ndjson(query(base, "{}", ALL_FEATURES));
        assertThat(again.get(2).get("fragment").get("id").asText()).isEqualTo(lines.get(2).get("fragment").get("id").asText());
        assertThat(again.get(3).get("fragment").get("files").get(0).get("id").asText()).isEqualTo(lines.get(3).get("fragment").get("files").get(0).get("id").asText());

        // selectors in the body
        assertThat(ndjson(query(base, "{\"version\": 3}", ALL_FEATURES))).hasSize(2 + 2 + 1);
        assertThat(ndjson(query(base, "{\"tag\": \"release\"}", ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(3);
        assertError(query(base, "{\"version\": 3, \"tag\": \"release\"}", ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(query(base, "{\"version\": 42}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query(base, "not json", ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(send(request(base + "/query").header("Authorization", "Bearer " + TOKEN).GET()), 400, "UNSUPPORTED_OPERATION");
        // predicate hints are accepted and skip nothing; limitHint stops once the live rows reach it
        assertThat(ndjson(query(base, "{\"predicateHints\": [\"id > 50\"], \"jsonPredicateHints\": \"{}\"}", ALL_FEATURES))).hasSize(7);
        assertThat(ndjson(query(base, "{\"limitHint\": 20}", ALL_FEATURES))).hasSize(2 + 1 + 1);
        assertThat(ndjson(query(base, "{\"limitHint\": 21}", ALL_FEATURES))).hasSize(2 + 2 + 1);

        // a branch version: data files under main, the deletion file under the branch
        List<JsonNode> dev = ndjson(query(base, "{\"branch\": \"dev\"}", ALL_FEATURES));
        assertThat(texts(dev.get(0).get("protocol").get("readerFeatures"))).containsExactly("basepaths", "deletionfiles", "v2files");
        TableSnapshot devSnapshot = table.snapshot(Optional.of("dev"), 7);
        DataFragment last = devSnapshot.manifest().getFragments(3);
        JsonNode devFragment = dev.get(5).get("fragment");
        assertThat(devFragment.get("deletedRows").asLong()).isEqualTo(5);
        String devData = FilePaths.dataFile(devSnapshot, last, last.getFiles(0));
        assertThat(devData).startsWith(orders + "/data/");
        assertThat(devFragment.get("files").get(0).get("id").asText()).isEqualTo(lines.get(5).get("fragment").get("files").get(0).get("id").asText());
        String devDeletion = FilePaths.deletionFile(devSnapshot, last).orElseThrow();
        assertThat(devDeletion).contains("/tree/dev/_deletions/");
        assertThat(download(devFragment.get("deletionFile").get("url").asText(), null).body()).isEqualTo(Files.readAllBytes(Path.of(devDeletion)));
        DataFragment shippedDev = DataFragment.parseFrom(Base64.getDecoder().decode(devFragment.get("fragment").asText()));
        assertThat(shippedDev.getDeletionFile().hasBaseId()).isFalse();
        assertThat(shippedDev.getFiles(0).hasBaseId()).isFalse();
    }

    @Test
    void testQueryPagination()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/orders";
        for (int maxFiles : List.of(1, 3)) {
            List<Long> seen = new ArrayList<>();
            String pageToken = null;
            int pages = 0;
            do {
                String body = pageToken == null ? "{\"maxFiles\": %s}".formatted(maxFiles) : "{\"maxFiles\": %s, \"pageToken\": \"%s\"}".formatted(maxFiles, pageToken);
                List<JsonNode> lines = ndjson(query(base, body, ALL_FEATURES));
                pages++;
                assertThat(lines.get(1).get("metaData").get("version").asLong()).isEqualTo(6);
                lines.stream().filter(line -> line.has("fragment")).forEach(line -> seen.add(line.get("fragment").get("fragmentId").asLong()));
                JsonNode end = lines.getLast().get("endStreamAction");
                pageToken = end.has("nextPageToken") ? end.get("nextPageToken").asText() : null;
            }
            while (pageToken != null);
            assertThat(seen).containsExactly(0L, 1L, 2L, 3L);
            assertThat(pages).isEqualTo(maxFiles == 1 ? 4 : 2);
        }
        assertError(query(base, "{\"maxFiles\": 0}", ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(query(base, "{\"maxFiles\": 10001}", ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");

        String token = ndjson(query(base, "{\"maxFiles\": 1}", ALL_FEATURES)).getLast().get("endStreamAction").get("nextPageToken").asText();
        // bound to the same table and selectors, and not forgeable
        assertError(query("/shares/sales/schemas/tpch/tables/orders_recent", "{\"maxFiles\": 1, \"pageToken\": \"%s\"}".formatted(token), ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(query(base, "{\"maxFiles\": 1, \"version\": 6, \"pageToken\": \"%s\"}".formatted(token), ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(query(base, "{\"maxFiles\": 1, \"pageToken\": \"%s\"}".formatted(token.substring(1)), ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");

        // a refresh token pins the version and returns the same fragments with new URLs
        List<JsonNode> first = ndjson(query(base, "{\"includeRefreshToken\": true}", ALL_FEATURES));
        String refresh = first.getLast().get("endStreamAction").get("refreshToken").asText();
        clock.advance(Duration.ofSeconds(5));
        List<JsonNode> refreshed = ndjson(query(base, "{\"refreshToken\": \"%s\"}".formatted(refresh), ALL_FEATURES));
        assertThat(refreshed).hasSize(first.size());
        assertThat(refreshed.get(1).get("metaData").get("version").asLong()).isEqualTo(6);
        assertThat(refreshed.get(2).get("fragment").get("id").asText()).isEqualTo(first.get(2).get("fragment").get("id").asText());
        assertThat(refreshed.get(2).get("fragment").get("files").get(0).get("url").asText()).isNotEqualTo(first.get(2).get("fragment").get("files").get(0).get("url").asText());
        assertThat(refreshed.getLast().get("endStreamAction").has("refreshToken")).isTrue();
        assertError(query(base, "{\"refreshToken\": \"%s\", \"branch\": \"dev\"}".formatted(refresh), ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(query(base, "{\"refreshToken\": \"x.y\"}", ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
    }

    @Test
    void testChanges()
            throws Exception
    {
        String base = "/shares/sales/schemas/tpch/tables/orders";
        HttpResponse<byte[]> response = get(base + "/changes?startingVersion=2&endingVersion=6", TOKEN, ALL_FEATURES);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("lance-sharing-capabilities")).contains("responseformat=lance");
        List<JsonNode> lines = ndjson(response);
        assertThat(lines).hasSize(2 + 5);
        assertThat(lines.get(1).get("metaData").get("version").asLong()).isEqualTo(6);
        JsonNode v2 = lines.get(2).get("version");
        assertThat(v2.get("version").asLong()).isEqualTo(2);
        assertThat(v2.get("operation").asText()).isEqualTo("append");
        assertThat(v2.get("addedFragments")).hasSize(1);
        assertThat(v2.get("addedFragments").get(0).get("fragmentId").asLong()).isEqualTo(0);
        assertThat(v2.get("addedFragments").get(0).get("files").get(0).get("url").asText()).contains("/files/sales/tpch/orders/");
        assertThat(v2.get("removedFragmentIds")).isEmpty();
        JsonNode v6 = lines.get(6).get("version");
        assertThat(v6.get("operation").asText()).isEqualTo("delete");
        assertThat(v6.get("addedFragments")).isEmpty();
        JsonNode deletion = v6.get("deletionChanges").get(0);
        assertThat(deletion.get("fragmentId").asLong()).isEqualTo(0);
        assertThat(deletion.get("deletedRowsBefore").asLong()).isEqualTo(0);
        assertThat(deletion.get("deletedRowsAfter").asLong()).isEqualTo(5);
        assertThat(download(deletion.get("deletionFile").get("url").asText(), null).statusCode()).isEqualTo(200);

        // default ending version: the latest; a branch's changes
        assertThat(ndjson(get(base + "/changes?startingVersion=5", TOKEN, ALL_FEATURES))).hasSize(2 + 2);
        List<JsonNode> dev = ndjson(get(base + "/changes?startingVersion=7&branch=dev", TOKEN, ALL_FEATURES));
        assertThat(dev).hasSize(3);
        assertThat(dev.get(2).get("version").get("deletionChanges").get(0).get("deletedRowsAfter").asLong()).isEqualTo(5);
        assertError(get(base + "/changes", TOKEN, ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(get(base + "/changes?startingVersion=5&endingVersion=3", TOKEN, ALL_FEATURES), 400, "INVALID_PARAMETER_VALUE");
        assertError(get(base + "/changes?startingVersion=1&endingVersion=99", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
    }

    @Test
    void testShareLimits()
            throws Exception
    {
        // startVersion
        String recent = "/shares/sales/schemas/tpch/tables/orders_recent";
        assertThat(json(get(recent + "/versions", TOKEN)).get("items")).hasSize(3);
        assertError(get(recent + "/metadata?version=3", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query(recent, "{\"version\": 2}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(query(recent, "{\"version\": 4}", ALL_FEATURES).statusCode()).isEqualTo(200);
        assertError(get(recent + "/changes?startingVersion=2", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(ndjson(get(recent + "/changes?startingVersion=4", TOKEN, ALL_FEATURES))).hasSize(2 + 3);
        assertError(get(recent + "/version?tag=release", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(json(get(recent + "/refs", TOKEN)).get("items")).hasSize(1);

        // a share of one tag: only the tag's version
        String release = "/shares/sales/schemas/tpch/tables/orders_release";
        // main's latest allowed version is the tag's: main's real latest (6) is never answered
        assertThat(get(release + "/version", TOKEN).headers().firstValue("Lance-Table-Version")).contains("3");
        assertThat(ndjson(get(release + "/metadata", TOKEN, ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(3);
        assertThat(ndjson(query(release, "{}", ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(3);
        assertError(get(release + "/metadata?version=6", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get(release + "/changes?startingVersion=4&endingVersion=6", TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query(release, "{\"version\": 6}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query(release, "{\"branch\": \"dev\"}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(get(release + "/version?tag=release", TOKEN).headers().firstValue("Lance-Table-Version")).contains("3");
        assertThat(ndjson(query(release, "{\"tag\": \"release\"}", ALL_FEATURES))).hasSize(2 + 2 + 1);
        assertThat(ndjson(query(release, "{\"version\": 3}", ALL_FEATURES)).get(1).get("metaData").get("version").asLong()).isEqualTo(3);
        assertThat(json(get(release + "/versions", TOKEN)).get("items")).hasSize(1);
        JsonNode refs = json(get(release + "/refs", TOKEN)).get("items");
        assertThat(refs).hasSize(1);
        assertThat(refs.get(0).get("name").asText()).isEqualTo("release");

        // a share of one branch
        String dev = "/shares/sales/schemas/tpch/tables/orders_dev";
        assertError(get(dev + "/version", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(get(dev + "/version?branch=dev", TOKEN).headers().firstValue("Lance-Table-Version")).contains("7");
        assertError(get(dev + "/version?tag=release", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertThat(json(get(dev + "/refs", TOKEN)).get("items")).hasSize(1);
    }

    @Test
    void testSignedUrlRefusals()
            throws Exception
    {
        List<JsonNode> lines = ndjson(query("/shares/sales/schemas/tpch/tables/orders", "{}", ALL_FEATURES));
        String url = lines.get(2).get("fragment").get("files").get(0).get("url").asText();
        assertThat(download(url, null).statusCode()).isEqualTo(200);
        URI uri = URI.create(url);
        String path = uri.getRawPath();
        Map<String, String> query = Arrays.stream(uri.getRawQuery().split("&"))
                .collect(Collectors.toMap(part -> part.substring(0, part.indexOf('=')), part -> part.substring(part.indexOf('=') + 1)));
        String fileId = path.substring(path.lastIndexOf('/') + 1);
        String otherFileId = lines.get(3).get("fragment").get("files").get(0).get("id").asText();
        String origin = uri.getScheme() + "://" + uri.getRawAuthority();

        // any part changed
        assertError(download(origin + path.replace(fileId, otherFileId) + "?" + uri.getRawQuery(), null), 403, "FORBIDDEN");
        assertError(download(origin + path.replace("/orders/", "/orders_recent/") + "?" + uri.getRawQuery(), null), 403, "FORBIDDEN");
        assertError(download(url.replace("range=" + query.get("range"), "range=0-10"), null), 403, "FORBIDDEN");
        long expires = Long.parseLong(query.get("expires"));
        assertError(download(url.replace("expires=" + expires, "expires=" + (expires + 1000)), null), 403, "FORBIDDEN");
        String sig = query.get("sig");
        String flipped = (sig.charAt(0) == '0' ? "1" : "0") + sig.substring(1);
        assertError(download(url.replace("sig=" + sig, "sig=" + flipped), null), 403, "FORBIDDEN");
        assertError(download(origin + path, null), 403, "FORBIDDEN");
        // expired
        clock.advance(Duration.ofSeconds(601));
        try {
            HttpResponse<byte[]> expired = download(url, null);
            assertError(expired, 403, "FORBIDDEN");
            assertThat(message(expired)).contains("expired");
        }
        finally {
            clock.advance(Duration.ofSeconds(-601));
        }
        // an unknown file id, correctly signed
        assertError(download(origin + "/lance-sharing/files/sales/tpch/orders/0123456789abcdef0123456789abcdef?range=0-10&expires=" + expires + "&sig=00", null), 403, "FORBIDDEN");
    }

    @Test
    void testPathTraversal()
            throws Exception
    {
        List<String> bad = List.of("..", "%2e%2e", "%2E%2E", "a%2Fb", "a%5Cb", "%2e", "a%00b", "a%20b", "a%2F..%2Fb");
        for (String name : bad) {
            assertPathRefused(get("/shares/" + name, TOKEN));
            assertPathRefused(get("/shares/" + name + "/schemas", TOKEN));
            assertPathRefused(get("/shares/sales/schemas/" + name + "/tables", TOKEN));
            assertPathRefused(get("/shares/sales/schemas/tpch/tables/" + name + "/version", TOKEN));
            assertError(get("/shares/sales/schemas/tpch/tables/orders/version?branch=" + name, TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
            assertError(get("/shares/sales/schemas/tpch/tables/orders/version?tag=" + name, TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
            assertError(get("/shares/sales/schemas/tpch/tables/orders/metadata?branch=" + name, TOKEN, ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
            assertPathRefused(get("/files/" + name + "/tpch/orders/0123456789abcdef0123456789abcdef?range=0-1&expires=1&sig=0", null));
            assertPathRefused(get("/files/sales/" + name + "/orders/0123456789abcdef0123456789abcdef?range=0-1&expires=1&sig=0", null));
            assertPathRefused(get("/files/sales/tpch/" + name + "/0123456789abcdef0123456789abcdef?range=0-1&expires=1&sig=0", null));
            assertPathRefused(get("/files/sales/tpch/orders/" + name + "?range=0-1&expires=1&sig=0", null));
        }
        // dots inside schema and table names; a branch written into a query body
        assertError(get("/shares/sales/schemas/tpch.x/tables", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get("/shares/sales/schemas/tpch/tables/orders.lance/version", TOKEN), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query("/shares/sales/schemas/tpch/tables/orders", "{\"branch\": \"../../x\"}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(query("/shares/sales/schemas/tpch/tables/orders", "{\"tag\": \"..\"}", ALL_FEATURES), 404, "RESOURCE_DOES_NOT_EXIST");
        assertError(get("/files/sales/tpch/orders/../../../../etc/passwd", null), 404, "RESOURCE_DOES_NOT_EXIST");
    }

    private HttpResponse<byte[]> get(String path, String token)
            throws Exception
    {
        return get(path, token, null);
    }

    private HttpResponse<byte[]> get(String path, String token, String capabilities)
            throws Exception
    {
        HttpRequest.Builder request = request(path).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (capabilities != null) {
            request.header("lance-sharing-capabilities", capabilities);
        }
        return send(request);
    }

    private HttpResponse<byte[]> query(String tablePath, String body, String capabilities)
            throws Exception
    {
        HttpRequest.Builder request = request(tablePath + "/query")
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (capabilities != null) {
            request.header("lance-sharing-capabilities", capabilities);
        }
        return send(request);
    }

    private HttpResponse<byte[]> download(String url, String range)
            throws Exception
    {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (range != null) {
            request.header("Range", range);
        }
        return send(request);
    }

    private HttpRequest.Builder request(String path)
    {
        return HttpRequest.newBuilder(URI.create(endpoint + path));
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder request)
            throws Exception
    {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static JsonNode json(HttpResponse<byte[]> response)
            throws IOException
    {
        assertThat(response.statusCode()).as(new String(response.body(), UTF_8)).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        return MAPPER.readTree(response.body());
    }

    private static List<JsonNode> ndjson(HttpResponse<byte[]> response)
            throws IOException
    {
        assertThat(response.statusCode()).as(new String(response.body(), UTF_8)).isEqualTo(200);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : new String(response.body(), UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                JsonNode node = MAPPER.readTree(line);
                assertThat(node.size()).isEqualTo(1);
                lines.add(node);
            }
        }
        return lines;
    }

    private static void assertError(HttpResponse<byte[]> response, int status, String code)
            throws IOException
    {
        String body = new String(response.body(), UTF_8);
        assertThat(response.statusCode()).as(response.uri() + ": " + body).isEqualTo(status);
        JsonNode error = MAPPER.readTree(body);
        assertThat(error.get("errorCode").asText()).as(body).isEqualTo(code);
        assertThat(error.get("message").asText()).isNotEmpty().doesNotContain(TOKEN).doesNotContain("ab".repeat(32)).doesNotContain("/tmp");
    }

    /**
     * 404 from the server, or 400 from Jetty, which refuses an encoded dot segment ({@code %2e%2e}, {@code %2e}) as an
     * ambiguous URI and an encoded NUL as an invalid one before any servlet sees them; both in the protocol's JSON.
     */
    private static void assertPathRefused(HttpResponse<byte[]> response)
            throws IOException
    {
        if (response.statusCode() == 400) {
            assertError(response, 400, "INVALID_PARAMETER_VALUE");
            assertThat(response.uri().getRawPath().toLowerCase(java.util.Locale.ROOT)).containsAnyOf("%2e", "%00");
            return;
        }
        assertError(response, 404, "RESOURCE_DOES_NOT_EXIST");
    }

    private static String message(HttpResponse<byte[]> response)
            throws IOException
    {
        return MAPPER.readTree(response.body()).get("message").asText();
    }

    private static List<String> names(JsonNode list)
    {
        return texts(list.get("items")).isEmpty() ? List.of() : list.get("items").valueStream().map(item -> item.get("name").asText()).toList();
    }

    private static List<String> texts(JsonNode array)
    {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.isTextual() ? node.asText() : node.toString()));
        return texts;
    }


    private static final class MovableClock
            extends Clock
    {
        private volatile Duration offset = Duration.ZERO;

        void advance(Duration duration)
        {
            offset = offset.plus(duration);
        }

        @Override
        public ZoneId getZone()
        {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone)
        {
            return this;
        }

        @Override
        public Instant instant()
        {
            return Instant.now().plus(offset);
        }
    }
}
