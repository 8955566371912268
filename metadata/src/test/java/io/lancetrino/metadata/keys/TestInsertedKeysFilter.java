package io.lancetrino.metadata.keys;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class TestInsertedKeysFilter
{
    @Test
    void testSameBitsAsTheSdk()
    {
        // the bytes the Lance SDK 7.0's merge_insert set in its filter when it inserted key 2 (bigint), or key 'b' (string)
        assertThat(setBytes(List.of(2L))).isEqualTo(Map.of(30050, "10", 30054, "04", 30057, "04", 30062, "04", 30066, "40", 30071, "80", 30075, "20", 30076, "20"));
        assertThat(setBytes(List.of("b"))).isEqualTo(Map.of(15393, "80", 15399, "08", 15400, "01", 15407, "01", 15411, "20", 15412, "40", 15418, "80", 15421, "20"));
    }

    @Test
    void testXxHash64KnownValues()
    {
        // reference values of XXH64 with seed 0
        assertThat(XxHash64.hash(0, new byte[0])).isEqualTo(0xEF46DB3751D8E999L);
        assertThat(XxHash64.hash(0, "a".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xD24EC4F1A98C6E5BL);
        assertThat(XxHash64.hash(0, "abc".getBytes(StandardCharsets.UTF_8))).isEqualTo(0x44BC2CF5AD770999L);
        assertThat(XxHash64.hash(0, "Nobody inspects the spammish repetition".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xFBCEA83C8A378BF1L);
    }

    @Test
    void testKeysAreCheckedOneByOneWhereAllAreKnown()
    {
        InsertedKeysFilter first = InsertedKeysFilter.empty();
        InsertedKeysFilter second = InsertedKeysFilter.empty();
        long[] hashes = new long[100];
        for (int key = 0; key < 100; key++) {
            hashes[key] = InsertedKeysFilter.hash(KeyBytes.of(List.of((long) key)));
            first.addHash(hashes[key]);
            second.add(KeyBytes.of(List.of(key + 1000L)));
        }
        assertThat(first.mightContain(KeyBytes.of(List.of(42L)))).isTrue();
        InsertedKeys mine = new InsertedKeys(List.of(1), first.toBytes(), hashes, true, List.of("id=0", "id=1"));
        // lance-core's test, any shared bit, finds 800 bits of each in 262,144 overlapping; the keys themselves do not
        assertThat(mine.mayOverlap(second)).isFalse();
        assertThat(new InsertedKeys(List.of(1), first.toBytes(), hashes, false, List.of()).mayOverlap(second)).isEqualTo(first.intersects(second));
        second.add(KeyBytes.of(List.of(1L)));
        assertThat(mine.mayOverlap(second)).isTrue();
        assertThat(mine.namesIn(second)).containsExactly("id=1");
        assertThat(InsertedKeysFilter.fromBytes(first.toBytes()).toBytes()).isEqualTo(first.toBytes());
    }

    @Test
    void testCompositeKeysEndEachPartWithZero()
    {
        assertThat(KeyBytes.of(List.of("ab", 1L))).isEqualTo(HexFormat.of().parseHex("6162000100000000000000" + "00"));
    }

    private static Map<Integer, String> setBytes(List<Object> key)
    {
        InsertedKeysFilter filter = InsertedKeysFilter.empty();
        filter.add(KeyBytes.of(key));
        byte[] bytes = filter.toBytes();
        Map<Integer, String> set = new TreeMap<>();
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                set.put(i, HexFormat.of().toHexDigits(bytes[i]));
            }
        }
        return set;
    }
}
