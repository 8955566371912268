package io.lancetrino.file.writer;

import java.util.Arrays;

/**
 * The distinct values of a page of fixed-width values, in order of first appearance, and each row's index into them;
 * nulls get index 0. Built only while the distinct values stay within a limit: past it a dictionary would not pay.
 *
 * @param items the distinct values, {@code itemCount} of them
 * @param ids one index per row, as longs for the bit-packer
 */
record LongDictionary(long[] items, int itemCount, long[] ids)
{
    /** The dictionary, or null when the page holds more than {@code maxItems} distinct values. */
    static LongDictionary build(long[] values, boolean[] nulls, boolean hasNulls, int count, int maxItems)
    {
        int capacity = Integer.highestOneBit(Math.max(16, maxItems * 2)) * 2;
        long[] keys = new long[capacity];
        int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        long[] items = new long[Math.min(maxItems, count) + 1];
        long[] ids = new long[count];
        int itemCount = 0;
        int mask = capacity - 1;
        for (int row = 0; row < count; row++) {
            if (hasNulls && nulls[row]) {
                continue;
            }
            long value = values[row];
            int slot = (int) (mix(value) & mask);
            while (slots[slot] >= 0 && keys[slot] != value) {
                slot = (slot + 1) & mask;
            }
            if (slots[slot] < 0) {
                if (itemCount == maxItems) {
                    return null;
                }
                keys[slot] = value;
                slots[slot] = itemCount;
                items[itemCount++] = value;
            }
            ids[row] = slots[slot];
        }
        return new LongDictionary(items, itemCount, ids);
    }

    private static long mix(long value)
    {
        long hash = value * 0x9E3779B97F4A7C15L;
        return hash ^ (hash >>> 29);
    }
}
