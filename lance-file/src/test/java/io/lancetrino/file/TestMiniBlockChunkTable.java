package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestMiniBlockChunkTable
{
    @Test
    void findsTheChunkOfEveryItem()
    {
        // chunks of 1,024, 4,096 and 1,024 values, then a last chunk of the 100 left; 8-byte units of size minus one
        Slice words = words(word(10, 3), word(12, 0), word(10, 7), word(0, 1));
        MiniBlockChunkTable table = MiniBlockChunkTable.of("page", words, false, 6244);
        assertThat(table.chunks()).isEqualTo(4);
        assertThat(table.itemStarts()).containsExactly(0, 1024, 5120, 6144, 6244);
        assertThat(table.byteStarts()).containsExactly(0, 32, 40, 104, 120);
        assertThat(table.values(3)).isEqualTo(100);
        for (long item = 0; item < 6244; item++) {
            int chunk = table.chunkHolding(item);
            assertThat(table.itemStart(chunk)).as("item %s", item).isLessThanOrEqualTo(item);
            assertThat(table.itemStart(chunk + 1)).as("item %s", item).isGreaterThan(item);
        }
        assertThat(table.chunkHolding(6244)).isEqualTo(4);
        // decoded once per page buffer
        assertThat(MiniBlockChunkTable.of("page", words, false, 6244)).isSameAs(table);
    }

    @Test
    void refusesChunksOutsideTheItems()
    {
        // the chunks before the last already hold more than the page's items
        assertThatThrownBy(() -> MiniBlockChunkTable.of("column 2 page 0", words(word(12, 0), word(0, 0)), false, 1000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("column 2 page 0: chunk 1 of -3096 values");
        assertThatThrownBy(() -> MiniBlockChunkTable.of("column 2 page 0", words(word(10, 0), word(0, 0)), false, 1024 + (1 << 17)))
                .hasMessage("column 2 page 0: chunk 1 of 131072 values");
    }

    private static int word(int logValues, int sizeUnitsMinusOne)
    {
        return sizeUnitsMinusOne << 4 | logValues;
    }

    private static Slice words(int... words)
    {
        Slice slice = Slices.allocate(words.length * 2);
        for (int i = 0; i < words.length; i++) {
            slice.setShort(i * 2, words[i]);
        }
        return slice;
    }
}
