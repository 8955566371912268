package io.lancetrino.split.arrow;

import io.airlift.slice.Slices;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;

import java.util.Arrays;
import java.util.Optional;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.arrow.ArrowBlocks.unsupported;
import static io.lancetrino.split.arrow.ArrowBuffers.optional;
import static io.lancetrino.split.arrow.ArrowBuffers.readBytes;
import static io.lancetrino.split.arrow.ArrowBuffers.readInts;
import static io.lancetrino.split.arrow.ArrowBuffers.readLongs;

/**
 * Strings and binaries: the used part of the data buffer becomes the block's slice, the offsets are reused rebased
 * to zero.
 */
final class VariableWidthBlocks
{
    // largest byte[] the JVM reliably allocates
    private static final long MAX_DATA_BYTES = Integer.MAX_VALUE - 8;
    // candidate dictionary entries of one-character values: the empty string, character c at c + 1, then NULL
    private static final int NULL_ENTRY = 129;
    private static final int CANDIDATE_ENTRIES = 130;

    private VariableWidthBlocks() {}

    static Block toBlock(Type type, FieldVector vector, long[] valid)
    {
        if (!(type instanceof VarcharType || type instanceof VarbinaryType)) {
            throw unsupported(type, vector);
        }
        int count = vector.getValueCount();
        int[] offsets;
        byte[] data;
        switch (vector) {
            case BaseVariableWidthVector strings -> {
                offsets = count == 0 ? new int[1] : readInts(strings.getOffsetBuffer(), count + 1);
                int start = offsets[0];
                checkOffsets(offsets, count);
                data = readBytes(strings.getDataBuffer(), start, offsets[count] - start);
                if (start != 0) {
                    for (int i = 0; i <= count; i++) {
                        offsets[i] -= start;
                    }
                }
            }
            case BaseLargeVariableWidthVector strings -> {
                long[] largeOffsets = count == 0 ? new long[1] : readLongs(strings.getOffsetBuffer(), count + 1);
                long start = largeOffsets[0];
                long length = largeOffsets[count] - start;
                if (start < 0 || length < 0 || length > MAX_DATA_BYTES) {
                    throw new TrinoException(LANCE_BAD_DATA, "Arrow values span too many bytes for one block: " + length);
                }
                offsets = new int[count + 1];
                for (int i = 1; i <= count; i++) {
                    long offset = largeOffsets[i] - start;
                    if (offset < offsets[i - 1] || offset > length) {
                        throw new TrinoException(LANCE_BAD_DATA, "Arrow offsets decrease at position " + (i - 1));
                    }
                    offsets[i] = (int) offset;
                }
                data = readBytes(strings.getDataBuffer(), start, (int) length);
            }
            case FixedSizeBinaryVector binaries -> {
                int width = binaries.getByteWidth();
                long length = (long) width * count;
                if (length > MAX_DATA_BYTES) {
                    throw new TrinoException(LANCE_BAD_DATA, "Arrow values span too many bytes for one block: " + length);
                }
                data = readBytes(binaries.getDataBuffer(), 0, (int) length);
                offsets = new int[count + 1];
                for (int i = 1; i <= count; i++) {
                    offsets[i] = offsets[i - 1] + width;
                }
            }
            default -> throw unsupported(type, vector);
        }
        // a dictionary ignores what null slots hold, so it is tried before they are emptied
        if (count > 0 && offsets[count] - offsets[0] <= count) {
            Block characters = asciiCharacters(data, offsets, valid, count);
            if (characters != null) {
                return characters;
            }
        }
        if (valid != null && nullsHoldBytes(offsets, valid, count)) {
            data = dropNullBytes(data, offsets, valid, count);
        }
        return new VariableWidthBlock(count, Slices.wrappedBuffer(data), offsets, optional(valid));
    }

