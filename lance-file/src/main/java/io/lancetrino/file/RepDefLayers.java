package io.lancetrino.file;

import com.google.common.collect.ImmutableList;
import io.lancetrino.file.proto.encodings.RepDefLayer;

import java.util.ArrayList;
import java.util.List;

/**
 * The meaning of a leaf column's rep/def levels, from its layers (innermost first: the leaf item, then each enclosing
 * struct item or list). Def level 0 is valid at every layer; each layer that can be null (or empty) takes the next def
 * values, counting up from 1 at the innermost layer, null before empty. Rep levels count the lists from the innermost
 * (1) up to the outermost (max), which starts a new row.
 * <p>
 * Positions: every layer belongs to a group of positions, the elements of the list layer enclosing it (or the rows):
 * group 0 holds the leaf values, group {@link #lists()} the rows. A list layer belongs to the group of its parents.
 */
final class RepDefLayers
{
    private final List<RepDefLayer> layers;
    private final int lists;
    private final int[] groups;
    // by def level: the layer it stops at (-1 for 0), and whether it is an empty list rather than a null
    private final int[] stopLayer;
    private final boolean[] empty;

    RepDefLayers(String where, List<RepDefLayer> layers)
    {
        this.layers = ImmutableList.copyOf(layers);
        if (layers.isEmpty()) {
            throw new UnsupportedLanceEncodingException(where + ": a page without rep/def layers");
        }
        groups = new int[layers.size()];
        List<Integer> stops = new ArrayList<>();
        List<Boolean> empties = new ArrayList<>();
        stops.add(-1);
        empties.add(false);
        int listCount = 0;
        for (int k = 0; k < layers.size(); k++) {
            RepDefLayer layer = layers.get(k);
            switch (layer) {
                case REPDEF_ALL_VALID_ITEM, REPDEF_ALL_VALID_LIST -> {}
                case REPDEF_NULLABLE_ITEM, REPDEF_NULLABLE_LIST -> {
                    stops.add(k);
                    empties.add(false);
                }
                case REPDEF_EMPTYABLE_LIST -> {
                    stops.add(k);
                    empties.add(true);
                }
                case REPDEF_NULL_AND_EMPTY_LIST -> {
                    stops.add(k);
                    empties.add(false);
                    stops.add(k);
                    empties.add(true);
                }
                default -> throw new UnsupportedLanceEncodingException(where + ": rep/def layer " + layer);
            }
            if (isList(k, layer)) {
                listCount++;
            }
            groups[k] = listCount;
        }
        lists = listCount;
        stopLayer = stops.stream().mapToInt(Integer::intValue).toArray();
        empty = new boolean[empties.size()];
        for (int i = 0; i < empty.length; i++) {
            empty[i] = empties.get(i);
        }
    }

    private static boolean isList(int index, RepDefLayer layer)
    {
        return layer == RepDefLayer.REPDEF_ALL_VALID_LIST || layer == RepDefLayer.REPDEF_NULLABLE_LIST
                || layer == RepDefLayer.REPDEF_EMPTYABLE_LIST || layer == RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST;
    }

    int size()
    {
        return layers.size();
    }

    boolean isList(int layer)
    {
        return isList(layer, layers.get(layer));
    }

    /** Number of list layers, which is the maximum rep level. */
    int lists()
    {
        return lists;
    }

    /** The group of positions a layer's entries belong to: 0 for the leaf values' group, {@link #lists()} for rows. */
    int group(int layer)
    {
        return groups[layer];
    }

    /** The layer a def level stops at, or -1 for a value valid at every layer. */
    int stopLayer(int def)
    {
        if (def < 0 || def >= stopLayer.length) {
            throw new IllegalStateException("def level %s of layers %s".formatted(def, layers));
        }
        return stopLayer[def];
    }

    boolean isEmptyList(int def)
    {
        return empty[def];
    }

    /** Whether an entry of this def level has a value slot: it reaches the leaf's group (nulls there keep a slot). */
    boolean hasSlot(int def)
    {
        int stop = stopLayer(def);
        return stop < 0 || groups[stop] == 0 && !isList(stop);
    }

    @Override
    public String toString()
    {
        return layers.toString();
    }
}
