package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.airlift.log.Logger;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.fs.TableFileSystem;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Every request of PROTOCOL.md. Paths are split from the raw request URI and each segment is decoded and checked on
 * its own, so an encoded {@code /} or {@code ..} stays inside one name, where {@link Names} refuses it.
 */
public final class SharingServlet
        extends HttpServlet
{
    public static final String PREFIX = "/lance-sharing";
    public static final int MAX_LIST_RESULTS = 1000;
    private static final String NDJSON = "application/x-ndjson; charset=utf-8";
    private static final String JSON = "application/json; charset=utf-8";
    private static final Logger log = Logger.get(SharingServlet.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final SharingConfig config;
    private final Authenticator authenticator;
    private final TableService tables;
    private final FileRegistry files;
    private final UrlSigner signer;
    private final Clock clock;
    private final ManifestCache manifestCache = new ManifestCache(256L << 20);
    private final Warehouses warehouses;
    private final ObjectMapper mapper = new ObjectMapper();
    private final ServerSettings settings;
    // every URL the server writes starts here: the configured public URL, else the server's own; never the Host header
    private volatile String publicBaseUrl;
    private final AtomicLong fileBytesServed = new AtomicLong();
    private final AtomicLong requestCpuNanos = new AtomicLong();

    public SharingServlet(SharingConfig config, Warehouses warehouses, Clock clock)
    {
        this.config = requireNonNull(config, "config is null");
        this.warehouses = requireNonNull(warehouses, "warehouses is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = config.server();
        this.authenticator = new Authenticator(config.recipients(), clock);
        this.signer = new UrlSigner(config.signingKey());
        this.files = new FileRegistry(1_000_000);
        this.tables = new TableService(files, signer, warehouses, config.urlLifetimeSeconds(), clock);
    }

    /**
     * Set once the server listens, before it answers anything.
     */
    void setPublicBaseUrl(String url)
    {
        this.publicBaseUrl = url + PREFIX;
    }

    /**
     * Bytes of table files the server itself has sent (local warehouses); object-store files never pass through it.
     */
    public long fileBytesServed()
    {
        return fileBytesServed.get();
    }

    /**
     * CPU time the server's request threads spent answering requests, for the benchmark.
     */
    public long requestCpuNanos()
    {
        return requestCpuNanos.get();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws IOException
    {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        try {
            answer(request, response);
        }
        finally {
            requestCpuNanos.addAndGet(THREADS.getCurrentThreadCpuTime() - cpuStart);
        }
    }

    private void answer(HttpServletRequest request, HttpServletResponse response)
            throws IOException
    {
        String rawPath = request.getRequestURI();
        boolean fileRequest = rawPath != null && rawPath.startsWith(PREFIX + "/files/");
        // a file URL answers everything that is not a good signature alike
        SharingException malformed = fileRequest
                ? SharingException.forbidden("The file URL's signature does not match")
                : SharingException.invalidParameter("Malformed percent-encoding or a repeated parameter in the request");
        try {
            if (request.getContentLengthLong() > settings.maxRequestBodyBytes()) {
                response.setHeader("Connection", "close");
                throw SharingException.requestTooLarge(settings.maxRequestBodyBytes());
            }
            QueryParameters parameters = QueryParameters.parse(request.getQueryString(), malformed);
            List<String> path = segments(rawPath, malformed);
            if (fileRequest) {
                serveFile(path, parameters, request, response);
                return;
            }
            SharingConfig.Recipient recipient = authenticator.authenticate(request.getHeader("Authorization"));
            route(recipient, path, parameters, request, response);
        }
        catch (SharingException e) {
            if (e.status() != 413) {
                drainBody(request);
            }
            writeError(response, e.status(), e.errorCode(), e.getMessage());
        }
        catch (LanceTableException e) {
            drainBody(request);
            // the table layer's messages name server-side paths: they stay in the log
            switch (e.kind()) {
                case TABLE_NOT_FOUND, VERSION_NOT_FOUND, REF_NOT_FOUND -> writeError(response, 404, SharingException.RESOURCE_DOES_NOT_EXIST, "Version or table not found");
                default -> {
                    log.warn(e, "Cannot answer %s %s from %s", request.getMethod(), rawPath, clientAddress(request));
                    writeError(response, 500, SharingException.INTERNAL_ERROR, "The server cannot read the table (" + e.kind() + ")");
                }
            }
        }
        catch (RuntimeException e) {
            log.error(e, "Cannot answer %s %s from %s", request.getMethod(), rawPath, clientAddress(request));
            writeError(response, 500, SharingException.INTERNAL_ERROR, "Internal error");
        }
    }

    /**
     * The client's address for the log: the peer's, or what a trusted proxy's {@code Forwarded} header says. Airlift
     * drops every {@code X-Forwarded-*} header on arrival, so no client can pass for another through them.
     */
    String clientAddress(HttpServletRequest request)
    {
        String peer = request.getRemoteAddr();
        if (settings.trustedProxies().stream().noneMatch(block -> block.contains(peer))) {
            return peer;
        }
        return ForwardedHeader.client(request.getHeader("Forwarded")).orElse(peer);
    }

    private void route(SharingConfig.Recipient recipient, List<String> path, QueryParameters parameters, HttpServletRequest request, HttpServletResponse response)
            throws IOException
    {
        int size = path.size();
        if (size == 0 || !path.getFirst().equals("shares")) {
            throw SharingException.notFound("Not found");
        }
        if (size == 1) {
            requireGet(request);
            List<ObjectNode> items = config.shares().stream()
                    .filter(share -> recipient.shares().contains(share.name()))
                    .map(share -> mapper.createObjectNode().put("name", share.name()))
                    .collect(ImmutableList.toImmutableList());
            writeJson(response, page(items, parameters));
            return;
        }
        SharingConfig.Share share = share(recipient, path.get(1));
        if (size == 2) {
            requireGet(request);
            ObjectNode result = mapper.createObjectNode();
            result.putObject("share").put("name", share.name());
            writeJson(response, result);
            return;
        }
        if (size == 3 && path.get(2).equals("schemas")) {
            requireGet(request);
            writeJson(response, page(share.schemas().stream()
                    .map(schema -> mapper.createObjectNode().put("name", schema.name()).put("share", share.name()))
                    .collect(ImmutableList.toImmutableList()), parameters));
            return;
        }
        if (size == 3 && path.get(2).equals("all-tables")) {
            requireGet(request);
            List<ObjectNode> items = new ArrayList<>();
            share.schemas().forEach(schema -> schema.tables().forEach(table -> items.add(tableItem(share, schema, table))));
            writeJson(response, page(items, parameters));
            return;
        }
        if (size < 5 || !path.get(2).equals("schemas") || !path.get(4).equals("tables")) {
            throw SharingException.notFound("Not found");
        }
        SharingConfig.Schema schema = share.schema(Names.schema(path.get(3))).orElseThrow(() -> SharingException.notFound("Schema not found"));
        if (size == 5) {
            requireGet(request);
            writeJson(response, page(schema.tables().stream()
                    .map(table -> tableItem(share, schema, table))
                    .collect(ImmutableList.toImmutableList()), parameters));
            return;
        }
        SharingConfig.Table tableConfig = schema.table(Names.table(path.get(5))).orElseThrow(() -> SharingException.notFound("Table not found"));
        if (size != 7) {
            throw SharingException.notFound("Not found");
        }
        TableFileSystem fileSystem = warehouses.fileSystem(tableConfig.location());
        if (!LanceTable.isTable(fileSystem, tableConfig.location())) {
            // configured, but dropped or not written yet
            log.warn("Shared table %s.%s.%s has no Lance table at its location", share.name(), schema.name(), tableConfig.name());
            throw SharingException.notFound("Table not found");
        }
        SharedTable table = new SharedTable(share.name(), schema.name(), tableConfig,
                new LanceTable(fileSystem, tableConfig.location(), share.name() + "." + schema.name() + "." + tableConfig.name(), manifestCache));
        String action = path.get(6);
        switch (action) {
            case "version" -> {
                if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
                    throw unsupportedMethod(request);
                }
                long version = tables.version(table, parameters.nonEmpty("branch"), parameters.nonEmpty("tag"),
                        Selectors.parseTimestamp(parameters.get("startingTimestamp")));
                response.setStatus(200);
                response.setHeader("Lance-Table-Version", Long.toString(version));
                response.setContentLength(0);
            }
            case "versions" -> {
                requireGet(request);
                writeJson(response, tables.versions(table, parameters.nonEmpty("branch")));
            }
            case "refs" -> {
                requireGet(request);
                writeJson(response, tables.refs(table));
            }
            case "metadata" -> {
                requireGet(request);
                Capabilities capabilities = Capabilities.parse(request.getHeader(Capabilities.HEADER));
                Selectors selectors = new Selectors(
                        Selectors.parseVersion(parameters.get("version")),
                        Selectors.parseTimestamp(parameters.get("timestamp")),
                        parameters.nonEmpty("tag"),
                        parameters.nonEmpty("branch"));
                writeNdjson(response, tables.metadata(table, selectors, capabilities));
            }
            case "query" -> {
                if (!request.getMethod().equals("POST")) {
                    throw unsupportedMethod(request);
                }
                Capabilities capabilities = Capabilities.parse(request.getHeader(Capabilities.HEADER));
                JsonNode body;
                try (InputStream input = request.getInputStream()) {
                    byte[] bytes = input.readNBytes((int) settings.maxRequestBodyBytes() + 1);
                    if (bytes.length > settings.maxRequestBodyBytes()) {
                        throw SharingException.requestTooLarge(settings.maxRequestBodyBytes());
                    }
                    body = bytes.length == 0 ? null : mapper.readTree(bytes);
                }
                catch (IOException e) {
                    throw SharingException.invalidParameter("The query body is not valid JSON");
                }
                writeNdjson(response, tables.query(table, TableService.QueryRequest.parse(body), capabilities, publicBaseUrl, urlDeadline(recipient)));
            }
            case "changes" -> {
                requireGet(request);
                Capabilities capabilities = Capabilities.parse(request.getHeader(Capabilities.HEADER));
                writeNdjson(response, tables.changes(table,
                        Selectors.parseVersion(parameters.get("startingVersion")),
                        Selectors.parseVersion(parameters.get("endingVersion")),
                        parameters.nonEmpty("branch"),
                        capabilities,
                        publicBaseUrl,
                        urlDeadline(recipient)));
            }
            default -> throw SharingException.notFound("Not found");
        }
    }

    // a URL never outlives its recipient
    private static long urlDeadline(SharingConfig.Recipient recipient)
    {
        return recipient.expirationTime().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
    }

    private SharingConfig.Share share(SharingConfig.Recipient recipient, String segment)
    {
        String name = Names.share(segment);
        // a share that is not granted is answered exactly as one that does not exist
        return config.share(name)
                .filter(share -> recipient.shares().contains(share.name()))
                .orElseThrow(() -> SharingException.notFound("Share not found"));
    }

    private ObjectNode tableItem(SharingConfig.Share share, SharingConfig.Schema schema, SharingConfig.Table table)
    {
        return mapper.createObjectNode().put("name", table.name()).put("schema", schema.name()).put("share", share.name());
    }

    private ObjectNode page(List<ObjectNode> items, QueryParameters parameters)
    {
        int maxResults = MAX_LIST_RESULTS;
        String maxText = parameters.get("maxResults");
        if (maxText != null) {
            try {
                maxResults = Integer.parseInt(maxText.trim());
            }
            catch (NumberFormatException e) {
                maxResults = -1;
            }
            if (maxResults < 1 || maxResults > MAX_LIST_RESULTS) {
                throw SharingException.invalidParameter("maxResults must be between 1 and " + MAX_LIST_RESULTS);
            }
        }
        int offset = 0;
        String token = parameters.get("pageToken");
        if (token != null && !token.isEmpty()) {
            try {
                String text = new String(Base64.getUrlDecoder().decode(token), UTF_8);
                if (!text.startsWith("offset:")) {
                    throw new IllegalArgumentException();
                }
                offset = Integer.parseInt(text.substring("offset:".length()));
                if (offset < 0) {
                    throw new IllegalArgumentException();
                }
            }
            catch (IllegalArgumentException e) {
                throw SharingException.invalidParameter("Invalid pageToken");
            }
        }
        ObjectNode result = mapper.createObjectNode();
        ArrayNode array = result.putArray("items");
        int end = (int) Math.min(items.size(), (long) offset + maxResults);
        for (int i = Math.min(offset, items.size()); i < end; i++) {
            array.add(items.get(i));
        }
        if (end < items.size()) {
            result.put("nextPageToken", Base64.getUrlEncoder().withoutPadding().encodeToString(("offset:" + end).getBytes(UTF_8)));
        }
        return result;
    }

    private void serveFile(List<String> path, QueryParameters parameters, HttpServletRequest request, HttpServletResponse response)
            throws IOException
    {
        if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
            throw unsupportedMethod(request);
        }
        if (path.size() != 5 || !path.getFirst().equals("files")) {
            throw SharingException.notFound("File not found");
        }
        String share = Names.share(path.get(1));
        String schema = Names.schema(path.get(2));
        String table = Names.table(path.get(3));
        String fileId = path.get(4);
        if (!FileRegistry.isFileId(fileId)) {
            throw SharingException.notFound("File not found");
        }
        String range = parameters.get("range");
        String expiresText = parameters.get("expires");
        String signature = parameters.get("sig");
        if (range == null || expiresText == null || signature == null) {
            throw SharingException.forbidden("The file URL is not signed");
        }
        long expires;
        long signedStart;
        long signedEnd;
        try {
            expires = Long.parseLong(expiresText);
            int dash = range.indexOf('-');
            signedStart = Long.parseLong(range.substring(0, dash));
            signedEnd = Long.parseLong(range.substring(dash + 1));
        }
        catch (RuntimeException e) {
            throw SharingException.forbidden("The file URL's signature does not match");
        }
        if (!signer.verify(UrlSigner.fileUrlText(share, schema, table, fileId, range, expires), signature)) {
            throw SharingException.forbidden("The file URL's signature does not match");
        }
        if (clock.millis() >= expires) {
            throw SharingException.forbidden("The file URL has expired; query the table again for new URLs");
        }
        FileRegistry.SharedFile file = files.get(share, schema, table, fileId)
                .orElseThrow(() -> SharingException.notFound("File not found; query the table again for new URLs"));
        long fileSize = file.size();
        signedEnd = Math.min(signedEnd, fileSize);

        String rangeHeader = request.getHeader("Range");
        long start = signedStart;
        long end = signedEnd;
        boolean partial = rangeHeader != null;
        if (partial) {
            long[] requested = parseRange(rangeHeader, fileSize);
            if (requested == null || requested[0] < signedStart || requested[1] > signedEnd || requested[0] >= requested[1]) {
                response.setHeader("Content-Range", "bytes */" + fileSize);
                throw new SharingException(416, SharingException.RANGE_NOT_SATISFIABLE, "The range is outside the file or the signed range");
            }
            start = requested[0];
            end = requested[1];
        }
        else if (signedStart != 0 || signedEnd != fileSize) {
            partial = true;
        }
        response.setStatus(partial ? 206 : 200);
        response.setHeader("Accept-Ranges", "bytes");
        if (partial) {
            response.setHeader("Content-Range", "bytes %s-%s/%s".formatted(start, end - 1, fileSize));
        }
        response.setContentType("application/octet-stream");
        response.setContentLengthLong(end - start);
        if (request.getMethod().equals("HEAD")) {
            return;
        }
        try (FileChannel channel = FileChannel.open(LocalTableFileSystem.toPath(file.location()), StandardOpenOption.READ)) {
            OutputStream output = response.getOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
            long position = start;
            while (position < end) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), end - position));
                int read = channel.read(buffer, position);
                if (read < 0) {
                    throw new IOException("File shrank while it was sent");
                }
                output.write(buffer.array(), 0, read);
                position += read;
                fileBytesServed.addAndGet(read);
            }
        }
        catch (NoSuchFileException e) {
            throw SharingException.notFound("File not found; query the table again for new URLs");
        }
    }

    /**
     * {@code bytes=a-b}, {@code bytes=a-} or {@code bytes=-n} as {@code [start, end)}, or null when unreadable or
     * more than one range.
     */
    static long[] parseRange(String header, long fileSize)
    {
        String text = header.trim();
        if (!text.startsWith("bytes=") || text.contains(",")) {
            return null;
        }
        String spec = text.substring("bytes=".length()).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        try {
            String first = spec.substring(0, dash).trim();
            String last = spec.substring(dash + 1).trim();
            if (first.isEmpty()) {
                long suffix = Long.parseLong(last);
                return suffix <= 0 ? null : new long[] {Math.max(0, fileSize - suffix), fileSize};
            }
            long start = Long.parseLong(first);
            long end = last.isEmpty() ? fileSize : Long.parseLong(last) + 1;
            return start < 0 || start >= fileSize ? null : new long[] {start, end};
        }
        catch (NumberFormatException e) {
            return null;
        }
    }

    private static List<String> segments(String rawPath, SharingException malformed)
    {
        if (rawPath == null || !rawPath.startsWith(PREFIX + "/")) {
            throw SharingException.notFound("Not found");
        }
        String rest = rawPath.substring(PREFIX.length() + 1);
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        ImmutableList.Builder<String> segments = ImmutableList.builder();
        for (String segment : rest.split("/", -1)) {
            try {
                segments.add(URLDecoder.decode(segment.replace("+", "%2B"), UTF_8));
            }
            catch (IllegalArgumentException e) {
                throw malformed;
            }
        }
        return segments.build();
    }

    private static void requireGet(HttpServletRequest request)
    {
        if (!request.getMethod().equals("GET")) {
            throw unsupportedMethod(request);
        }
    }

    private static SharingException unsupportedMethod(HttpServletRequest request)
    {
        return SharingException.unsupported("Method " + request.getMethod() + " is not supported here");
    }

    private void writeJson(HttpServletResponse response, JsonNode body)
            throws IOException
    {
        byte[] bytes = mapper.writeValueAsBytes(body);
        response.setStatus(200);
        response.setContentType(JSON);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private void writeNdjson(HttpServletResponse response, List<JsonNode> lines)
            throws IOException
    {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        byte[] bytes = text.toString().getBytes(UTF_8);
        response.setStatus(200);
        response.setContentType(NDJSON);
        response.setHeader(Capabilities.HEADER, Capabilities.RESPONSE_HEADER_VALUE);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /**
     * Reads what is left of a request body before an early error answer: a client still sending it would otherwise see
     * its stream reset (HTTP/2) instead of the error. Bounded, so a huge body is not read for nothing.
     */
    private static void drainBody(HttpServletRequest request)
    {
        try (InputStream input = request.getInputStream()) {
            input.skipNBytes(Math.min(Math.max(request.getContentLengthLong(), 0), 1 << 20));
        }
        catch (IOException | IllegalStateException _) {
            // already read, or the client went away: nothing to drain
        }
    }

    private void writeError(HttpServletResponse response, int status, String code, String message)
            throws IOException
    {
        if (response.isCommitted()) {
            return;
        }
        byte[] bytes = SharingException.jsonBody(code, message);
        response.setStatus(status);
        response.setContentType(JSON);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
