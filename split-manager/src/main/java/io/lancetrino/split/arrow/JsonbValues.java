package io.lancetrino.split.arrow;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import static java.lang.String.format;

/**
 * Turns the binary JSON (JSONB) Lance stores for a {@code json} column (extension {@code lance.json}) back into JSON
 * text, in the form Trino's {@code json_parse} gives: no whitespace, object keys sorted, integers as written and
 * doubles as {@code json_parse} writes the shortest text of the double ({@code 1.5}, {@code 1.0E+20}, {@code 0.0}
 * for {@code -0.0}). So {@code col = json_parse('...')} and Trino's JSON functions see the same value
 * that pylance or the Lance SDK returns as text.
 * <p>
 * The layout (observed from values the Lance SDK 7.0 wrote): a value is a big-endian 32-bit container header, whose
 * top three bits say array (0x8), object (0x4) or scalar (0x2) and whose low 29 bits count the entries; then one
 * 32-bit entry per element (an object has all keys' entries, then all values'), each with a type in bits 28-30
 * (null 0, string 1, number 2, false 3, true 4, nested container 5) and a payload length in the low 28 bits; then the
 * payloads in the same order. A number payload starts with a tag byte: 0x00 zero, 0x40 signed and 0x50 unsigned
 * big-endian integers of the remaining length, 0x60 a big-endian double.
 */
public final class JsonbValues
{
    private static final int CONTAINER_TYPE_MASK = 0xE000_0000;
    private static final int CONTAINER_COUNT_MASK = 0x1FFF_FFFF;
    private static final int ARRAY = 0x8000_0000;
    private static final int OBJECT = 0x4000_0000;
    private static final int SCALAR = 0x2000_0000;

    private static final int ENTRY_OFFSET_FLAG = 0x8000_0000;
    private static final int ENTRY_TYPE_MASK = 0x7000_0000;
    private static final int ENTRY_LENGTH_MASK = 0x0FFF_FFFF;
    private static final int NULL = 0x0000_0000;
    private static final int STRING = 0x1000_0000;
    private static final int NUMBER = 0x2000_0000;
    private static final int FALSE = 0x3000_0000;
    private static final int TRUE = 0x4000_0000;
    private static final int CONTAINER = 0x5000_0000;

    private static final int NUMBER_ZERO = 0x00;
    private static final int NUMBER_INT = 0x40;
    private static final int NUMBER_UINT = 0x50;
    private static final int NUMBER_FLOAT = 0x60;

    private final byte[] data;
    private final int end;

    private JsonbValues(byte[] data, int end)
    {
        this.data = data;
        this.end = end;
    }

    /**
     * The JSON text of the JSONB value in {@code data[offset, offset + length)}.
     *
     * @throws IllegalArgumentException when the bytes are not a JSONB value this decoder knows
     */
    public static String toJson(byte[] data, int offset, int length)
    {
        if (offset < 0 || length < 0 || offset + length > data.length) {
            throw new IllegalArgumentException("value outside its buffer");
        }
        StringBuilder json = new StringBuilder(length + 16);
        new JsonbValues(data, offset + length).writeContainer(offset, length, json);
        return json.toString();
    }

    private void writeContainer(int offset, int length, StringBuilder json)
    {
        checkRange(offset, 4, offset + length);
        int header = readInt(offset);
        int count = header & CONTAINER_COUNT_MASK;
        int entries = offset + 4;
        switch (header & CONTAINER_TYPE_MASK) {
            case SCALAR -> {
                // one entry; the writer leaves the count at 0
                checkRange(entries, 4, offset + length);
                int entry = readInt(entries);
                writeEntry(entry, entries + 4, json);
            }
            case ARRAY -> {
                int payload = entries + 4 * count;
                checkRange(entries, 4L * count, offset + length);
                json.append('[');
                for (int i = 0; i < count; i++) {
                    if (i > 0) {
                        json.append(',');
                    }
                    int entry = readInt(entries + 4 * i);
                    writeEntry(entry, payload, json);
                    payload += entryLength(entry);
                }
                json.append(']');
            }
            case OBJECT -> {
                checkRange(entries, 8L * count, offset + length);
                int keyPayload = entries + 8 * count;
                int valuePayload = keyPayload;
                for (int i = 0; i < count; i++) {
                    valuePayload += entryLength(readInt(entries + 4 * i));
                }
                // Trino's canonical JSON orders keys as Java strings; JSONB orders them by UTF-8 bytes
                Map<String, String> members = new TreeMap<>();
                for (int i = 0; i < count; i++) {
                    int keyEntry = readInt(entries + 4 * i);
                    if ((keyEntry & ENTRY_TYPE_MASK) != STRING) {
                        throw new IllegalArgumentException("object key is not a string");
                    }
                    String key = string(keyPayload, entryLength(keyEntry));
                    int valueEntry = readInt(entries + 4 * (count + i));
                    StringBuilder value = new StringBuilder();
                    writeEntry(valueEntry, valuePayload, value);
                    members.put(key, value.toString());
                    keyPayload += entryLength(keyEntry);
                    valuePayload += entryLength(valueEntry);
                }
                json.append('{');
                boolean first = true;
                for (Map.Entry<String, String> member : members.entrySet()) {
                    if (!first) {
                        json.append(',');
                    }
                    first = false;
                    writeString(member.getKey(), json);
                    json.append(':').append(member.getValue());
                }
                json.append('}');
            }
            default -> throw new IllegalArgumentException(format("unknown container header 0x%08x", header));
        }
    }

