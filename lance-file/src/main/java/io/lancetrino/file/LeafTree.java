package io.lancetrino.file;

import io.trino.spi.block.Block;

import java.util.Arrays;

/**
 * The shape a leaf column's rep/def levels describe, layer by layer: for every layer one null flag per position of
 * its group, and for list layers the offsets of their lists into the next inner group. Entries walk from the
 * outermost layer inwards: the rep level says from which group on an entry adds positions (a new row, or a new
 * element of the list at that depth), the def level at which layer it stops (null or empty there, nothing inside).
 */
final class LeafTree
{
    private final RepDefLayers layers;
    private final boolean[][] nulls;
    private final int[][] offsets;
    private final int[] sizes;
    private final Block values;

    private LeafTree(RepDefLayers layers, boolean[][] nulls, int[][] offsets, int[] sizes, Block values)
    {
        this.layers = layers;
        this.nulls = nulls;
        this.offsets = offsets;
        this.sizes = sizes;
        this.values = values;
    }

    static LeafTree build(String where, LeafLevels levels)
    {
        RepDefLayers layers = levels.layers();
        int layerCount = layers.size();
        int groups = layers.lists() + 1;
        BooleanList[] nulls = new BooleanList[layerCount];
        RepDefMiniBlockDecoder.IntList[] starts = new RepDefMiniBlockDecoder.IntList[layerCount];
        for (int k = 0; k < layerCount; k++) {
            nulls[k] = new BooleanList();
            if (layers.isList(k)) {
                starts[k] = new RepDefMiniBlockDecoder.IntList(16);
            }
        }
        int[] sizes = new int[groups];
        for (int entry = 0; entry < levels.entries(); entry++) {
            int rep = levels.rep(entry);
            int def = levels.def(entry);
            int stop = layers.stopLayer(def);
            if (rep > layers.lists()) {
                throw new IllegalStateException(where + ": rep level %s above %s lists".formatted(rep, layers.lists()));
            }
            int group = -1;
            boolean stopped = false;
            for (int k = layerCount - 1; k >= 0; k--) {
                int layerGroup = layers.group(k);
                if (layerGroup > rep) {
                    // this entry continues the lists at these outer layers
                    continue;
                }
                if (layerGroup != group) {
                    if (stopped) {
                        break;
                    }
                    group = layerGroup;
                    sizes[group]++;
                }
                if (stopped) {
                    // the rest of the stopping group gets placeholder entries: null, empty lists
                    nulls[k].add(true);
                    if (starts[k] != null) {
                        starts[k].add(sizes[group - 1]);
                    }
                    continue;
                }
                boolean isNull = k == stop && !layers.isEmptyList(def);
                nulls[k].add(k == stop ? isNull : false);
                if (starts[k] != null) {
                    starts[k].add(sizes[group - 1]);
                }
                if (k == stop) {
                    stopped = true;
                }
            }
        }
        if (sizes[0] != levels.values().getPositionCount()) {
            throw new IllegalStateException(where + ": levels describe %s values, %s decoded".formatted(sizes[0], levels.values().getPositionCount()));
        }
        boolean[][] nullArrays = new boolean[layerCount][];
        int[][] offsetArrays = new int[layerCount][];
        for (int k = 0; k < layerCount; k++) {
            nullArrays[k] = nulls[k].toArray();
            if (starts[k] != null) {
                int[] offsets = Arrays.copyOf(starts[k].toArray(), starts[k].size() + 1);
                offsets[starts[k].size()] = sizes[layers.group(k) - 1];
                offsetArrays[k] = offsets;
            }
        }
        return new LeafTree(layers, nullArrays, offsetArrays, sizes, levels.values());
    }

    RepDefLayers layers()
    {
        return layers;
    }

    /** Positions of the group of a layer. */
    int positions(int layer)
    {
        return nulls[layer].length;
    }

    boolean[] nulls(int layer)
    {
        return nulls[layer];
    }

    int[] offsets(int layer)
    {
        return offsets[layer];
    }

    int rows()
    {
        return sizes[sizes.length - 1];
    }

    Block values()
    {
        return values;
    }

    private static final class BooleanList
    {
        private boolean[] values = new boolean[16];
        private int size;

        void add(boolean value)
        {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        boolean[] toArray()
        {
            return Arrays.copyOf(values, size);
        }
    }
}
