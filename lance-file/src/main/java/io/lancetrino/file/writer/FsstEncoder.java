package io.lancetrino.file.writer;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * FSST string compression: up to 255 symbols of 1 to 8 bytes, each value coded as one byte per symbol, with code 255
 * escaping a literal byte. The table is learned from a sample as the FSST paper (Boncz, Neumann, Leis, VLDB 2020)
 * describes: five rounds of coding the sample with the table so far, counting every code and every pair of adjacent
 * codes, then keeping the 255 candidates (the symbols, and the pairs joined) that cover the most bytes. Values are coded
 * greedily, the longest symbol first. The serialized table is the one Lance's readers take (2,312 bytes: a header
 * with the magic and the symbol count, the symbols as little-endian u64, then their lengths).
 */
final class FsstEncoder
{
    static final int TABLE_BYTES = 8 + 256 * 8 + 256;
    private static final long MAGIC = 0x46535354L << 32;
    // the header bit that tells readers the values are coded
    private static final long CODED = 1L << 24;
    private static final int ESCAPE = 255;
    private static final int MAX_SYMBOLS = 255;
    private static final int MAX_SYMBOL_BYTES = 8;
    private static final int ROUNDS = 5;
    // while learning, a byte without a symbol counts as code 256 + the byte
    private static final int CODES = 512;
    private static final int PREFIX_SLOTS = 1024;
    private static final VarHandle LITTLE_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long[] symbols;
    private final int[] lengths;
    private final int symbolCount;
    // the code of each one- and two-byte symbol, -1 for none
    private final short[] byteCodes = new short[256];
    private final short[] pairCodes = new short[1 << 16];
    // symbols of three bytes or more by their first three bytes (open addressing, key + 1 so 0 is free), longest first
    private final int[] prefixKeys = new int[PREFIX_SLOTS];
    private final int[][] prefixCodes = new int[PREFIX_SLOTS][];

    private FsstEncoder(List<Symbol> table)
    {
        symbolCount = table.size();
        symbols = new long[symbolCount];
        lengths = new int[symbolCount];
        Arrays.fill(byteCodes, (short) -1);
        Arrays.fill(pairCodes, (short) -1);
        Map<Integer, List<Integer>> byPrefix = new HashMap<>();
        for (int code = 0; code < symbolCount; code++) {
            Symbol symbol = table.get(code);
            symbols[code] = symbol.value();
            lengths[code] = symbol.length();
            switch (symbol.length()) {
                case 1 -> byteCodes[(int) symbol.value()] = (short) code;
                case 2 -> pairCodes[(int) symbol.value()] = (short) code;
                default -> byPrefix.computeIfAbsent((int) (symbol.value() & 0xFFFFFF), _ -> new ArrayList<>()).add(code);
            }
        }
        byPrefix.forEach((prefix, codes) -> {
            int slot = slot(prefix);
            while (prefixKeys[slot] != 0) {
                slot = (slot + 1) & (PREFIX_SLOTS - 1);
            }
            prefixKeys[slot] = prefix + 1;
            prefixCodes[slot] = codes.stream().sorted(Comparator.comparingInt((Integer code) -> lengths[code]).reversed()).mapToInt(Integer::intValue).toArray();
        });
    }

    /** Learns a table from a sample of the values {@code [begin(i), ends[i])} of {@code data}, about {@code sampleBytes} of them. */
    static FsstEncoder train(Slice data, int[] ends, int count, int sampleBytes)
    {
        // whole values, every k-th of the page so that they make about the sample's bytes
        List<int[]> sample = new ArrayList<>();
        long total = count == 0 ? 0 : ends[count - 1];
        int stride = (int) Math.max(1, total / Math.max(1, sampleBytes));
        for (int i = 0; i < count; i += stride) {
            int begin = i == 0 ? 0 : ends[i - 1];
            if (ends[i] > begin) {
                sample.add(new int[] {begin, ends[i]});
            }
        }
        byte[] bytes = data.byteArray();
        int base = data.byteArrayOffset();
        FsstEncoder encoder = new FsstEncoder(List.of());
        for (int round = 0; round < ROUNDS; round++) {
            int[] single = new int[CODES];
            int[] pairs = new int[CODES * CODES];
            for (int[] value : sample) {
                encoder.count(bytes, base + value[0], base + value[1], single, pairs);
            }
            encoder = new FsstEncoder(encoder.candidates(single, pairs));
        }
        return encoder;
    }

    /** Codes the sample value {@code bytes[position, end)}, counting each code and each pair of adjacent codes. */
    private void count(byte[] bytes, int position, int end, int[] single, int[] pairs)
    {
        int previous = -1;
        while (position < end) {
            long word = load(bytes, position, end);
            int code = match(word, end - position);
            int length;
            if (code < 0) {
                code = 256 + (int) (word & 0xFF);
                length = 1;
            }
            else {
                length = lengths[code];
                if (length > 1) {
                    // the first byte alone stays a candidate, as the paper counts it
                    single[256 + (int) (word & 0xFF)]++;
                }
            }
            single[code]++;
            if (previous >= 0) {
                pairs[previous * CODES + code]++;
            }
            previous = code;
            position += length;
        }
    }

