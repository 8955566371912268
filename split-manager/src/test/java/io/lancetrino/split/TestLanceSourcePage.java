package io.lancetrino.split;

import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.DictionaryId;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rows a page holds after the page source's filters, as each column loads: the same values as the engine's
 * {@code getPositions} would give, in the cheaper forms the page source builds.
 */
final class TestLanceSourcePage
{
    private static final int[] KEPT = {0, 2, 3, 7, 8, 9};

    @Test
    void testSelectedPositionsOfEachBlockKind()
    {
        BlockBuilder longValues = BIGINT.createFixedSizeBlockBuilder(10);
        for (int i = 0; i < 10; i++) {
            if (i == 2 || i == 9) {
                longValues.appendNull();
            }
            else {
                BIGINT.writeLong(longValues, i * 10L);
            }
        }
        Block longs = longValues.build();
        BlockBuilder strings = VARCHAR.createBlockBuilder(null, 3);
        VARCHAR.writeSlice(strings, Slices.utf8Slice("a"));
        strings.appendNull();
        VARCHAR.writeSlice(strings, Slices.utf8Slice("c"));
        DictionaryId dictionaryId = DictionaryId.randomDictionaryId();
        Block dictionary = DictionaryBlock.createProjectedDictionaryBlock(10, strings.build(), new int[] {0, 1, 2, 0, 1, 2, 0, 1, 2, 0}, dictionaryId);
        Block constant = RunLengthEncodedBlock.create(BIGINT, 5L, 10);
        BlockBuilder text = VARCHAR.createBlockBuilder(null, 10);
        for (int i = 0; i < 10; i++) {
            VARCHAR.writeSlice(text, Slices.utf8Slice("v" + i));
        }

        List<Block> columns = List.of(longs, dictionary, constant, text.build());
        @SuppressWarnings("unchecked")
        Supplier<Block>[] loaders = columns.stream().map(block -> (Supplier<Block>) () -> block).toArray(Supplier[]::new);
        LanceSourcePage page = new LanceSourcePage(loaders, 10, KEPT, KEPT.length, _ -> {});
        assertThat(page.getPositionCount()).isEqualTo(KEPT.length);
        List<Type> types = List.of(BIGINT, VARCHAR, BIGINT, VARCHAR);
        for (int channel = 0; channel < columns.size(); channel++) {
            Block selected = page.getBlock(channel);
            assertThat(values(types.get(channel), selected)).as("channel %s", channel)
                    .isEqualTo(values(types.get(channel), columns.get(channel).getPositions(KEPT, 0, KEPT.length)));
        }
        // fixed-width values are copied into a compact block; a dictionary keeps its dictionary and id
        assertThat(page.getBlock(0)).isInstanceOf(LongArrayBlock.class);
        assertThat(page.getBlock(1)).isInstanceOfSatisfying(DictionaryBlock.class, block -> {
            assertThat(block.getDictionary()).isSameAs(((DictionaryBlock) dictionary).getDictionary());
            assertThat(block.getDictionarySourceId()).isEqualTo(dictionaryId);
        });
    }

    private static List<Object> values(Type type, Block block)
    {
        List<Object> values = new ArrayList<>();
        for (int position = 0; position < block.getPositionCount(); position++) {
            values.add(type.getObjectValue(block, position));
        }
        return values;
    }
}
