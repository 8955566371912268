package io.lancetrino.split.arrow;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static java.lang.String.format;

/**
 * Turns JSON text (a Trino {@code json} value) into the binary JSON (JSONB) the Lance SDK stores for a {@code json}
 * column, byte for byte what the SDK writes when given the same JSON as an {@code arrow.json} string, so that files
 * written here read the same in the SDK, pylance and {@link JsonbValues}.
 * <p>
 * The layout is {@link JsonbValues}'s. What the SDK chooses where JSONB allows several encodings (observed from
 * values the Lance SDK 7.0 wrote): a top-level scalar gets the scalar header with a count of 0; object keys are sorted
 * by their UTF-8 bytes and must be unique; the integer 0 is the bare zero tag, other integers take the smallest of 1,
 * 2, 4 or 8 big-endian bytes, unsigned (tag 0x50) when positive and signed (tag 0x40) when negative; integers beyond
 * 64 bits and every number with a fraction or exponent are 8-byte doubles (tag 0x60), also {@code 0.0} and
 * {@code -0.0}. Numbers beyond the double range are refused: the SDK would store an infinity, which has no JSON text.
 */
public final class JsonbEncoder
{
    private static final int ARRAY = 0x8000_0000;
    private static final int OBJECT = 0x4000_0000;
    private static final int SCALAR = 0x2000_0000;
    private static final int MAX_COUNT = 0x1FFF_FFFF;

    private static final int NULL = 0x0000_0000;
    private static final int STRING = 0x1000_0000;
    private static final int NUMBER = 0x2000_0000;
    private static final int FALSE = 0x3000_0000;
    private static final int TRUE = 0x4000_0000;
    private static final int CONTAINER = 0x5000_0000;
    private static final int MAX_ENTRY_LENGTH = 0x0FFF_FFFF;

    private static final byte NUMBER_ZERO = 0x00;
    private static final byte NUMBER_INT = 0x40;
    private static final byte NUMBER_UINT = 0x50;
    private static final byte NUMBER_FLOAT = 0x60;