    /** The next table: the 255 symbols, among the codes counted and pairs of them joined, that cover the most bytes. */
    private List<Symbol> candidates(int[] single, int[] pairs)
    {
        Map<Symbol, Long> gains = new HashMap<>();
        for (int code = 0; code < CODES; code++) {
            if (single[code] == 0) {
                continue;
            }
            Symbol symbol = symbol(code);
            gains.merge(symbol, (long) single[code] * symbol.length(), Long::sum);
            if (symbol.length() == MAX_SYMBOL_BYTES) {
                continue;
            }
            for (int next = 0; next < CODES; next++) {
                int count = pairs[code * CODES + next];
                if (count > 1) {
                    Symbol joined = symbol.join(symbol(next));
                    gains.merge(joined, (long) count * joined.length(), Long::sum);
                }
            }
        }
        return gains.entrySet().stream()
                .sorted(Map.Entry.<Symbol, Long>comparingByValue().reversed()
                        .thenComparing(entry -> -entry.getKey().length())
                        .thenComparingLong(entry -> entry.getKey().value()))
                .limit(MAX_SYMBOLS)
                .map(Map.Entry::getKey)
                .toList();
    }

    private Symbol symbol(int code)
    {
        return code >= 256 ? new Symbol(code - 256, 1) : new Symbol(symbols[code], lengths[code]);
    }

    /** Compresses {@code data[begin, end)} onto {@code output}. */
    void compress(Slice data, int begin, int end, DynamicSliceOutput output)
    {
        byte[] bytes = data.byteArray();
        int position = data.byteArrayOffset() + begin;
        int limit = data.byteArrayOffset() + end;
        while (position < limit) {
            long word = load(bytes, position, limit);
            int code = match(word, limit - position);
            if (code < 0) {
                output.writeByte(ESCAPE);
                output.writeByte(bytes[position]);
                position++;
            }
            else {
                output.writeByte(code);
                position += lengths[code];
            }
        }
    }

    /** The table as Lance stores it in the page's encoding. */
    Slice table()
    {
        Slice table = Slices.allocate(TABLE_BYTES);
        table.setLong(0, MAGIC | CODED | symbolCount);
        for (int code = 0; code < symbolCount; code++) {
            table.setLong(8 + 8 * code, symbols[code]);
            table.setByte(8 + 8 * symbolCount + code, lengths[code]);
        }
        return table;
    }

    /** The code of the longest symbol that starts {@code word} (of which {@code available} bytes are input), or -1. */
    private int match(long word, int available)
    {
        if (available >= 3) {
            int[] codes = lookup((int) (word & 0xFFFFFF));
            if (codes != null) {
                for (int code : codes) {
                    int length = lengths[code];
                    if (length <= available && (word & mask(length)) == symbols[code]) {
                        return code;
                    }
                }
            }
        }
        if (available >= 2) {
            int code = pairCodes[(int) (word & 0xFFFF)];
            if (code >= 0) {
                return code;
            }
        }
        return byteCodes[(int) (word & 0xFF)];
    }

    private int[] lookup(int prefix)
    {
        int slot = slot(prefix);
        while (prefixKeys[slot] != 0) {
            if (prefixKeys[slot] == prefix + 1) {
                return prefixCodes[slot];
            }
            slot = (slot + 1) & (PREFIX_SLOTS - 1);
        }
        return null;
    }

    private static int slot(int prefix)
    {
        return (prefix * 0x9E3779B1 >>> 22) & (PREFIX_SLOTS - 1);
    }

    private static long mask(int length)
    {
        return length == MAX_SYMBOL_BYTES ? -1L : (1L << (8 * length)) - 1;
    }

    /** Up to eight bytes from {@code position}, little-endian, zero past {@code end}. */
    private static long load(byte[] bytes, int position, int end)
    {
        if (end - position >= Long.BYTES) {
            return (long) LITTLE_ENDIAN_LONGS.get(bytes, position);
        }
        long word = 0;
        for (int i = end - position - 1; i >= 0; i--) {
            word = (word << 8) | (bytes[position + i] & 0xFF);
        }
        return word;
    }

    /** A symbol: its bytes as a little-endian word (zero above its length) and its length. */
    private record Symbol(long value, int length)
    {
        Symbol join(Symbol next)
        {
            int joined = Math.min(MAX_SYMBOL_BYTES, length + next.length);
            long word = value | (next.value << (8 * length));
            return new Symbol(word & mask(joined), joined);
        }
    }
}
