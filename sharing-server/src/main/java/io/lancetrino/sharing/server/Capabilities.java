package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableSet;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The {@code lance-sharing-capabilities} request header: {@code key=v1,v2;key=v3}, case-insensitive, unknown keys
 * ignored.
 */
public record Capabilities(Set<String> readerFeatures)
{
    public static final String HEADER = "lance-sharing-capabilities";
    public static final String RESPONSE_FORMAT = "lance";
    public static final String RESPONSE_HEADER_VALUE = "responseformat=" + RESPONSE_FORMAT;

    public static final String DELETION_FILES = "deletionfiles";
    public static final String BASE_PATHS = "basepaths";
    public static final String STABLE_ROW_IDS = "stablerowids";
    public static final String V2_FILES = "v2files";
    public static final Set<String> KNOWN_FEATURES = ImmutableSet.of(DELETION_FILES, BASE_PATHS, STABLE_ROW_IDS, V2_FILES);

    public Capabilities
    {
        readerFeatures = ImmutableSet.copyOf(requireNonNull(readerFeatures, "readerFeatures is null"));
    }

    /**
     * Refuses a header that names response formats without {@code lance}; without the header the client reads
     * {@code lance} and handles no reader features.
     */
    public static Capabilities parse(String header)
    {
        if (header == null || header.isBlank()) {
            return new Capabilities(ImmutableSet.of());
        }
        Set<String> formats = null;
        Set<String> features = new TreeSet<>();
        for (String capability : header.split(";")) {
            int equals = capability.indexOf('=');
            if (equals < 0) {
                continue;
            }
            String key = capability.substring(0, equals).trim().toLowerCase(Locale.ROOT);
            Set<String> values = new TreeSet<>();
            for (String value : capability.substring(equals + 1).split(",")) {
                if (!value.isBlank()) {
                    values.add(value.trim().toLowerCase(Locale.ROOT));
                }
            }
            switch (key) {
                case "responseformat" -> formats = values;
                case "readerfeatures" -> features.addAll(values);
                default -> {}
            }
        }
        if (formats != null && !formats.contains(RESPONSE_FORMAT)) {
            throw SharingException.unsupported("This server answers only in response format 'lance'; the client accepts %s".formatted(formats));
        }
        return new Capabilities(features);
    }

    /**
     * Refuses a version needing reader features the client did not declare, naming them.
     */
    public void checkSupports(Set<String> required, String what)
    {
        Set<String> missing = new TreeSet<>(required);
        missing.removeAll(readerFeatures);
        if (!missing.isEmpty()) {
            throw SharingException.unsupported("%s needs reader features the client did not declare in %s: %s"
                    .formatted(what, HEADER, String.join(", ", missing)));
        }
    }
}
