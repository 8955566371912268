package io.lancetrino.tests;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.split.arrow.JsonbEncoder;
import io.lancetrino.split.arrow.JsonbValues;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.trino.operator.scalar.JsonFunctions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static io.airlift.slice.Slices.utf8Slice;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link JsonbEncoder} against the Lance SDK: for each JSON text, the JSONB the SDK stores for it (read raw from the
 * data file it wrote) equals what the encoder makes of the same text and of Trino's {@code json_parse} of it, and
 * {@link JsonbValues} turns the encoder's bytes back into the {@code json_parse} text.
 */
final class TestJsonbEncoder
{
    private static final List<String> TEXTS = List.of(
            // integers at every width boundary, both signs
            "0", "-0", "1", "-1", "127", "128", "255", "256", "-128", "-129", "32767", "32768", "65535", "65536", "-32768", "-32769",
            "2147483647", "2147483648", "4294967295", "4294967296", "-2147483648", "-2147483649",
            "9223372036854775807", "9223372036854775808", "18446744073709551615", "-9223372036854775808",
            // beyond 64 bits: the nearest double
            "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890", "-123456789012345678901234567890",
            // doubles
            "0.0", "1.0", "1.5", "0.1", "-2.5", "1e2", "1E20", "1.0E20", "1e-7", "100.0", "0.30000000000000004", "4.9E-324",
            "1.7976931348623157E308", "-1.7976931348623157E308", "3.4028234663852886E38", "2.2250738585072014E-308",
            // literals and strings
            "true", "false", "null", "\"\"", "\"a\"", "\"a\\\"b\\\\c/\\n\\r\\t\\b\\f\\u0000\\u001f\"",
            "\"\u00e9\u4e2d\uD83D\uDE00\\uD834\\uDD1E\"", "\"\\u00e9\\uFFFF\"", "\"" + "x".repeat(300) + "\"",
            // containers
            "[]", "{}", "[[]]", "[{}]", "{\"a\":{}}", "[1,[2,{}]]", "[null,true,false,0,-1,1.5,\"s\",[],{}]",
            "{\"b\":1,\"a\":2}", "{\"z\":{},\"\u00fc\":[],\"A\":false}",
            // keys in UTF-8 byte order, which is not Java's order beyond the BMP
            "{\"\u00fc\":1,\"z\":2,\"\uD83D\uDE00\":3,\"\uFFFF\":4,\"\":5,\"aa\":6,\"a\":7}",
            "{\"a\":{\"b\":[null,true,{\"c\":[1,2,3]}]},\"d\":\"e\"}",
            "{\"id\": 12, \"tags\": [\"x\", \"y\"], \"nested\": {\"deep\": {\"deeper\": [1.25, -300000, 70000]}}}",
            "  [ 1 , 2 ]  ");

    /**
     * {@code json_parse} texts whose JSONB reads back in another form: JSONB keeps the double, not how it was written,
     * and integers beyond 64 bits become doubles, as the SDK stores them.
     */
    private static final Map<String, String> READ_BACK_AS = Map.of(
            "18446744073709551616", "1.8446744073709552E+19",
            "-9223372036854775809", "-9.223372036854776E+18",
            "123456789012345678901234567890", "1.2345678901234568E+29",
            "-123456789012345678901234567890", "-1.2345678901234568E+29",
            "1e2", "100.0",
            "1E20", "1.0E+20",
            "1e-7", "1.0E-7");

