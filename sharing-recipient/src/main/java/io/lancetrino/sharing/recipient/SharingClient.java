package io.lancetrino.sharing.recipient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The recipient's side of the sharing protocol ({@code sharing-server/PROTOCOL.md}): listings, versions, refs, and a
 * version's fragments rebuilt into a Lance manifest whose files are read through signed URLs.
 */
public final class SharingClient
{
    public static final String CAPABILITIES_HEADER = "lance-sharing-capabilities";
    // everything the connector's readers handle
    static final String CAPABILITIES = "responseformat=lance;readerfeatures=deletionfiles,basepaths,stablerowids,v2files";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int BASE_PATH_ID = 1;
    private static final int PAGE_FILES = 1000;

    private final SharingProfile profile;
    private final HttpClient http;

    public SharingClient(SharingProfile profile)
    {
        this.profile = requireNonNull(profile, "profile is null");
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    public URI endpoint()
    {
        return profile.endpoint();
    }

    public record VersionEntry(long version, long timestampMillis) {}

    /**
     * A tag ({@code branch} is where it points) or a branch ({@code parentBranch} and {@code parentVersion} are where
     * it started, {@code version} its latest version).
     */
    public record RefEntry(String type, String name, Optional<String> branch, long version, Optional<String> parentBranch, long parentVersion)
    {
        public boolean isTag()
        {
            return type.equals("tag");
        }
    }

    public List<String> listShares()
            throws IOException
    {
        return listNames("shares");
    }

    public List<String> listSchemas(String share)
            throws IOException
    {
        return listNames("shares/" + encode(share) + "/schemas");
    }

    public List<String> listTables(String share, String schema)
            throws IOException
    {
        return listNames("shares/" + encode(share) + "/schemas/" + encode(schema) + "/tables");
    }

    public List<VersionEntry> versions(SharedTable table, Optional<String> branch)
            throws IOException
    {
        JsonNode answer = getJson(tablePath(table) + "/versions" + branch.map(name -> "?branch=" + encode(name)).orElse(""));
        ImmutableList.Builder<VersionEntry> versions = ImmutableList.builder();
        for (JsonNode item : answer.path("items")) {
            long timestamp = item.hasNonNull("timestamp") ? Instant.parse(item.get("timestamp").asText()).toEpochMilli() : 0;
            versions.add(new VersionEntry(item.path("version").asLong(), timestamp));
        }
        return versions.build();
    }

    public List<RefEntry> refs(SharedTable table)
            throws IOException
    {
        JsonNode answer = getJson(tablePath(table) + "/refs");
        ImmutableList.Builder<RefEntry> refs = ImmutableList.builder();
        for (JsonNode item : answer.path("items")) {
            refs.add(new RefEntry(
                    item.path("type").asText(),
                    item.path("name").asText(),
                    text(item, "branch"),
                    item.path("version").asLong(),
                    text(item, "parentBranch"),
                    item.path("parentVersion").asLong()));
        }
        return refs.build();
    }

    /**
     * Every fragment of one version, page by page, rebuilt into a manifest file whose files all live under the
     * version's {@code _shared} directory.
     *
     * @throws FileNotFoundException if the version does not exist or the share does not allow it
     */
    public SharedVersion query(SharedTable table, Optional<String> branch, long version)
            throws IOException
    {
        long fetchedAt = System.currentTimeMillis();
        Manifest.Builder manifest = null;
        Optional<Transaction> transaction = Optional.empty();
        Map<String, SignedFile> files = new HashMap<>();
        Optional<String> pageToken = Optional.empty();
        do {
            ObjectNode body = MAPPER.createObjectNode();
            body.put("version", version);
            branch.ifPresent(name -> body.put("branch", name));
            body.put("maxFiles", PAGE_FILES);
            pageToken.ifPresent(token -> body.put("pageToken", token));
            HttpResponse<String> response = send(tablePath(table) + "/query", HttpRequest.BodyPublishers.ofString(MAPPER.writeValueAsString(body)));
            checkFormat(table, response);
            pageToken = Optional.empty();
            boolean ended = false;
            for (String line : response.body().split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = MAPPER.readTree(line);
                if (node.has("protocol")) {
                    String format = node.get("protocol").path("responseFormat").asText("");
                    if (!format.equals("lance")) {
                        throw new IOException("Sharing server %s answered table %s in format '%s', not lance".formatted(profile.endpoint(), table, format));
                    }
                }
                else if (node.has("metaData")) {
                    if (manifest == null) {
                        JsonNode metaData = node.get("metaData");
                        manifest = Manifest.parseFrom(decode(metaData, "manifest")).toBuilder()
                                .clearFragments()
                                .clearBasePaths()
                                .addBasePaths(BasePath.newBuilder()
                                        .setId(BASE_PATH_ID)
                                        .setIsDatasetRoot(true)
                                        .setPath(SharedLocation.versionDirectory(table, branch, version)));
                        if (metaData.hasNonNull("transaction")) {
                            transaction = Optional.of(Transaction.parseFrom(decode(metaData, "transaction")));
                        }
                    }
                }
                else if (node.has("fragment")) {
                    if (manifest == null) {
                        throw new IOException("Sharing server %s sent a fragment of table %s before its metadata".formatted(profile.endpoint(), table));
                    }
                    manifest.addFragments(fragment(node.get("fragment"), files));
                }
                else if (node.has("endStreamAction")) {
                    JsonNode end = node.get("endStreamAction");
                    if (end.hasNonNull("errorMessage")) {
                        throw new IOException("Sharing server %s failed while answering table %s version %s: %s".formatted(profile.endpoint(), table, version, end.get("errorMessage").asText()));
                    }
                    pageToken = text(end, "nextPageToken").filter(token -> !token.isEmpty());
                    ended = true;
                }
            }
            if (!ended) {
                throw new IOException("Sharing server %s cut off its answer for table %s version %s (no endStreamAction)".formatted(profile.endpoint(), table, version));
            }
        }
        while (pageToken.isPresent());
        if (manifest == null) {
            throw new IOException("Sharing server %s sent no metadata for table %s version %s".formatted(profile.endpoint(), table, version));
        }
        return new SharedVersion(ManifestFile.serialize(manifest.build(), transaction, Optional.empty()), files, fetchedAt);
    }

    private static DataFragment fragment(JsonNode line, Map<String, SignedFile> files)
            throws IOException
    {
        DataFragment.Builder fragment = DataFragment.parseFrom(decode(line, "fragment")).toBuilder();
        long expires = line.path("expirationTimestamp").asLong(Long.MAX_VALUE);
        JsonNode signed = line.path("files");
        if (signed.size() != fragment.getFilesCount()) {
            throw new IOException("Fragment %s lists %s data files but %s URLs".formatted(fragment.getId(), fragment.getFilesCount(), signed.size()));
        }
        for (int i = 0; i < fragment.getFilesCount(); i++) {
            JsonNode file = signed.get(i);
            fragment.getFilesBuilder(i).setBaseId(BASE_PATH_ID);
            files.put("data/" + fragment.getFiles(i).getPath(), new SignedFile(URI.create(file.path("url").asText()), file.path("size").asLong(), expires));
        }
        if (fragment.hasDeletionFile()) {
            JsonNode deletion = line.path("deletionFile");
            if (!deletion.hasNonNull("url")) {
                throw new IOException("Fragment %s has a deletion file but no URL for it".formatted(fragment.getId()));
            }
            fragment.getDeletionFileBuilder().setBaseId(BASE_PATH_ID);
            String name = FilePaths.deletionFileName(fragment.getId(), fragment.getDeletionFile());
            files.put("_deletions/" + name, new SignedFile(URI.create(deletion.get("url").asText()), deletion.path("size").asLong(), expires));
        }
        return fragment.build();
    }

    /**
     * The bytes {@code [position, position + length)} of a signed file.
     *
     * @throws FileNotFoundException if the URL is no longer good (expired, or unknown to a restarted server)
     */
    public byte[] read(SignedFile file, long position, int length)
            throws IOException
    {
        if (length == 0) {
            return new byte[0];
        }
        HttpRequest request = newRequest(file.url())
                .header("Range", "bytes=%s-%s".formatted(position, position + length - 1))
                .timeout(Duration.ofMinutes(2))
                .build();
        HttpResponse<byte[]> response = exchangeRetryingOnce(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 403 || response.statusCode() == 404) {
            throw new FileNotFoundException("signed URL refused with HTTP " + response.statusCode());
        }
        if (response.statusCode() != 206 && response.statusCode() != 200) {
            throw new IOException("reading %s bytes at %s through a signed URL failed with HTTP %s: %s".formatted(length, position, response.statusCode(), errorText(response.body())));
        }
        byte[] body = response.body();
        if (response.statusCode() == 200) {
            // a server that ignores ranges sends the whole file
            if (body.length < position + length) {
                throw new IOException("signed URL sent %s bytes, wanted %s at %s".formatted(body.length, length, position));
            }
            return java.util.Arrays.copyOfRange(body, (int) position, (int) position + length);
        }
        if (body.length != length) {
            throw new IOException("signed URL sent %s bytes for a range of %s at %s".formatted(body.length, length, position));
        }
        return body;
    }

    private List<String> listNames(String path)
            throws IOException
    {
        ImmutableList.Builder<String> names = ImmutableList.builder();
        Optional<String> pageToken = Optional.empty();
        do {
            JsonNode answer = getJson(path + pageToken.map(token -> "?pageToken=" + encode(token)).orElse(""));
            for (JsonNode item : answer.path("items")) {
                names.add(item.path("name").asText());
            }
            pageToken = text(answer, "nextPageToken").filter(token -> !token.isEmpty());
        }
        while (pageToken.isPresent());
        return names.build();
    }

    private JsonNode getJson(String path)
            throws IOException
    {
        HttpResponse<String> response = send(path, null);
        return MAPPER.readTree(response.body());
    }

    private HttpResponse<String> send(String path, HttpRequest.BodyPublisher postBody)
            throws IOException
    {
        profile.expirationTime().ifPresent(expiration -> {
            if (Instant.now().isAfter(expiration)) {
                throw new IllegalStateException("The sharing profile for %s expired at %s; ask the data provider for a new one".formatted(profile.endpoint(), expiration));
            }
        });
        HttpRequest.Builder request = newRequest(URI.create(profile.endpoint() + "/" + path))
                .header("Authorization", "Bearer " + profile.bearerToken())
                .header(CAPABILITIES_HEADER, CAPABILITIES)
                .timeout(Duration.ofMinutes(2));
        if (postBody != null) {
            request.header("Content-Type", "application/json").POST(postBody);
        }
        HttpResponse<String> response = exchange(request.build(), HttpResponse.BodyHandlers.ofString(UTF_8));
        int status = response.statusCode();
        if (status == 404) {
            throw new FileNotFoundException("%s: not shared with this recipient or does not exist (%s)".formatted(path, errorText(response.body())));
        }
        if (status != 200) {
            throw new IOException("Sharing server %s answered %s with HTTP %s: %s".formatted(profile.endpoint(), path, status, errorText(response.body())));
        }
        return response;
    }

    /**
     * HTTP/2 only where TLS negotiates it: over cleartext the JDK client's h2c upgrade lost its framing under
     * concurrent range reads of large files ("Frame type(179) length(16305156) exceeds MAX_FRAME_SIZE").
     */
    private static HttpRequest.Builder newRequest(URI uri)
    {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        if ("http".equalsIgnoreCase(uri.getScheme())) {
            request.version(HttpClient.Version.HTTP_1_1);
        }
        return request;
    }

    /**
     * For idempotent reads only: a connection that fails before an answer (reset, closed, garbled) is tried once more
     * on a new exchange, so one network hiccup does not fail a query; a timeout or an HTTP answer of any status is not
     * retried.
     */
    private <T> HttpResponse<T> exchangeRetryingOnce(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException
    {
        try {
            return exchange(request, handler);
        }
        catch (InterruptedIOException | HttpTimeoutException e) {
            // waited long enough already
            throw e;
        }
        catch (IOException first) {
            try {
                return exchange(request, handler);
            }
            catch (IOException second) {
                second.addSuppressed(first);
                throw second;
            }
        }
    }

    private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException
    {
        try {
            return http.send(request, handler);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the sharing server");
        }
    }

    private void checkFormat(SharedTable table, HttpResponse<?> response)
            throws IOException
    {
        Optional<String> answered = response.headers().firstValue(CAPABILITIES_HEADER);
        if (answered.isPresent() && !answered.get().toLowerCase(java.util.Locale.ROOT).contains("responseformat=lance")) {
            throw new IOException("Sharing server %s answered table %s with capabilities '%s', not responseformat=lance".formatted(profile.endpoint(), table, answered.get()));
        }
    }

    private static String errorText(Object body)
    {
        String text = body instanceof byte[] bytes ? new String(bytes, UTF_8) : String.valueOf(body);
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node.has("errorCode")) {
                return node.path("errorCode").asText() + ": " + node.path("message").asText();
            }
        }
        catch (IOException _) {
            // not JSON: shown as it is, shortened
        }
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    private static String tablePath(SharedTable table)
    {
        return "shares/%s/schemas/%s/tables/%s".formatted(encode(table.share()), encode(table.schema()), encode(table.table()));
    }

    private static byte[] decode(JsonNode node, String field)
            throws IOException
    {
        if (!node.hasNonNull(field)) {
            throw new IOException("sharing answer has no '%s'".formatted(field));
        }
        try {
            return Base64.getDecoder().decode(node.get(field).asText());
        }
        catch (IllegalArgumentException e) {
            throw new IOException("sharing answer's '%s' is not base64".formatted(field), e);
        }
    }

    private static Optional<String> text(JsonNode node, String field)
    {
        return node.hasNonNull(field) ? Optional.of(node.get(field).asText()) : Optional.empty();
    }

    private static String encode(String segment)
    {
        return URLEncoder.encode(segment, UTF_8).replace("+", "%20");
    }
}