    private void writeEntry(int entry, int payload, StringBuilder json)
    {
        if ((entry & ENTRY_OFFSET_FLAG) != 0) {
            throw new IllegalArgumentException(format("entry 0x%08x uses offsets, which Lance does not write", entry));
        }
        int length = entryLength(entry);
        checkRange(payload, length, end);
        switch (entry & ENTRY_TYPE_MASK) {
            case NULL -> json.append("null");
            case TRUE -> json.append("true");
            case FALSE -> json.append("false");
            case STRING -> writeString(string(payload, length), json);
            case NUMBER -> writeNumber(payload, length, json);
            case CONTAINER -> writeContainer(payload, length, json);
            default -> throw new IllegalArgumentException(format("unknown entry type 0x%08x (JSONB extension values have no JSON text)", entry));
        }
    }

    private void writeNumber(int payload, int length, StringBuilder json)
    {
        if (length < 1) {
            throw new IllegalArgumentException("empty number");
        }
        int tag = data[payload] & 0xFF;
        int width = length - 1;
        switch (tag) {
            case NUMBER_ZERO -> json.append('0');
            case NUMBER_INT -> {
                if (width < 1 || width > 8) {
                    throw new IllegalArgumentException("integer of " + width + " bytes");
                }
                long value = data[payload + 1];
                for (int i = 2; i <= width; i++) {
                    value = (value << 8) | (data[payload + i] & 0xFF);
                }
                json.append(value);
            }
            case NUMBER_UINT -> {
                if (width < 1 || width > 8) {
                    throw new IllegalArgumentException("unsigned integer of " + width + " bytes");
                }
                long value = 0;
                for (int i = 1; i <= width; i++) {
                    value = (value << 8) | (data[payload + i] & 0xFF);
                }
                json.append(value >= 0 ? Long.toString(value) : new BigInteger(Long.toUnsignedString(value)).toString());
            }
            case NUMBER_FLOAT -> {
                double value = switch (width) {
                    case 8 -> Double.longBitsToDouble(readLong(payload + 1));
                    case 4 -> Float.intBitsToFloat(readInt(payload + 1));
                    default -> throw new IllegalArgumentException("float of " + width + " bytes");
                };
                if (!Double.isFinite(value)) {
                    throw new IllegalArgumentException("number " + value + " has no JSON text");
                }
                // json_parse keeps numbers with a fraction or exponent as BigDecimal text ("1E+20", "0.0" for -0.0):
                // the same form keeps the value canonical, so it equals json_parse of the text the SDK returns
                json.append(new BigDecimal(Double.toString(value)));
            }
            // NaN and infinities (0x10-0x30) have no JSON text; decimals (0x70+) come only from non-JSON sources
            default -> throw new IllegalArgumentException(format("number tag 0x%02x has no JSON text", tag));
        }
    }

    private String string(int payload, int length)
    {
        checkRange(payload, length, end);
        return new String(data, payload, length, StandardCharsets.UTF_8);
    }

    // escapes as Trino's JSON writer does: quote, backslash, control characters and surrogates only
    private static void writeString(String value, StringBuilder json)
    {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default -> {
                    // Trino's writer also escapes the surrogate halves of characters beyond the BMP
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        json.append(format("\\u%04X", (int) c));
                    }
                    else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }

    private static int entryLength(int entry)
    {
        return entry & ENTRY_LENGTH_MASK;
    }

    private int readInt(int position)
    {
        checkRange(position, 4, end);
        return ((data[position] & 0xFF) << 24) | ((data[position + 1] & 0xFF) << 16) | ((data[position + 2] & 0xFF) << 8) | (data[position + 3] & 0xFF);
    }

    private long readLong(int position)
    {
        return ((long) readInt(position) << 32) | (readInt(position + 4) & 0xFFFF_FFFFL);
    }

    private static void checkRange(long position, long length, long limit)
    {
        if (position < 0 || length < 0 || position + length > limit) {
            throw new IllegalArgumentException("truncated value");
        }
    }
}
