package io.lancetrino.file.writer;

import com.google.common.collect.ImmutableList;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;

import java.util.List;

/**
 * A struct (Trino {@code row}): Lance gives it no column of its own, only a def-level layer in each leaf below it. It
 * hands each field's values to its child writer, with the depth of the outermost null struct of each position.
 */
final class StructFieldWriter
        implements FieldWriter
{
    private final int depth;
    private final List<FieldWriter> children;

    /**
     * @param depth 1 for a top-level struct, 2 for a struct in it, ...
     */
    StructFieldWriter(int depth, List<FieldWriter> children)
    {
        this.depth = depth;
        this.children = ImmutableList.copyOf(children);
        if (depth > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("Structs nested %s deep".formatted(depth));
        }
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        byte[] depths = nullStructDepth;
        if (block.mayHaveNull()) {
            depths = new byte[block.getPositionCount()];
            for (int position = 0; position < depths.length; position++) {
                // an outer null struct wins: its level is the higher one
                depths[position] = nullStructDepth != null && nullStructDepth[position] != 0 ? nullStructDepth[position] : block.isNull(position) ? (byte) depth : 0;
            }
        }
        List<Block> fields = RowBlock.getRowFieldsFromBlock(block);
        for (int field = 0; field < children.size(); field++) {
            children.get(field).append(fields.get(field), depths);
        }
    }
}
