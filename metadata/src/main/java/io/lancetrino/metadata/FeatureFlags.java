package io.lancetrino.metadata;

import com.google.common.collect.ImmutableMap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Manifest feature flags. A reader must refuse a table that sets a bit it does not know.
 */
public final class FeatureFlags
{
    public static final long DELETION_FILES = 1;
    public static final long STABLE_ROW_IDS = 2;
    public static final long USE_V2_FORMAT_DEPRECATED = 4;
    public static final long TABLE_CONFIG = 8;
    public static final long BASE_PATHS = 16;
    public static final long DISABLE_TRANSACTION_FILE = 32;

    private static final Map<Long, String> NAMES = ImmutableMap.<Long, String>builder()
            .put(DELETION_FILES, "DELETION_FILES")
            .put(STABLE_ROW_IDS, "STABLE_ROW_IDS")
            .put(USE_V2_FORMAT_DEPRECATED, "USE_V2_FORMAT")
            .put(TABLE_CONFIG, "TABLE_CONFIG")
            .put(BASE_PATHS, "BASE_PATHS")
            .put(DISABLE_TRANSACTION_FILE, "DISABLE_TRANSACTION_FILE")
            .put(64L, "DATA_OVERLAYS")
            .put(128L, "COVERING_INDEX")
            .put(256L, "PER_FILE_EXACT_VERSIONS")
            .buildOrThrow();

    /** Every bit this reader understands; row-id metadata is not needed to read rows */
    public static final long KNOWN_READER_FLAGS = DELETION_FILES | STABLE_ROW_IDS | USE_V2_FORMAT_DEPRECATED | TABLE_CONFIG | BASE_PATHS | DISABLE_TRANSACTION_FILE;

    private FeatureFlags() {}

    public static List<String> unknownReaderFlags(long flags)
    {
        return describe(flags & ~KNOWN_READER_FLAGS);
    }

    public static List<String> describe(long flags)
    {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            long mask = 1L << bit;
            if ((flags & mask) != 0) {
                names.add(NAMES.getOrDefault(mask, "UNKNOWN") + " (" + Long.toUnsignedString(mask) + ")");
            }
        }
        return names;
    }
}
