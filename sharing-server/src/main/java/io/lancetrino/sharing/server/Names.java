package io.lancetrino.sharing.server;

import io.lancetrino.metadata.refs.RefNames;

import java.util.Locale;
import java.util.Optional;

/**
 * The names a request may carry (share, schema, table, branch, tag). Nothing in a request is ever used as a path, but
 * names that could be read as one are refused anyway, as names that do not exist.
 */
public final class Names
{
    public static final int MAX_LENGTH = 255;

    private Names() {}

    /**
     * The lower-case name, or empty when it breaks the rules; {@code dotted} allows {@code .} inside the name
     * (shares, branches and tags, not schemas and tables).
     */
    public static Optional<String> normalize(String name, boolean dotted)
    {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH || name.equals(".") || name.equals("..")) {
            return Optional.empty();
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\' || c == ' ' || Character.isISOControl(c) || (c == '.' && !dotted)) {
                return Optional.empty();
            }
        }
        return Optional.of(name.toLowerCase(Locale.ROOT));
    }

    public static String share(String name)
    {
        return normalize(name, true).orElseThrow(() -> SharingException.notFound("Share not found"));
    }

    public static String schema(String name)
    {
        return normalize(name, false).orElseThrow(() -> SharingException.notFound("Schema not found"));
    }

    public static String table(String name)
    {
        return normalize(name, false).orElseThrow(() -> SharingException.notFound("Table not found"));
    }

    /**
     * A branch name, lower case: Lance allows {@code /}-separated segments (its own rules, which refuse {@code ..},
     * empty segments and backslashes); the name is only ever compared with the table's branches, never used as a path.
     */
    public static Optional<String> normalizeBranch(String name)
    {
        if (name != null && name.indexOf('/') >= 0) {
            return name.length() <= MAX_LENGTH && RefNames.isValidBranch(name) ? Optional.of(name.toLowerCase(Locale.ROOT)) : Optional.empty();
        }
        return normalize(name, true);
    }

    public static String branch(String name)
    {
        return normalizeBranch(name).orElseThrow(() -> SharingException.notFound("Reference not found"));
    }

    /**
     * Branch and tag names, lower case: they are matched case-insensitively against the table's refs.
     */
    public static String ref(String name)
    {
        return normalize(name, true).orElseThrow(() -> SharingException.notFound("Reference not found"));
    }
}