    private static final byte[] EMPTY = new byte[0];
    private static final BigInteger MAX_UINT64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    // the SDK refuses duplicate keys too; Trino's json_parse never produces them
    // Trino accepts strings and numbers of any length; JSONB's own limits are checked here
    private static final JsonFactory JSON_FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .build())
            .build();

    private JsonbEncoder() {}

    /**
     * The JSONB of the JSON text in {@code data[offset, offset + length)} (UTF-8).
     *
     * @throws IllegalArgumentException when the text is not one JSON value, or holds something the SDK cannot store
     * (duplicate keys, lone surrogates, numbers beyond the double range, containers over JSONB's size limits)
     */
    public static byte[] encode(byte[] data, int offset, int length)
    {
        try (JsonParser parser = JSON_FACTORY.createParser(data, offset, length)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw new IllegalArgumentException("no JSON value");
            }
            Entry value = read(parser, token);
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("more than one JSON value");
            }
            if (value.type() == CONTAINER) {
                return value.payload();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(8 + value.payload().length);
            writeInt(out, SCALAR);
            writeInt(out, value.type() | value.payload().length);
            out.writeBytes(value.payload());
            return out.toByteArray();
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage(), e);
        }
        catch (IOException e) {
            // parsing a byte array does no I/O
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One value as its entry type and payload; a container's payload is the whole container.
     */
    private record Entry(int type, byte[] payload) {}

    private record Member(byte[] key, Entry value) {}

    private static Entry read(JsonParser parser, JsonToken token)
            throws IOException
    {
        return switch (token) {
            case VALUE_NULL -> new Entry(NULL, EMPTY);
            case VALUE_TRUE -> new Entry(TRUE, EMPTY);
            case VALUE_FALSE -> new Entry(FALSE, EMPTY);
            case VALUE_STRING -> new Entry(STRING, utf8(parser.getText()));
            case VALUE_NUMBER_INT -> new Entry(NUMBER, integer(parser));
            case VALUE_NUMBER_FLOAT -> new Entry(NUMBER, floating(Double.parseDouble(parser.getText()), parser.getText()));
            case START_ARRAY -> array(parser);
            case START_OBJECT -> object(parser);
            default -> throw new IllegalArgumentException("unexpected JSON token " + token);
        };
    }

    private static Entry array(JsonParser parser)
            throws IOException
    {
        List<Entry> elements = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            elements.add(read(parser, token));
        }
        return container(ARRAY, elements.size(), elements);
    }

    private static Entry object(JsonParser parser)
            throws IOException
    {
        List<Member> members = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
            byte[] key = utf8(parser.currentName());
            members.add(new Member(key, read(parser, parser.nextToken())));
        }
        // JSONB orders keys by their bytes, which is not Java's String order beyond the BMP
        members.sort(Comparator.comparing(Member::key, Arrays::compareUnsigned));
        // all keys' entries, then all values'
        List<Entry> entries = new ArrayList<>(2 * members.size());
        for (Member member : members) {
            entries.add(new Entry(STRING, member.key()));
        }
        for (Member member : members) {
            entries.add(member.value());
        }
        return container(OBJECT, members.size(), entries);
    }

    private static Entry container(int kind, int count, List<Entry> entries)
    {
        if (count > MAX_COUNT) {
            throw new IllegalArgumentException(format("container of %s entries exceeds the JSONB limit", count));
        }
        long size = 4 + 4L * entries.size();
        for (Entry entry : entries) {
            size += entry.payload().length;
        }
        if (size > MAX_ENTRY_LENGTH) {
            throw new IllegalArgumentException(format("container of %s bytes exceeds the JSONB limit of %s bytes", size, MAX_ENTRY_LENGTH));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) size);
        writeInt(out, kind | count);
        for (Entry entry : entries) {
            writeInt(out, entry.type() | entry.payload().length);
        }
        for (Entry entry : entries) {
            out.writeBytes(entry.payload());
        }
        return new Entry(CONTAINER, out.toByteArray());
    }

    private static byte[] integer(JsonParser parser)
            throws IOException
    {
        if (parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return integer(parser.getLongValue());
        }
        BigInteger value = parser.getBigIntegerValue();
        if (value.signum() > 0 && value.compareTo(MAX_UINT64) <= 0) {
            return number(NUMBER_UINT, value.longValue(), 8);
        }
        // beyond 64 bits the SDK keeps the nearest double
        return floating(value.doubleValue(), parser.getText());
    }

    private static byte[] integer(long value)
    {
        if (value == 0) {
            return new byte[] {NUMBER_ZERO};
        }
        if (value > 0) {
            int width = value <= 0xFFL ? 1 : value <= 0xFFFFL ? 2 : value <= 0xFFFF_FFFFL ? 4 : 8;
            return number(NUMBER_UINT, value, width);
        }
        int width = value >= Byte.MIN_VALUE ? 1 : value >= Short.MIN_VALUE ? 2 : value >= Integer.MIN_VALUE ? 4 : 8;
        return number(NUMBER_INT, value, width);
    }

    private static byte[] floating(double value, String text)
    {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(format("number %s is beyond the range of a double", abbreviate(text)));
        }
        return number(NUMBER_FLOAT, Double.doubleToRawLongBits(value), 8);
    }

    // the tag, then the low width bytes of value, big-endian
    private static byte[] number(byte tag, long value, int width)
    {
        byte[] bytes = new byte[1 + width];
        bytes[0] = tag;
        for (int i = 0; i < width; i++) {
            bytes[width - i] = (byte) (value >>> (8 * i));
        }
        return bytes;
    }

    private static byte[] utf8(String value)
    {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            }
            else if (Character.isSurrogate(c)) {
                // UTF-8 cannot encode it, and Rust strings cannot hold it
                throw new IllegalArgumentException(format("string holds the lone surrogate \\u%04X", (int) c));
            }
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static String abbreviate(String text)
    {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    private static void writeInt(ByteArrayOutputStream out, int value)
    {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
