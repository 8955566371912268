package io.lancetrino.file;

import io.trino.spi.block.Block;

import static java.util.Objects.requireNonNull;

/**
 * The rep/def levels of a leaf column over some rows, one entry per level, with the values of the entries that have a
 * value slot (see {@link RepDefLayers#hasSlot}), nulls included. {@code rep} or {@code def} is null when every level
 * is 0 (no lists; nothing null).
 */
record LeafLevels(RepDefLayers layers, int entries, int[] rep, int[] def, Block values)
{
    LeafLevels
    {
        requireNonNull(layers, "layers is null");
        requireNonNull(values, "values is null");
    }

    int rep(int entry)
    {
        return rep == null ? layers.lists() : rep[entry];
    }

    int def(int entry)
    {
        return def == null ? 0 : def[entry];
    }
}
