package io.lancetrino.file.codec;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;

import java.util.Arrays;

/**
 * The bytes of a block of variable-width values, written once where they end up: chunks append their wanted values
 * (decompressing FSST straight into it), so no value is copied again to assemble the block.
 */
public final class VariableOutput
{
    private static final byte[] EMPTY = new byte[0];

    private final int expectedValues;
    private byte[] bytes = EMPTY;
    private int size;
    // values the reserved bytes were for, which tells their average size
    private long reservedValues;

    /**
     * @param expectedValues the values the block will hold: the values appended so far tell their average size, and the
     * buffer is sized for all of them
     */
    public VariableOutput(int expectedValues)
    {
        this.expectedValues = expectedValues;
    }

    /** The buffer, with room for {@code extra} more bytes after {@link #size()}, {@code extra} being for {@code values} values. */
    byte[] reserve(int extra, int values)
    {
        long needed = (long) size + extra;
        if (needed > bytes.length) {
            // sized for the whole block at the average so far, with an eighth to spare: growing a buffer of a few
            // hundred KiB by copies measured a fifth of a string scan's decode time
            long valuesSoFar = Math.max(1, reservedValues + values);
            long estimate = needed + needed * Math.max(0, expectedValues - valuesSoFar) / valuesSoFar;
            estimate += estimate >> 3;
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, estimate)));
        }
        reservedValues += values;
        return bytes;
    }

    public int size()
    {
        return size;
    }

    void setSize(int size)
    {
        this.size = size;
    }

    /**
     * Appends values {@code [first, last)} and sets {@code offsets[out + k + 1]} for the k-th of them; values marked
     * null keep no bytes (fixed-width binary stores bytes for them too, and Trino's block serde assumes nulls are empty).
     */
    public void append(VariableValues values, int first, int last, int[] offsets, int out, boolean[] nulls)
    {
        int[] valueOffsets = values.offsets();
        if (nulls == null) {
            int start = valueOffsets[first];
            int length = valueOffsets[last] - start;
            values.data().getBytes(start, reserve(length, last - first), size, length);
            int shift = size - start;
            for (int i = first; i < last; i++) {
                offsets[out + i - first + 1] = valueOffsets[i + 1] + shift;
            }
            size += length;
            return;
        }
        for (int i = first; i < last; i++) {
            int position = out + i - first;
            if (!nulls[position]) {
                int length = valueOffsets[i + 1] - valueOffsets[i];
                values.data().getBytes(valueOffsets[i], reserve(length, 1), size, length);
                size += length;
            }
            offsets[position + 1] = size;
        }
    }

    public Slice slice()
    {
        return Slices.wrappedBuffer(bytes, 0, size);
    }
}
