package io.lancetrino.file.writer;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.Variable;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.Arrays;
import java.util.List;

import static io.lancetrino.file.writer.PageLayouts.flat;
import static java.util.Objects.requireNonNull;

/**
 * Strings and binaries, stored Variable: each chunk's value buffer holds {@code values + 1} u32 offsets counted from
 * the buffer's start (the first is the offsets' own length), then the bytes, padded to a multiple of 4. A chunk holds the largest power of two of
 * values that stays within 4 KiB (at least one value), as Lance's writer sizes them.
 */
final class VariableWidthColumnWriter
        implements ColumnWriter
{
    private static final int CHUNK_TARGET_BYTES = 4096;
    private static final int MAX_CHUNK_VALUES = 4096;
    private static final CompressiveEncoding ENCODING = CompressiveEncoding.newBuilder()
            .setVariable(Variable.newBuilder().setOffsets(flat(32)))
            .build();

    private final Type type;
    private final boolean largeChunks;
    private final DynamicSliceOutput bytes = new DynamicSliceOutput(64 * 1024);
    private int[] ends = new int[1024];
    private boolean[] nulls = new boolean[1024];
    private int count;
    private boolean hasNulls;

    VariableWidthColumnWriter(Type type, boolean largeChunks)
    {
        this.type = requireNonNull(type, "type is null");
        this.largeChunks = largeChunks;
    }

    static boolean supports(Type type)
    {
        return type instanceof VarcharType || type instanceof VarbinaryType;
    }

    @Override
    public void append(Block block)
    {
        int positions = block.getPositionCount();
        if (count + positions > ends.length) {
            int size = Math.max(count + positions, ends.length * 2);
            ends = Arrays.copyOf(ends, size);
            nulls = Arrays.copyOf(nulls, size);
        }
        for (int position = 0; position < positions; position++) {
            if (block.isNull(position)) {
                nulls[count] = true;
                hasNulls = true;
            }
            else {
                nulls[count] = false;
                bytes.writeBytes(type.getSlice(block, position));
            }
            ends[count] = bytes.size();
            count++;
        }
    }

    @Override
    public long bufferedRows()
    {
        return count;
    }

    @Override
    public long bufferedBytes()
    {
        return bytes.size() + 4L * count + (hasNulls ? 2L * count : 0);
    }

    @Override
    public EncodedPage flush()
    {
        Slice data = bytes.slice();
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, hasNulls);
        int start = 0;
        while (start < count) {
            int values = chunkValues(start);
            boolean last = start + values == count;
            chunks.addChunk(values, hasNulls ? DefLevels.of(nulls, start, values) : null, encodeChunk(data, start, values), last);
            start += values;
        }
        EncodedPage page = new EncodedPage(count, List.of(chunks.metadata(), chunks.chunks()), PageLayouts.miniBlock(count, hasNulls, ENCODING, largeChunks));
        bytes.reset();
        count = 0;
        hasNulls = false;
        return page;
    }

    /**
     * Values in the chunk starting at {@code start}: doubled while the chunk stays within the target, and all that
     * remain when they fit in it (the last chunk's count need not be a power of two).
     */
    private int chunkValues(int start)
    {
        int remaining = count - start;
        int values = 1;
        while (values * 2 <= Math.min(remaining, MAX_CHUNK_VALUES) && chunkBytes(start, values * 2) <= CHUNK_TARGET_BYTES) {
            values *= 2;
        }
        if (remaining <= MAX_CHUNK_VALUES && remaining < values * 2 && chunkBytes(start, remaining) <= CHUNK_TARGET_BYTES) {
            values = remaining;
        }
        long needed = chunkBytes(start, values);
        if (needed > MiniBlockChunkWriter.maxChunkBytes(largeChunks) - 64) {
            throw new IllegalArgumentException("A value of %s bytes needs a full-zip page, which this writer does not write yet".formatted(needed - 8));
        }
        return values;
    }

    private long chunkBytes(int start, int values)
    {
        return 4L * (values + 1) + (ends[start + values - 1] - begin(start)) + (hasNulls ? 2L * values : 0);
    }

    private int begin(int index)
    {
        return index == 0 ? 0 : ends[index - 1];
    }

    private Slice encodeChunk(Slice data, int start, int values)
    {
        int dataStart = begin(start);
        int dataEnd = ends[start + values - 1];
        int offsetBytes = 4 * (values + 1);
        DynamicSliceOutput chunk = new DynamicSliceOutput(offsetBytes + dataEnd - dataStart);
        chunk.writeInt(offsetBytes);
        for (int i = 0; i < values; i++) {
            chunk.writeInt(offsetBytes + ends[start + i] - dataStart);
        }
        chunk.writeBytes(data, dataStart, dataEnd - dataStart);
        // Lance reads the whole buffer as u32 offsets first, so its size is a multiple of 4; the last offset ends the data
        while (chunk.size() % 4 != 0) {
            chunk.writeByte(0);
        }
        return chunk.slice();
    }
}
