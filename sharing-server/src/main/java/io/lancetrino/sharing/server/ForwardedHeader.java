package io.lancetrino.sharing.server;

import java.util.Locale;
import java.util.Optional;

/**
 * The client a proxy names in an RFC 7239 {@code Forwarded} header: the {@code for} of the last element, the one the
 * proxy next to the server appended (earlier elements come from whoever sent the request to it).
 */
final class ForwardedHeader
{
    private static final int MAX_LENGTH = 256;

    private ForwardedHeader() {}

    static Optional<String> client(String header)
    {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String[] elements = header.split(",");
        for (String pair : elements[elements.length - 1].split(";")) {
            int equals = pair.indexOf('=');
            if (equals < 0 || !pair.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("for")) {
                continue;
            }
            String value = pair.substring(equals + 1).trim();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            if (value.startsWith("[")) {
                int close = value.indexOf(']');
                value = close < 0 ? value : value.substring(1, close);
            }
            else if (value.indexOf(':') == value.lastIndexOf(':') && value.indexOf(':') >= 0) {
                value = value.substring(0, value.indexOf(':'));
            }
            // it goes to the log: printable ASCII only, bounded
            if (value.isEmpty() || value.length() > MAX_LENGTH || !value.chars().allMatch(c -> c > ' ' && c < 127)) {
                return Optional.empty();
            }
            return Optional.of(value);
        }
        return Optional.empty();
    }
}
