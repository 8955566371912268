package io.lancetrino.metadata.refs;

import java.util.regex.Pattern;

/**
 * Lance's rules for tag and branch names. Names become file paths under {@code _refs/} and {@code tree/}, so a name
 * that breaks them is refused before any file is touched.
 */
public final class RefNames
{
    private static final Pattern BRANCH_SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

    private RefNames() {}

    public static boolean isValidTag(String name)
    {
        return !name.isEmpty()
                && name.codePoints().allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')
                && !name.startsWith(".") && !name.endsWith(".") && !name.contains("..") && !name.endsWith(".lock");
    }

    public static boolean isValidBranch(String name)
    {
        if (name.isEmpty() || name.startsWith("/") || name.endsWith("/") || name.contains("//") || name.contains("..")
                || name.contains("\\") || name.endsWith(".lock") || name.equals(RefResolver.MAIN)) {
            return false;
        }
        for (String segment : name.split("/")) {
            if (!BRANCH_SEGMENT.matcher(segment).matches()) {
                return false;
            }
        }
        return true;
    }
}
