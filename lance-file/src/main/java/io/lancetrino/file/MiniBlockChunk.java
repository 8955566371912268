package io.lancetrino.file;

import io.airlift.slice.Slice;

import static java.lang.Math.toIntExact;

/**
 * One mini-block chunk split into its parts. The header holds the level count, the byte sizes of the rep levels and of
 * the def levels (each only when the page has them), then one size per value buffer (u16 words, u32 in 2.2's large
 * chunks); the rep levels, the def levels and the value buffers follow, each starting 8-byte aligned.
 *
 * @param rep the rep levels, or null when the page has none
 * @param def the def levels, or null when the page has none
 */
record MiniBlockChunk(int levels, Slice rep, Slice def, Slice[] values)
{
    private static final int ALIGNMENT = 8;

    static MiniBlockChunk parse(Slice chunk, boolean hasRep, boolean hasDef, int valueBuffers, boolean largeChunk)
    {
        int levels = chunk.getUnsignedShort(0);
        int position = 2;
        int repBytes = 0;
        int defBytes = 0;
        if (hasRep) {
            repBytes = chunk.getUnsignedShort(position);
            position += 2;
        }
        if (hasDef) {
            defBytes = chunk.getUnsignedShort(position);
            position += 2;
        }
        int[] valueBytes = new int[valueBuffers];
        for (int buffer = 0; buffer < valueBuffers; buffer++) {
            valueBytes[buffer] = toIntExact(largeChunk ? chunk.getUnsignedInt(position) : chunk.getUnsignedShort(position));
            position += largeChunk ? 4 : 2;
        }
        position = align(position);
        Slice rep = null;
        if (hasRep) {
            rep = chunk.slice(position, repBytes);
            position = align(position + repBytes);
        }
        Slice def = null;
        if (hasDef) {
            def = chunk.slice(position, defBytes);
            position = align(position + defBytes);
        }
        Slice[] values = new Slice[valueBuffers];
        for (int buffer = 0; buffer < valueBuffers; buffer++) {
            values[buffer] = chunk.slice(position, valueBytes[buffer]);
            position = align(position + valueBytes[buffer]);
        }
        return new MiniBlockChunk(levels, rep, def, values);
    }

    /** A chunk's size in bytes from its metadata word (the low 4 bits are log2 of its value count). */
    static int chunkBytes(long word)
    {
        return toIntExact(((word >>> 4) + 1) * ALIGNMENT);
    }

    private static int align(int position)
    {
        return (position + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }
}
