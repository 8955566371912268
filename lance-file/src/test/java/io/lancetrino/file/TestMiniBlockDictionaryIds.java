package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.Flat;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestMiniBlockDictionaryIds
{
    private static final MiniBlockLayout LAYOUT = MiniBlockLayout.newBuilder()
            .setNumDictionaryItems(3)
            .setDictionary(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(64)))
            .build();

    @Test
    void idsPointIntoThePageDictionary()
    {
        Block block = decode(new long[] {0, 2, 1, 2, 0}, Optional.empty());
        assertThat(block).isInstanceOf(DictionaryBlock.class);
        assertThat(values(block)).containsExactly(10L, 30L, 20L, 30L, 10L);
    }

    @Test
    void nullsPointAtTheAppendedNullWhateverTheirIndexSays()
    {
        // the index under a null is not checked: writers leave anything there
        Block block = decode(new long[] {2, 99, 0, -5}, Optional.of(new boolean[] {false, true, false, true}));
        assertThat(values(block)).containsExactly(30L, null, 10L, null);
    }

    @Test
    void indicesOutsideTheDictionaryAreRefused()
    {
        assertThatThrownBy(() -> decode(new long[] {0, 1, 3, 2}, Optional.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("page: dictionary index 3 outside a dictionary of 3 items");
        assertThatThrownBy(() -> decode(new long[] {0, -1}, Optional.empty()))
                .hasMessage("page: dictionary index -1 outside a dictionary of 3 items");
        assertThatThrownBy(() -> decode(new long[] {0, 7, 1}, Optional.of(new boolean[] {true, false, false})))
                .hasMessage("page: dictionary index 7 outside a dictionary of 3 items");
        // a value far outside int's range must not wrap into a valid id
        assertThatThrownBy(() -> decode(new long[] {1L << 32}, Optional.empty()))
                .hasMessage("page: dictionary index 4294967296 outside a dictionary of 3 items");
    }

    @Test
    void idsDecodedAsIntsAreUnsigned()
    {
        // u32 ids decode into ints: one of 2^31 or more is negative there, and is refused by its unsigned value
        int[] ids = {2, 0, 1};
        Block block = MiniBlockPageDecoder.dictionaryBlock("page", LAYOUT, buffers(), BIGINT, ids, Optional.of(new boolean[] {false, true, false}), 3);
        assertThat(values(block)).containsExactly(30L, null, 20L);
        assertThatThrownBy(() -> MiniBlockPageDecoder.dictionaryBlock("page", LAYOUT, buffers(), BIGINT, new int[] {1, 0x8000_0000}, Optional.empty(), 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("page: dictionary index 2147483648 outside a dictionary of 3 items");
        assertThatThrownBy(() -> MiniBlockPageDecoder.dictionaryBlock("page", LAYOUT, buffers(), BIGINT, new int[] {-1}, Optional.empty(), 1))
                .hasMessage("page: dictionary index 4294967295 outside a dictionary of 3 items");
    }

    private static Block decode(long[] indices, Optional<boolean[]> nulls)
    {
        return MiniBlockPageDecoder.dictionaryBlock("page", LAYOUT, buffers(), BIGINT, indices, nulls, indices.length);
    }

    private static List<Slice> buffers()
    {
        Slice dictionary = Slices.allocate(24);
        dictionary.setLong(0, 10);
        dictionary.setLong(8, 20);
        dictionary.setLong(16, 30);
        return List.of(Slices.EMPTY_SLICE, Slices.EMPTY_SLICE, dictionary);
    }

    private static List<Long> values(Block block)
    {
        return java.util.stream.IntStream.range(0, block.getPositionCount())
                .mapToObj(position -> block.isNull(position) ? null : BIGINT.getLong(block, position))
                .toList();
    }
}
