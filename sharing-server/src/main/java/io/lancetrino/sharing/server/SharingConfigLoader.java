package io.lancetrino.sharing.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;

import java.io.IOException;
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
    private static final Set<String> TOP_LEVEL_KEYS = ImmutableSet.of("warehouse", "signingKey", "signingKeyFile", "urlLifetimeSeconds", "shares", "recipients");

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
        Optional<String> warehouse = optionalText(root, "warehouse", "warehouse")
                .map(location -> baseDirectory.resolve(location).normalize().toString());
        byte[] key = signingKey(root, baseDirectory);
        long lifetime = root.has("urlLifetimeSeconds") ? root.get("urlLifetimeSeconds").asLong(-1) : 3600;
        check(lifetime >= 1 && lifetime <= 7 * 24 * 3600, "urlLifetimeSeconds must be between 1 and 604800");

        ImmutableList.Builder<SharingConfig.Share> shares = ImmutableList.builder();
        Set<String> shareNames = new HashSet<>();
        for (JsonNode share : array(root, "shares", "shares")) {
            String name = name(share, "share", true, "shares[]");
            check(shareNames.add(name), "share '%s' is defined twice".formatted(name));
            shares.add(share(share, name, warehouse, baseDirectory));
        }

        ImmutableList.Builder<SharingConfig.Recipient> recipients = ImmutableList.builder();
        Set<String> recipientNames = new HashSet<>();
        Set<String> tokens = new HashSet<>();
        for (JsonNode recipient : array(root, "recipients", "recipients")) {
            String name = name(recipient, "recipient", true, "recipients[]");
            String where = "recipient '%s'".formatted(name);
            check(recipientNames.add(name), "%s is defined twice".formatted(where));
            String token = optionalText(recipient, "bearerToken", where).orElseThrow(() -> new IllegalArgumentException(where + " has no bearerToken"));
            check(token.length() >= 16, "%s: bearerToken must have at least 16 characters".formatted(where));
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
        return new SharingConfig(warehouse.orElse(""), key, lifetime, shares.build(), recipients.build());
    }

    private static SharingConfig.Share share(JsonNode share, String name, Optional<String> warehouse, Path baseDirectory)
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
                tables.add(table(table, tableName, tableWhere, warehouse, baseDirectory));
            }
            schemas.add(new SharingConfig.Schema(schemaName, tables.build()));
        }
        return new SharingConfig.Share(name, schemas.build());
    }

    private static SharingConfig.Table table(JsonNode table, String name, String where, Optional<String> warehouse, Path baseDirectory)
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
            root = Path.of(warehouse.get(), parts[0], parts[1] + ".lance").toString();
        }
        else {
            Path path = Path.of(location.get());
            check(path.isAbsolute(), "%s: location '%s' must be an absolute path (only local warehouses are served)".formatted(where, location.get()));
            root = baseDirectory.resolve(path).normalize().toString();
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
