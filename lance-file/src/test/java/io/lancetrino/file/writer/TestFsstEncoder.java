package io.lancetrino.file.writer;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.codec.FsstDecoder;
import io.lancetrino.file.codec.VariableValues;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

final class TestFsstEncoder
{
    private static final List<String> WORDS = List.of("the", "quickly", "final", "deposits", "sleep", "carefully", "furiously", "ironic", "packages", "among", "regular", "accounts");

    @Test
    void decodesToTheValuesAndShrinksText()
    {
        Random random = new Random(7);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int word = random.nextInt(8); word >= 0; word--) {
                text.append(WORDS.get(random.nextInt(WORDS.size()))).append(' ');
            }
            values.add(text.toString().getBytes(UTF_8));
        }
        Coded coded = code(values);
        assertThat(decode(coded)).containsExactlyElementsOf(hex(values));
        // words of a small vocabulary: most become single codes
        assertThat((long) coded.data().length()).isLessThan(coded.rawBytes() / 3);
    }

    @Test
    void escapesWhatTheTableDoesNotCover()
    {
        // random bytes (255, the escape code, among them), empty values, values shorter than a symbol, long runs
        Random random = new Random(11);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            byte[] value = new byte[switch (i % 4) {
                case 0 -> 0;
                case 1 -> 1 + random.nextInt(3);
                case 2 -> random.nextInt(40);
                default -> 200;
            }];
            if (i % 4 == 3) {
                Arrays.fill(value, (byte) (i % 7 == 0 ? 0xFF : 'x'));
            }
            else {
                random.nextBytes(value);
            }
            values.add(value);
        }
        assertThat(decode(code(values))).containsExactlyElementsOf(hex(values));
    }

    @Test
    void serializesTheTableAsLanceReadsIt()
    {
        Coded coded = code(List.of("abcabcabcabc".getBytes(UTF_8), "xyz".getBytes(UTF_8)));
        Slice table = coded.table();
        assertThat(table.length()).isEqualTo(FsstEncoder.TABLE_BYTES);
        long header = table.getLong(0);
        assertThat(header >>> 32).isEqualTo(0x46535354L);
        assertThat(header & (1L << 24)).isNotZero();
        assertThat(header & 0xFF).isBetween(1L, 255L);
    }

    private record Coded(Slice data, int[] offsets, Slice table, long rawBytes) {}

    private static Coded code(List<byte[]> values)
    {
        DynamicSliceOutput raw = new DynamicSliceOutput(1024);
        int[] ends = new int[values.size()];
        for (int i = 0; i < values.size(); i++) {
            raw.writeBytes(values.get(i));
            ends[i] = raw.size();
        }
        Slice data = raw.slice();
        FsstEncoder encoder = FsstEncoder.train(data, ends, values.size(), 32 * 1024);
        DynamicSliceOutput coded = new DynamicSliceOutput(1024);
        int[] offsets = new int[values.size() + 1];
        for (int i = 0; i < values.size(); i++) {
            encoder.compress(data, i == 0 ? 0 : ends[i - 1], ends[i], coded);
            offsets[i + 1] = coded.size();
        }
        return new Coded(coded.slice(), offsets, encoder.table(), data.length());
    }

    /** The values through the reader's decoder, in hex. */
    private static List<String> decode(Coded coded)
    {
        VariableValues decoded = new FsstDecoder(coded.table().getBytes()).decompress(new VariableValues(coded.data(), coded.offsets()));
        List<String> values = new ArrayList<>();
        for (int i = 0; i < decoded.count(); i++) {
            values.add(HexFormat.of().formatHex(decoded.data().getBytes(decoded.offsets()[i], decoded.offsets()[i + 1] - decoded.offsets()[i])));
        }
        return values;
    }

    private static List<String> hex(List<byte[]> values)
    {
        return values.stream().map(HexFormat.of()::formatHex).toList();
    }
}
