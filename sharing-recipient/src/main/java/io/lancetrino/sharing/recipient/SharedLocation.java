package io.lancetrino.sharing.recipient;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The virtual Lance layout a recipient catalog reads shares through, so the table layer, split manager and page
 * source work on shared tables unchanged:
 * <pre>
 * lance-sharing://shares/{share}.{schema}/{table}.lance          table root (schema names hold no '.')
 *   [tree/{branch}/]_versions/{manifest}                        one version the share allows, rebuilt from a query
 *   [tree/{branch}/]_shared/{version}/data/{file id}            a data file, read through its signed URL
 *   [tree/{branch}/]_shared/{version}/_deletions/{name}         a deletion file, likewise
 *   _refs/tags/{name}.json, _refs/branches/{name}.json          the refs the share allows
 * </pre>
 * The version in a file's location lets any node find the file's URL by querying that version.
 *
 * @param branch empty for main
 * @param path what follows the dataset directory (main's root or {@code tree/{branch}}), without a leading slash
 */
public record SharedLocation(SharedTable table, Optional<String> branch, String path)
{
    public static final String SCHEME = "lance-sharing:";
    public static final String ROOT = "lance-sharing://shares";
    public static final String TABLE_SUFFIX = ".lance";
    public static final String SHARED_DIR = "_shared";

    public SharedLocation
    {
        requireNonNull(table, "table is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(path, "path is null");
    }

    public static boolean isShared(String location)
    {
        return location.startsWith(SCHEME);
    }

    public static String schemaName(String share, String schema)
    {
        return share + "." + schema;
    }

    public static String tableRoot(SharedTable table)
    {
        return ROOT + "/" + schemaName(table.share(), table.schema()) + "/" + table.table() + TABLE_SUFFIX;
    }

    /**
     * The directory a rebuilt manifest points its files at, as a base path.
     */
    public static String versionDirectory(SharedTable table, Optional<String> branch, long version)
    {
        String dataset = branch.map(name -> tableRoot(table) + "/tree/" + name).orElse(tableRoot(table));
        return dataset + "/" + SHARED_DIR + "/" + version;
    }

    /**
     * Splits {@code {share}.{schema}} at its last dot: share names may hold dots, schema names may not.
     */
    public static Optional<String[]> splitSchemaName(String name)
    {
        int dot = name.lastIndexOf('.');
        if (dot <= 0 || dot == name.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new String[] {name.substring(0, dot), name.substring(dot + 1)});
    }

    /**
     * A location at or below a table root; empty for the catalog root, a schema directory or anything else.
     */
    public static Optional<SharedLocation> parse(String location)
    {
        String prefix = ROOT + "/";
        if (!location.startsWith(prefix)) {
            return Optional.empty();
        }
        String[] parts = location.substring(prefix.length()).split("/", 3);
        if (parts.length < 2 || !parts[1].endsWith(TABLE_SUFFIX)) {
            return Optional.empty();
        }
        Optional<String[]> schema = splitSchemaName(parts[0]);
        if (schema.isEmpty()) {
            return Optional.empty();
        }
        SharedTable table = new SharedTable(schema.get()[0], schema.get()[1], parts[1].substring(0, parts[1].length() - TABLE_SUFFIX.length()));
        String rest = parts.length == 3 ? parts[2] : "";
        Optional<String> branch = Optional.empty();
        if (rest.startsWith("tree/")) {
            // branch names are '/'-separated segments that never start with '_'
            int marker = rest.indexOf("/_");
            String name = marker < 0 ? rest.substring(5) : rest.substring(5, marker);
            branch = Optional.of(name);
            rest = marker < 0 ? "" : rest.substring(marker + 1);
        }
        return Optional.of(new SharedLocation(table, branch, rest));
    }

    /**
     * For {@code _shared/{version}/...}: the version.
     */
    public OptionalLong sharedVersion()
    {
        if (!path.startsWith(SHARED_DIR + "/")) {
            return OptionalLong.empty();
        }
        String[] parts = path.split("/", 3);
        try {
            return parts.length == 3 ? OptionalLong.of(Long.parseLong(parts[1])) : OptionalLong.empty();
        }
        catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * For {@code _shared/{version}/{kind}/{name}}: {@code {kind}/{name}}.
     */
    public String sharedFile()
    {
        return path.split("/", 3)[2];
    }
}
