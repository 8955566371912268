package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableMap;

import java.net.URLDecoder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The query string, decoded here rather than by Jetty so a malformed percent-encoding is a client error (Jetty's own
 * parsing throws from deep inside the servlet API). A parameter given twice is refused: two answers to "which
 * version" would be a guess.
 */
public final class QueryParameters
{
    private final Map<String, String> values;

    private QueryParameters(Map<String, String> values)
    {
        this.values = ImmutableMap.copyOf(values);
    }

    /**
     * @param refusal what a malformed query string is answered with
     */
    public static QueryParameters parse(String query, SharingException refusal)
    {
        Map<String, String> values = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return new QueryParameters(values);
        }
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name;
            String value;
            try {
                name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), UTF_8);
                value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), UTF_8);
            }
            catch (IllegalArgumentException e) {
                throw refusal;
            }
            if (values.putIfAbsent(name, value) != null) {
                throw refusal;
            }
        }
        return new QueryParameters(values);
    }

    /**
     * The value, null when absent.
     */
    public String get(String name)
    {
        return values.get(name);
    }

    /**
     * The value when present and not empty.
     */
    public Optional<String> nonEmpty(String name)
    {
        return Optional.ofNullable(values.get(name)).filter(value -> !value.isEmpty());
    }
}