    @Test
    void testEncoderMatchesSdk(@TempDir Path dir)
            throws Exception
    {
        List<String> texts = new ArrayList<>(TEXTS);
        texts.addAll(randomTexts());
        // what the SDK makes of each text, and of the text Trino holds for it after json_parse
        List<String> written = new ArrayList<>(texts);
        texts.forEach(text -> written.add(jsonParse(text)));
        List<byte[]> sdk = sdkJsonb(dir, written);
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            assertThat(hex(encode(text))).as("JSONB of %s", text).isEqualTo(hex(sdk.get(i)));
            assertThat(hex(encode(jsonParse(text)))).as("JSONB of json_parse(%s) = %s", text, jsonParse(text)).isEqualTo(hex(sdk.get(texts.size() + i)));
        }
    }

    @Test
    void testRoundTripGivesJsonParseText()
    {
        List<String> texts = new ArrayList<>(TEXTS);
        texts.addAll(randomTexts());
        for (String text : texts) {
            String trinoJson = jsonParse(text);
            byte[] jsonb = encode(trinoJson);
            String decoded = JsonbValues.toJson(jsonb, 0, jsonb.length);
            assertThat(decoded).as(text).isEqualTo(READ_BACK_AS.getOrDefault(text, trinoJson));
            // what is read back is canonical and stores the same bytes again
            assertThat(jsonParse(decoded)).as(text).isEqualTo(decoded);
            assertThat(hex(encode(decoded))).as(text).isEqualTo(hex(jsonb));
        }
    }

    @Test
    void testDuplicateKeys()
    {
        // Trino keeps one of the values; the SDK refuses the text, and so does the encoder
        String trinoJson = jsonParse("{\"a\":1,\"a\":2}");
        assertThat(trinoJson).isEqualTo("{\"a\":2}");
        assertThat(encode(trinoJson)).isEqualTo(encode("{\"a\":2}"));
        assertThatThrownBy(() -> encode("{\"a\":1,\"a\":2}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Duplicate field 'a'");
    }

    @Test
    void testRefusedValues()
    {
        assertThatThrownBy(() -> encode("1e400"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("number 1e400 is beyond the range of a double");
        assertThatThrownBy(() -> encode("[-" + "9".repeat(400) + "]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("number -9999999999");
        assertThatThrownBy(() -> encode("{\"k\":\"\\uD800x\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("string holds the lone surrogate \\uD800");
        assertThatThrownBy(() -> encode("[1,"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid JSON");
        assertThatThrownBy(() -> encode("1 2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("more than one JSON value");
        assertThatThrownBy(() -> encode(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no JSON value");
    }

    private static List<String> randomTexts()
    {
        Random random = new Random(20_260_301);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            texts.add(randomJson(random, 0));
        }
        return texts;
    }

    private static String jsonParse(String text)
    {
        return JsonFunctions.jsonParse(utf8Slice(text)).toStringUtf8();
    }

    private static byte[] encode(String text)
    {
        byte[] bytes = text.getBytes(UTF_8);
        return JsonbEncoder.encode(bytes, 0, bytes.length);
    }

    /**
     * The JSONB the SDK stores for each text: written as an {@code arrow.json} column, read back raw from the data file.
     */
    private static List<byte[]> sdkJsonb(Path dir, List<String> texts)
            throws Exception
    {
        Path table = LanceFixtures.jsonTexts(dir, "texts", texts);
        LanceTable lance = new LanceTable(new LocalTableFileSystem(), table.toString(), "texts", ManifestCache.disabled());
        TableSnapshot snapshot = lance.snapshot(Optional.empty(), lance.latestVersion(Optional.empty()).getAsLong());
        assertThat(snapshot.manifest().getFragmentsCount()).isEqualTo(1);
        String file = table.resolve("data").resolve(snapshot.manifest().getFragments(0).getFiles(0).getPath()).toString();
        List<byte[]> values = new ArrayList<>();
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                LanceFileReader reader = LanceFileReader.open(file, allocator);
                ArrowReader batches = reader.readAll(List.of("doc"), null, 1024)) {
            while (batches.loadNextBatch()) {
                LargeVarBinaryVector vector = (LargeVarBinaryVector) batches.getVectorSchemaRoot().getVector(0);
                for (int i = 0; i < vector.getValueCount(); i++) {
                    values.add(vector.get(i));
                }
            }
        }
        assertThat(values).hasSize(texts.size());
        return values;
    }

    private static String randomJson(Random random, int depth)
    {
        int kind = random.nextInt(depth >= 4 ? 6 : 8);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> String.valueOf(random.nextLong() >> random.nextInt(64));
            case 3 -> String.valueOf(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
            case 4 -> Long.toUnsignedString(random.nextLong());
            case 5 -> quoted(randomString(random));
            case 6 -> {
                List<String> elements = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    elements.add(randomJson(random, depth + 1));
                }
                yield "[" + String.join(",", elements) + "]";
            }
            default -> {
                List<String> members = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    String key = randomString(random);
                    if (!keys.contains(key)) {
                        keys.add(key);
                        members.add(quoted(key) + ":" + randomJson(random, depth + 1));
                    }
                }
                yield "{" + String.join(",", members) + "}";
            }
        };
    }

    private static String randomString(Random random)
    {
        String[] pieces = {"a", "b", "Z", "_", "0", "\u00e9", "\u00fc", "\u4e2d", "\uFFFD", "\uD83D\uDE00", "\\n", "\\\"", "\\u0001", " "};
        StringBuilder value = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            value.append(pieces[random.nextInt(pieces.length)]);
        }
        return value.toString();
    }

    private static String quoted(String escaped)
    {
        return "\"" + escaped + "\"";
    }

    private static String hex(byte[] bytes)
    {
        return HexFormat.of().formatHex(bytes);
    }
}
