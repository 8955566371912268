package io.lancetrino.metadata.maintenance;

import io.lancetrino.metadata.fs.LocalTableFileSystem;

/**
 * Locations compared as the same file whatever spelling wrote them: the Lance SDK writes base paths as plain local
 * paths, a catalog may name the same directory {@code file:///...}.
 */
public final class Locations
{
    private Locations() {}

    public static String normalize(String location)
    {
        String path = location;
        if (path.startsWith("file:") || path.startsWith("local://")) {
            path = LocalTableFileSystem.toPath(path).toString();
        }
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path;
    }

    /**
     * Whether {@code location} is {@code directory} or below it; both normalized.
     */
    public static boolean isWithin(String location, String directory)
    {
        return location.equals(directory) || location.startsWith(directory + "/");
    }
}
