package io.lancetrino.file.writer;

import io.trino.spi.block.Block;

/**
 * Takes the values of one field: a leaf column, or a struct that hands its fields' values to its children.
 */
interface FieldWriter
{
    /**
     * @param nullStructDepth for a field inside structs, per position the depth (1 outermost) of the outermost null
     * struct around the value, or 0; null at the top level or where no struct around it is null
     */
    void append(Block block, byte[] nullStructDepth);
}
