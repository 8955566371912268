package io.lancetrino.metadata;

import java.util.OptionalLong;

/**
 * The two ways Lance names version files in {@code _versions/}.
 */
public enum ManifestNaming
{
    /** {@code {N}.manifest} */
    V1,
    /** {@code {u64::MAX - N, 20 digits}.manifest}: lexicographic listing yields the newest version first */
    V2;

    private static final String SUFFIX = ".manifest";
    private static final int V2_NAME_LENGTH = 20 + SUFFIX.length();

    public String fileName(long version)
    {
        return switch (this) {
            case V1 -> Long.toUnsignedString(version) + SUFFIX;
            case V2 -> "0".repeat(20 - Long.toUnsignedString(-1L - version).length()) + Long.toUnsignedString(-1L - version) + SUFFIX;
        };
    }

    /**
     * The naming scheme of a version file name, or empty for names that are not versions of the history
     * (detached {@code d{N}} manifests, staging and temporary files, the hint file).
     */
    public static java.util.Optional<ManifestNaming> namingOf(String fileName)
    {
        if (versionOf(fileName).isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(fileName.length() == V2_NAME_LENGTH ? V2 : V1);
    }

    public static OptionalLong versionOf(String fileName)
    {
        if (!fileName.endsWith(SUFFIX)) {
            return OptionalLong.empty();
        }
        String stem = fileName.substring(0, fileName.length() - SUFFIX.length());
        if (stem.isEmpty() || stem.length() > 20 || !stem.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        long number;
        try {
            number = Long.parseUnsignedLong(stem);
        }
        catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
        if (fileName.length() == V2_NAME_LENGTH) {
            return OptionalLong.of(-1L - number);
        }
        return OptionalLong.of(number);
    }
}
