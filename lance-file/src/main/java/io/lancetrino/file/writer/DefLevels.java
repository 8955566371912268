package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;

/**
 * Def levels of a flat nullable column as u16 values (Flat, 16 bits): 0 for a value, 1 for a null.
 */
final class DefLevels
{
    private DefLevels() {}

    static Slice of(boolean[] nulls, int start, int length)
    {
        Slice levels = Slices.allocate(length * 2);
        for (int i = 0; i < length; i++) {
            if (nulls[start + i]) {
                levels.setShort(i * 2, 1);
            }
        }
        return levels;
    }
}
