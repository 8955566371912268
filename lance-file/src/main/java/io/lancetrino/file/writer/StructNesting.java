package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.trino.spi.block.Block;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static io.airlift.slice.SizeOf.sizeOf;

/**
 * The def levels of a leaf column inside {@code depth} structs, as Lance lays them out: one layer per level, the item's
 * innermost, each nullable layer adding a level, so 0 is a value, 1 a null item and {@code depth - k + 2} a null struct
 * {@code k} levels down from the top (the outermost null struct wins). The leaf's pages are encoded as for a flat
 * column, with 0/1 def levels; {@link #apply} then writes the nested levels over them in place (both u16 per item)
 * and names the layers. Every layer is nullable on every page, even one without a null, so that all pages of the
 * column have the same layers, as readers that join pages of nested columns expect.
 */
final class StructNesting
{
    private final int depth;
    private short[] levels = new short[1024];

    StructNesting(int depth)
    {
        if (depth <= 0) {
            throw new IllegalArgumentException("A leaf inside structs has a depth, not " + depth);
        }
        this.depth = depth;
    }

    /**
     * Records the def level of the leaf's row {@code row}, the value at {@code position} of {@code block}; returns
     * whether the row has no value.
     *
     * @param nullStructDepth per position, the depth (1 outermost) of the outermost null struct around it, or 0
     */
    boolean record(int row, Block block, int position, byte[] nullStructDepth)
    {
        if (row >= levels.length) {
            levels = Arrays.copyOf(levels, Math.max(row + 1, levels.length * 2));
        }
        int outer = nullStructDepth == null ? 0 : nullStructDepth[position];
        short level = (short) (outer != 0 ? depth - outer + 2 : block.isNull(position) ? 1 : 0);
        levels[row] = level;
        return level != 0;
    }

    short level(int row)
    {
        return levels[row];
    }

    int maxLevel()
    {
        return depth + 1;
    }

    /** Every layer nullable: the item's, then one per struct, innermost first. */
    List<RepDefLayer> layers()
    {
        return Collections.nCopies(depth + 1, RepDefLayer.REPDEF_NULLABLE_ITEM);
    }

    long retainedBytes()
    {
        return sizeOf(levels);
    }

    /** The page of the first {@code rows} rows recorded, with their nested def levels and layers. */
    EncodedPage apply(EncodedPage page, int rows)
    {
        MiniBlockLayout layout = page.layout().getMiniBlockLayout();
        boolean hasDef = layout.hasDefCompression();
        MiniBlockLayout nested = layout.toBuilder()
                .clearLayers()
                .addAllLayers(hasDef ? layers() : Collections.nCopies(depth + 1, RepDefLayer.REPDEF_ALL_VALID_ITEM))
                .build();
        if (hasDef) {
            rewriteDefLevels(page, rows);
        }
        return new EncodedPage(page.rows(), page.buffers(), PageLayout.newBuilder().setMiniBlockLayout(nested).build());
    }

    private void rewriteDefLevels(EncodedPage page, int rows)
    {
        Slice chunks = page.buffers().get(1);
        int item = 0;
        for (MiniBlockChunkWriter.FlatChunk chunk : MiniBlockChunkWriter.flatChunks(page)) {
            for (int i = 0; i < chunk.values(); i++) {
                chunks.setShort(chunk.defStart() + 2 * i, levels[item + i]);
            }
            item += chunk.values();
        }
        if (item != rows) {
            throw new IllegalStateException("Chunks of %s def levels for %s rows".formatted(item, rows));
        }
    }
}