    // Values of at most one ASCII byte (flags, codes) become a dictionary of the few values present: Trino groups by
    // such blocks through a table of dictionary-id combinations instead of hashing every row
    private static Block asciiCharacters(byte[] data, int[] offsets, long[] valid, int count)
    {
        int[] entries = new int[count];
        boolean[] present = new boolean[CANDIDATE_ENTRIES];
        for (int i = 0; i < count; i++) {
            int entry;
            if (valid != null && ArrowBuffers.isNull(valid, i)) {
                entry = NULL_ENTRY;
            }
            else if (offsets[i + 1] == offsets[i]) {
                entry = 0;
            }
            else {
                int character = data[offsets[i]];
                if (offsets[i + 1] - offsets[i] > 1 || character < 0) {
                    return null;
                }
                entry = character + 1;
            }
            entries[i] = entry;
            present[entry] = true;
        }
        int[] idOfEntry = new int[CANDIDATE_ENTRIES];
        int[] dictionaryOffsets = new int[CANDIDATE_ENTRIES + 1];
        byte[] dictionaryBytes = new byte[128];
        long[] dictionaryValid = null;
        int size = 0;
        int bytes = 0;
        for (int entry = 0; entry < CANDIDATE_ENTRIES; entry++) {
            if (!present[entry]) {
                continue;
            }
            idOfEntry[entry] = size;
            if (entry == NULL_ENTRY) {
                dictionaryValid = new long[ArrowBuffers.wordCount(size + 1)];
                Arrays.fill(dictionaryValid, -1L);
                dictionaryValid[size >>> 6] &= ~(1L << size);
            }
            else if (entry > 0) {
                dictionaryBytes[bytes++] = (byte) (entry - 1);
            }
            size++;
            dictionaryOffsets[size] = bytes;
        }
        for (int i = 0; i < count; i++) {
            entries[i] = idOfEntry[entries[i]];
        }
        Block dictionary = new VariableWidthBlock(size, Slices.wrappedBuffer(dictionaryBytes, 0, bytes), Arrays.copyOf(dictionaryOffsets, size + 1), Optional.ofNullable(dictionaryValid));
        return DictionaryBlock.create(count, dictionary, entries);
    }

    // Arrow lets a null slot keep bytes (Lance 2.2 fills nulls of dictionary-decoded strings with a value); Trino
    // expects null positions to be empty, and its exchange serialization of a block with non-empty nulls corrupts the
    // blocks that follow it in the page
    private static boolean nullsHoldBytes(int[] offsets, long[] valid, int count)
    {
        for (int word = 0; word < valid.length; word++) {
            long nulls = ~valid[word];
            while (nulls != 0) {
                int position = (word << 6) + Long.numberOfTrailingZeros(nulls);
                if (position >= count) {
                    break;
                }
                if (offsets[position + 1] != offsets[position]) {
                    return true;
                }
                nulls &= nulls - 1;
            }
        }
        return false;
    }

    private static byte[] dropNullBytes(byte[] data, int[] offsets, long[] valid, int count)
    {
        byte[] compacted = new byte[data.length];
        int length = 0;
        int start = offsets[0];
        for (int position = 0; position < count; position++) {
            int end = offsets[position + 1];
            if (!ArrowBuffers.isNull(valid, position)) {
                System.arraycopy(data, start, compacted, length, end - start);
                length += end - start;
            }
            start = end;
            offsets[position + 1] = length;
        }
        return Arrays.copyOf(compacted, length);
    }

    // offsets must not decrease, or the block would read outside its slice
    private static void checkOffsets(int[] offsets, int count)
    {
        if (offsets[0] < 0) {
            throw new TrinoException(LANCE_BAD_DATA, "Negative Arrow offset: " + offsets[0]);
        }
        // without an early exit the loop vectorizes; the position is searched only for the error message
        int decreases = 0;
        for (int i = 0; i < count; i++) {
            decreases |= offsets[i + 1] - offsets[i];
        }
        if (decreases >= 0) {
            return;
        }
        for (int i = 0; i < count; i++) {
            if (offsets[i + 1] < offsets[i]) {
                throw new TrinoException(LANCE_BAD_DATA, "Arrow offsets decrease at position " + i);
            }
        }
    }
}
