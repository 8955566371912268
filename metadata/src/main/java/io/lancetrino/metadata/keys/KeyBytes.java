package io.lancetrino.metadata.keys;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The bytes lance-core hashes for a key: a 64-bit integer as 8 little-endian bytes (narrower integers widened), a
 * string as its UTF-8 bytes, binary as is; the parts of a composite key each followed by a zero byte.
 */
public final class KeyBytes
{
    private KeyBytes() {}

    /**
     * @param parts {@code Long}, {@code String} or {@code byte[]} values, in key order; none null
     */
    public static byte[] of(List<Object> parts)
    {
        if (parts.size() == 1) {
            return bytes(parts.getFirst());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(bytes(part));
            out.write(0);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(Object part)
    {
        return switch (part) {
            case Long value -> {
                byte[] bytes = new byte[8];
                for (int i = 0; i < 8; i++) {
                    bytes[i] = (byte) (value >>> (8 * i));
                }
                yield bytes;
            }
            case String value -> value.getBytes(StandardCharsets.UTF_8);
            case byte[] value -> value;
            default -> throw new IllegalArgumentException("a key part is a Long, String or byte[], not " + part.getClass().getName());
        };
    }
}
