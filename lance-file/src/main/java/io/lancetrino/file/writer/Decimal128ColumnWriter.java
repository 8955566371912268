package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;

import java.util.Arrays;

import static io.airlift.slice.SizeOf.sizeOf;
import static io.lancetrino.file.writer.PageLayouts.flat;
import static java.util.Objects.requireNonNull;

/**
 * Decimals, stored as Lance stores Arrow's decimal128: 16 bytes per value, two's complement, little-endian, Flat in
 * chunks of 4 KiB (256 values), as Lance's writer sizes them; with a general compressor also in chunks of 2,048 values
 * under it, kept where that saves 15%, as for other fixed-width values. The high eight bytes of most decimals are all
 * zero or all one bits, which zstd takes nearly for free.
 */
final class Decimal128ColumnWriter
        implements ColumnWriter
{
    private static final int FLAT_CHUNK_VALUES = 256;
    private static final int GENERAL_CHUNK_VALUES = 2048;
    private static final int GENERAL_CHUNK_VALUES_V21 = 1024;

    private final DecimalType type;
    private final boolean largeChunks;
    private final GeneralCompressor compressor;
    private long[] low = new long[1024];
    private long[] high = new long[1024];
    private final StructNesting nesting;
    private final boolean constantPages;
    private boolean[] nulls = new boolean[1024];
    private int count;
    private boolean hasNulls;

    /**
     * @param nesting the def levels of a leaf inside structs, or null at the top level
     */
    Decimal128ColumnWriter(Type type, boolean largeChunks, GeneralCompressor compressor, StructNesting nesting, boolean constantPages)
    {
        this.nesting = nesting;
        this.constantPages = constantPages;
        this.type = (DecimalType) requireNonNull(type, "type is null");
        this.largeChunks = largeChunks;
        this.compressor = compressor;
    }

    static boolean supports(Type type)
    {
        return type instanceof DecimalType;
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        // every page of a leaf inside structs has def levels, so all its pages have the same layers
        hasNulls |= nesting != null;
        int positions = block.getPositionCount();
        if (count + positions > low.length) {
            int size = Math.max(count + positions, low.length * 2);
            low = Arrays.copyOf(low, size);
            high = Arrays.copyOf(high, size);
            nulls = Arrays.copyOf(nulls, size);
        }
        for (int position = 0; position < positions; position++) {
            nulls[count] = nesting == null ? block.isNull(position) : nesting.record(count, block, position, nullStructDepth);
            if (nulls[count]) {
                hasNulls = true;
                low[count] = 0;
                high[count] = 0;
            }
            else if (type.isShort()) {
                long unscaled = type.getLong(block, position);
                low[count] = unscaled;
                high[count] = unscaled >> 63;
            }
            else {
                Int128 unscaled = (Int128) type.getObject(block, position);
                low[count] = unscaled.getLow();
                high[count] = unscaled.getHigh();
            }
            count++;
        }
    }

    @Override
    public long retainedBytes()
    {
        return sizeOf(low) + sizeOf(high) + sizeOf(nulls) + (nesting == null ? 0 : nesting.retainedBytes());
    }

    @Override
    public long bufferedRows()
    {
        return count;
    }

    @Override
    public long bufferedBytes()
    {
        return 16L * count + (hasNulls ? 2L * count : 0);
    }

    @Override
    public EncodedPage flush()
    {
        EncodedPage page = constantPages && ConstantPages.allNull(nulls, count) ? ConstantPages.allNull(count)
                : constantPages && largeChunks && isConstant() ? ConstantPages.constant(count, littleEndian(low[0], high[0]))
                : encode();
        count = 0;
        hasNulls = false;
        return page;
    }

    /** Whether every buffered value (none NULL) equals the first: a constant page in format 2.2, as for other fixed-width values. */
    private boolean isConstant()
    {
        if (count == 0 || hasNulls) {
            return false;
        }
        for (int i = 1; i < count; i++) {
            if (low[i] != low[0] || high[i] != high[0]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] littleEndian(long low, long high)
    {
        Slice value = Slices.allocate(16);
        value.setLong(0, low);
        value.setLong(8, high);
        return value.getBytes();
    }

    private EncodedPage encode()
    {
        EncodedPage page = chunked(FLAT_CHUNK_VALUES, null);
        if (compressor != null) {
            EncodedPage general = chunked(largeChunks ? GENERAL_CHUNK_VALUES : GENERAL_CHUNK_VALUES_V21, compressor);
            if (FixedWidthPageEncoder.saves(general, page)) {
                page = general;
            }
        }
        return nesting == null ? page : nesting.apply(page, count);
    }

    private EncodedPage chunked(int perChunk, GeneralCompressor general)
    {
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, count, hasNulls ? nulls : null);
        for (int start = 0; start < count; start += perChunk) {
            int length = Math.min(perChunk, count - start);
            Slice values = Slices.allocate(16 * length);
            for (int i = 0; i < length; i++) {
                values.setLong(16 * i, low[start + i]);
                values.setLong(16 * i + 8, high[start + i]);
            }
            chunks.addChunk(length, general == null ? values : general.compress(values));
        }
        return chunks.page(general == null ? flat(128) : general.wrap(flat(128)), null, null, 0);
    }
}
