package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.net.InetAddresses;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Reads and validates the configuration file; every problem is reported with where it is in the file.
 */
public final class SharingConfigLoader
{
    public static final int MIN_KEY_BYTES = 32;
    public static final int MIN_TOKEN_BITS = 256;
    private static final Set<String> TOP_LEVEL_KEYS = ImmutableSet.of("warehouse", "signingKey", "signingKeyFile", "urlLifetimeSeconds", "shares", "recipients", "storage", "server");
    private static final Set<String> SERVER_KEYS = ImmutableSet.of("listenAddress", "publicUrl", "trustedProxies", "http", "https", "maxRequestBodyBytes");
    private static final Set<String> HTTPS_KEYS = ImmutableSet.of("port", "keystorePath", "keystorePassword");

    private SharingConfigLoader() {}

    public static SharingConfig load(Path file)
    {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(file));
        }
        catch (IOException e) {
            throw new IllegalArgumentException("Cannot read the sharing configuration %s: %s".formatted(file, e.getMessage()), e);
        }
        try {
            return parse(root, file.toAbsolutePath().getParent());
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid sharing configuration %s: %s".formatted(file, e.getMessage()), e);
        }
    }

    static SharingConfig parse(JsonNode root, Path baseDirectory)
    {
        check(root != null && root.isObject(), "the file must hold one JSON object");
        for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            check(TOP_LEVEL_KEYS.contains(key), "unknown key '%s' (known: %s)".formatted(key, TOP_LEVEL_KEYS));
        }
        Map<String, String> storage = storage(root);
        Optional<String> warehouse = optionalText(root, "warehouse", "warehouse")
                .map(location -> resolveLocation(location, baseDirectory, storage, "warehouse"));
        ServerSettings server = server(root.get("server"), baseDirectory);
        byte[] key = signingKey(root, baseDirectory);
        long lifetime = root.has("urlLifetimeSeconds") ? root.get("urlLifetimeSeconds").asLong(-1) : 3600;
        check(lifetime >= 1 && lifetime <= 7 * 24 * 3600, "urlLifetimeSeconds must be between 1 and 604800");

        ImmutableList.Builder<SharingConfig.Share> shares = ImmutableList.builder();
        Set<String> shareNames = new HashSet<>();
        for (JsonNode share : array(root, "shares", "shares")) {
            String name = name(share, "share", true, "shares[]");
            check(shareNames.add(name), "share '%s' is defined twice".formatted(name));
            shares.add(share(share, name, warehouse, baseDirectory, storage));
        }

        ImmutableList.Builder<SharingConfig.Recipient> recipients = ImmutableList.builder();
        Set<String> recipientNames = new HashSet<>();
        Set<String> tokens = new HashSet<>();
        for (JsonNode recipient : array(root, "recipients", "recipients")) {
            String name = name(recipient, "recipient", true, "recipients[]");
            String where = "recipient '%s'".formatted(name);
            check(recipientNames.add(name), "%s is defined twice".formatted(where));
            String token = optionalText(recipient, "bearerToken", where).orElseThrow(() -> new IllegalArgumentException(where + " has no bearerToken"));
            check(tokenBits(token) >= MIN_TOKEN_BITS, ("%s: bearerToken is too short to be guessed by nobody: it must hold at least %s random bits "
                    + "(43 base64url characters or 64 hex digits); generate one with: openssl rand -base64 32 | tr '+/' '-_' | tr -d '='").formatted(where, MIN_TOKEN_BITS));
            check(tokens.add(token), "%s: bearerToken is also another recipient's".formatted(where));
            ImmutableSet.Builder<String> granted = ImmutableSet.builder();
            for (JsonNode grant : array(recipient, "shares", where)) {
                check(grant.isTextual(), "%s: shares must be a list of share names".formatted(where));
                String share = Names.normalize(grant.asText(), true).orElseThrow(() -> new IllegalArgumentException("%s: invalid share name '%s'".formatted(where, grant.asText())));
                check(shareNames.contains(share), "%s is granted share '%s', which is not defined".formatted(where, share));
                granted.add(share);
            }
            Optional<Instant> expiration = optionalText(recipient, "expirationTime", where).map(text -> {
                try {
                    return Instant.parse(text);
                }
                catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("%s: expirationTime '%s' is not an ISO-8601 instant such as 2027-01-01T00:00:00Z".formatted(where, text));
                }
            });
            recipients.add(new SharingConfig.Recipient(name, sha256(token), granted.build(), expiration));
        }
        return new SharingConfig(warehouse.orElse(""), key, lifetime, shares.build(), recipients.build(), storage, server);
    }

    private static SharingConfig.Share share(JsonNode share, String name, Optional<String> warehouse, Path baseDirectory, Map<String, String> storage)
    {
        String where = "share '%s'".formatted(name);
        ImmutableList.Builder<SharingConfig.Schema> schemas = ImmutableList.builder();
        Set<String> schemaNames = new HashSet<>();
        for (JsonNode schema : array(share, "schemas", where)) {
            String schemaName = name(schema, "schema", false, where);
            String schemaWhere = "%s schema '%s'".formatted(where, schemaName);
            check(schemaNames.add(schemaName), "%s is defined twice".formatted(schemaWhere));
            ImmutableList.Builder<SharingConfig.Table> tables = ImmutableList.builder();
            Set<String> tableNames = new HashSet<>();
            for (JsonNode table : array(schema, "tables", schemaWhere)) {
                String tableName = name(table, "table", false, schemaWhere);
                String tableWhere = "%s table '%s'".formatted(schemaWhere, tableName);
                check(tableNames.add(tableName), "%s is defined twice".formatted(tableWhere));
                tables.add(table(table, tableName, tableWhere, warehouse, baseDirectory, storage));
            }
            schemas.add(new SharingConfig.Schema(schemaName, tables.build()));
        }
        return new SharingConfig.Share(name, schemas.build());
    }

    private static SharingConfig.Table table(JsonNode table, String name, String where, Optional<String> warehouse, Path baseDirectory, Map<String, String> storage)
    {
        Optional<String> warehouseTable = optionalText(table, "table", where);
        Optional<String> location = optionalText(table, "location", where);
        check(warehouseTable.isPresent() != location.isPresent(), "%s needs exactly one of 'table' (schema.table in the warehouse) and 'location'".formatted(where));
        String root;
        if (warehouseTable.isPresent()) {
            check(warehouse.isPresent(), "%s names a warehouse table but the configuration has no 'warehouse'".formatted(where));
            String[] parts = warehouseTable.get().split("\\.", -1);
            check(parts.length == 2 && Names.normalize(parts[0], false).isPresent() && Names.normalize(parts[1], false).isPresent(),
                    "%s: 'table' must be <schema>.<table>, got '%s'".formatted(where, warehouseTable.get()));
            root = warehouse.get() + "/" + parts[0] + "/" + parts[1] + ".lance";
        }
        else {
            check(Warehouses.isObjectStore(location.get()) || Path.of(location.get()).isAbsolute(),
                    "%s: location '%s' must be an absolute path or an object-store URI such as s3://bucket/path".formatted(where, location.get()));
            root = resolveLocation(location.get(), baseDirectory, storage, where);
        }
        Optional<Set<String>> refs = Optional.empty();
        if (table.has("refs")) {
            ImmutableSet.Builder<String> names = ImmutableSet.builder();
            for (JsonNode ref : array(table, "refs", where)) {
                check(ref.isTextual(), "%s: refs must be a list of names".formatted(where));
                names.add(Names.normalizeBranch(ref.asText()).orElseThrow(() -> new IllegalArgumentException("%s: invalid ref name '%s'".formatted(where, ref.asText()))));
            }
            refs = Optional.of(names.build());
        }
        OptionalLong startVersion = OptionalLong.empty();
        if (table.has("startVersion")) {
            JsonNode start = table.get("startVersion");
            check(start.canConvertToLong() && start.asLong() >= 1, "%s: startVersion must be a version number >= 1".formatted(where));
            startVersion = OptionalLong.of(start.asLong());
        }
        return new SharingConfig.Table(name, root, refs, startVersion);
    }

    // a local path relative to the file's directory, or an object-store URI the storage properties reach
    private static String resolveLocation(String location, Path baseDirectory, Map<String, String> storage, String where)
    {
        if (!Warehouses.isObjectStore(location)) {
            check(!location.contains("://"), "%s: '%s' has a scheme the server does not serve (s3://, s3a://, s3n:// or a local path)".formatted(where, location));
            return baseDirectory.resolve(location).normalize().toString();
        }
        check(!storage.isEmpty(), "%s: '%s' is on an object store, so the configuration needs 'storage' properties (docs/sharing.md, Sharing tables on object storage)".formatted(where, location));
        String trimmed = location;
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }

    private static Map<String, String> storage(JsonNode root)
    {
        JsonNode node = root.get("storage");
        if (node == null || node.isNull()) {
            return ImmutableMap.of();
        }
        check(node.isObject(), "'storage' must be an object of file-system properties, as in a Trino catalog file");
        ImmutableMap.Builder<String, String> properties = ImmutableMap.builder();
        node.fields().forEachRemaining(entry -> {
            check(entry.getValue().isValueNode() && !entry.getValue().isNull(), "storage: '%s' must be a string".formatted(entry.getKey()));
            properties.put(entry.getKey(), entry.getValue().asText());
        });
        return properties.buildOrThrow();
    }

    private static ServerSettings server(JsonNode node, Path baseDirectory)
    {
        if (node == null || node.isNull()) {
            return ServerSettings.DEFAULT;
        }
        check(node.isObject(), "'server' must be an object");
        checkKeys(node, SERVER_KEYS, "server");
        Optional<String> listenAddress = optionalText(node, "listenAddress", "server");
        listenAddress.ifPresent(address -> check(InetAddresses.isInetAddress(address), "server: listenAddress '%s' must be an IP address such as 127.0.0.1 or 0.0.0.0".formatted(address)));
        Optional<URI> publicUrl = optionalText(node, "publicUrl", "server").map(SharingConfigLoader::publicUrl);
        ImmutableList.Builder<AddressBlock> proxies = ImmutableList.builder();
        for (JsonNode proxy : array(node, "trustedProxies", "server")) {
            check(proxy.isTextual(), "server: trustedProxies must be a list of addresses or CIDR blocks");
            try {
                proxies.add(AddressBlock.parse(proxy.asText()));
            }
            catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("server: trustedProxies: " + e.getMessage());
            }
        }
        boolean http = !node.has("http") || node.get("http").asBoolean(true);
        Optional<ServerSettings.Https> https = Optional.empty();
        JsonNode httpsNode = node.get("https");
        if (httpsNode != null && !httpsNode.isNull()) {
            check(httpsNode.isObject(), "server: 'https' must be an object with port and keystorePath");
            checkKeys(httpsNode, HTTPS_KEYS, "server.https");
            int port = httpsNode.path("port").asInt(-1);
            check(port >= 0 && port <= 65535, "server.https: port must be a port number (0 picks a free one)");
            String keystore = optionalText(httpsNode, "keystorePath", "server.https").orElseThrow(() -> new IllegalArgumentException("server.https: keystorePath is required"));
            Path keystorePath = baseDirectory.resolve(keystore).normalize();
            check(Files.isRegularFile(keystorePath), "server.https: keystorePath %s is not a file".formatted(keystorePath));
            https = Optional.of(new ServerSettings.Https(port, keystorePath.toString(), optionalText(httpsNode, "keystorePassword", "server.https")));
        }
        check(http || https.isPresent(), "server: with http false, 'https' is required");
        long maxBody = node.has("maxRequestBodyBytes") ? node.get("maxRequestBodyBytes").asLong(-1) : ServerSettings.DEFAULT_MAX_REQUEST_BODY_BYTES;
        check(maxBody >= 1024 && maxBody <= 64L << 20, "server: maxRequestBodyBytes must be between 1024 and 67108864");
        return new ServerSettings(listenAddress, publicUrl, proxies.build(), http, https, maxBody);
    }

    private static URI publicUrl(String text)
    {
        URI uri;
        try {
            uri = new URI(text);
        }
        catch (URISyntaxException e) {
            throw new IllegalArgumentException("server: publicUrl '%s' is not a URL".formatted(text));
        }
        check(("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                        && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null,
                "server: publicUrl '%s' must be http(s)://host[:port][/path], without query, fragment or user".formatted(text));
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + path);
    }

    private static void checkKeys(JsonNode node, Set<String> known, String where)
    {
        for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            check(known.contains(key), "%s: unknown key '%s' (known: %s)".formatted(where, key, known));
        }
    }

    /**
     * The random bits a token can hold at most: 4 per character for hex digits, 6 for base64url, so a short or hex-only
     * token is refused; a long token of one repeated character still passes, which no check of a single string can tell.
     */
    static int tokenBits(String token)
    {
        boolean hex = token.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
        long distinct = token.chars().distinct().count();
        if (distinct < 8) {
            return 0;
        }
        return token.length() * (hex ? 4 : 6);
    }

    private static byte[] signingKey(JsonNode root, Path baseDirectory)
    {
        Optional<String> inline = optionalText(root, "signingKey", "signingKey");
        Optional<String> file = optionalText(root, "signingKeyFile", "signingKeyFile");
        check(inline.isPresent() != file.isPresent(), "exactly one of signingKey (hex) and signingKeyFile is required");
        String hex;
        if (inline.isPresent()) {
            hex = inline.get();
        }
        else {
            try {
                hex = Files.readString(baseDirectory.resolve(file.get())).trim();
            }
            catch (IOException e) {
                throw new IllegalArgumentException("cannot read signingKeyFile " + file.get() + ": " + e.getMessage(), e);
            }
        }
        byte[] key;
        try {
            key = HexFormat.of().parseHex(hex);
        }
        catch (IllegalArgumentException e) {
            // the message would quote the key
            throw new IllegalArgumentException("the signing key must be hexadecimal");
        }
        check(key.length >= MIN_KEY_BYTES, "the signing key has %s bytes, at least %s are required (%s hex digits)".formatted(key.length, MIN_KEY_BYTES, 2 * MIN_KEY_BYTES));
        return key;
    }

    private static String name(JsonNode node, String kind, boolean dotted, String where)
    {
        check(node.isObject(), "%s: each %s must be an object".formatted(where, kind));
        String name = optionalText(node, "name", where).orElseThrow(() -> new IllegalArgumentException("%s: a %s has no name".formatted(where, kind)));
        return Names.normalize(name, dotted).orElseThrow(() -> new IllegalArgumentException(
                "%s: invalid %s name '%s' (at most %s characters, no '/', '\\', space or control characters%s, not '.' or '..')"
                        .formatted(where, kind, name, Names.MAX_LENGTH, dotted ? "" : ", no '.'")));
    }

    private static List<JsonNode> array(JsonNode node, String key, String where)
    {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return ImmutableList.of();
        }
        check(value.isArray(), "%s: '%s' must be a list".formatted(where, key));
        return ImmutableList.copyOf(value);
    }

    private static Optional<String> optionalText(JsonNode node, String key, String where)
    {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        check(value.isTextual() && !value.asText().isEmpty(), "%s: '%s' must be a non-empty string".formatted(where, key));
        return Optional.of(value.asText());
    }

    private static void check(boolean condition, String message)
    {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    static byte[] sha256(String text)
    {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
