package io.lancetrino.file.writer;

import com.google.protobuf.ByteString;
import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.Fsst;
import io.lancetrino.file.proto.encodings.Variable;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.Arrays;
import java.util.List;
import java.util.HashMap;
import java.util.Map;

import static com.google.common.base.Preconditions.checkArgument;
import static io.airlift.slice.SizeOf.sizeOf;
import static io.lancetrino.file.writer.PageLayouts.flat;
import static java.util.Objects.requireNonNull;

/**
 * Strings and binaries, stored Variable: each chunk's value buffer holds {@code values + 1} offsets counted from the
 * buffer's start (the first is the offsets' own length), then the bytes, padded to a multiple of the offset width.
 * Offsets are u32, or u64 for Arrow's large types, whose pages Lance decodes with the field's own offset width. A chunk
 * holds the largest power of two of values that stays within 4 KiB (at least one value), as Lance's writer sizes them;
 * under general compression, within 64 KiB. A page whose values repeat becomes a dictionary page instead, when smaller
 * (u32 offsets only: Lance's block form of dictionary items has no other).
 */
final class VariableWidthColumnWriter
        implements ColumnWriter
{
    private static final int CHUNK_TARGET_BYTES = 4096;
    // one zstd frame per chunk: 64 KiB of strings compress about as well as the whole page and decode as fast as plain
    // chunks (TPC-H l_comment); format 2.1's chunks end at 32 KiB, which 16 KiB of input never outgrows
    private static final int GENERAL_CHUNK_BYTES = 64 * 1024;
    private static final int GENERAL_CHUNK_BYTES_V21 = 16 * 1024;
    // from zstd level 14 on (optimal parsing, 3-byte matches) a frame also compresses the chunk's offsets, and larger
    // frames pay: TPC-H l_comment at level 14, 64 KiB chunks 12% smaller than at level 9, chunks of 4,096 values
    // (about 128 KiB) 25% smaller; a single-row read then decompresses up to 256 KiB
    private static final int OPTIMAL_PARSING_CHUNK_BYTES = 256 * 1024;
    private static final int MAX_DICTIONARY_ITEMS = 1 << 16;
    private static final int DICTIONARY_SAMPLE = 4096;
    private static final int SAMPLE_BYTES = 256 * 1024;
    static final int MAX_CHUNK_VALUES = 4096;
    // FSST where Lance's writer takes it: pages of 32 KiB of values or more, with a value of 5 bytes or more
    private static final int FSST_MIN_PAGE_BYTES = 32 * 1024;
    private static final int FSST_MIN_VALUE_BYTES = 5;
    private static final int FSST_SAMPLE_BYTES = 32 * 1024;
    // in format 2.1 a page with a value this long goes in a full-zip page, as Lance's writer does (its chunks are 32 KiB
    // at most); 2.2 keeps mini-block chunks, whose zstd frames compress better than values one at a time
    private static final int FULL_ZIP_VALUE_BYTES = 256;
    private static final CompressiveEncoding ENCODING = encoding(Integer.BYTES);

    private final Type type;
    private final int offsetBytes;
    private final int maxChunkValues;
    private final boolean fullZipPages;
    private final CompressiveEncoding encoding;
    private final boolean largeChunks;
    private final GeneralCompressor compressor;
    private final FixedWidthPageEncoder dictionaryIndices;
    private final StructNesting nesting;
    private final boolean constantPages;
    private final DynamicSliceOutput bytes = new DynamicSliceOutput(64 * 1024);
    private int[] ends = new int[1024];
    private boolean[] nulls = new boolean[1024];
    private int count;
    private boolean hasNulls;

    /**
     * @param nesting the def levels of a leaf inside structs, or null at the top level
     */
    VariableWidthColumnWriter(Type type, boolean largeChunks, GeneralCompressor compressor, StructNesting nesting, boolean constantPages)
    {
        this(type, largeChunks, compressor, nesting, constantPages, Integer.BYTES, MAX_CHUNK_VALUES, true);
    }

    /**
     * @param constantPages whether a page of only NULLs may be a constant page (a top-level column's)
     * @param offsetBytes 4, or 8 for Arrow's large strings and binaries
     * @param maxChunkValues the most values a chunk holds (fewer for a list's items in format 2.1, whose levels share the chunk)
     * @param fullZipPages whether format 2.1 pages with long values may be full-zip pages
     */
    VariableWidthColumnWriter(Type type, boolean largeChunks, GeneralCompressor compressor, StructNesting nesting, boolean constantPages, int offsetBytes, int maxChunkValues, boolean fullZipPages)
    {
        this.fullZipPages = fullZipPages;
        checkArgument(maxChunkValues > 0 && maxChunkValues <= MAX_CHUNK_VALUES && Integer.bitCount(maxChunkValues) == 1, "chunks of %s values", maxChunkValues);
        this.maxChunkValues = maxChunkValues;
        this.constantPages = constantPages;
        checkArgument(offsetBytes == Integer.BYTES || offsetBytes == Long.BYTES, "offsets of %s bytes", offsetBytes);
        this.offsetBytes = offsetBytes;
        this.encoding = offsetBytes == Integer.BYTES ? ENCODING : encoding(offsetBytes);
        this.nesting = nesting;
        this.type = requireNonNull(type, "type is null");
        this.largeChunks = largeChunks;
        this.compressor = compressor;
        this.dictionaryIndices = new FixedWidthPageEncoder(32, largeChunks, compressor, Math.max(FastLanesPacker.BLOCK_VALUES, maxChunkValues));
    }

    static boolean supports(Type type)
    {
        return type instanceof VarcharType || type instanceof VarbinaryType;
    }

    static CompressiveEncoding encoding(int offsetBytes)
    {
        return CompressiveEncoding.newBuilder()
                .setVariable(Variable.newBuilder().setOffsets(flat(8 * offsetBytes)))
                .build();
    }

    @Override
    public void append(Block block, byte[] nullStructDepth)
    {
        // every page of a leaf inside structs has def levels, so all its pages have the same layers
        hasNulls |= nesting != null;
        int positions = block.getPositionCount();
        if (count + positions > ends.length) {
            int size = Math.max(count + positions, ends.length * 2);
            ends = Arrays.copyOf(ends, size);
            nulls = Arrays.copyOf(nulls, size);
        }
        for (int position = 0; position < positions; position++) {
            if (nesting == null ? block.isNull(position) : nesting.record(count, block, position, nullStructDepth)) {
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
    public long retainedBytes()
    {
        return bytes.getRetainedSize() + sizeOf(ends) + sizeOf(nulls) + (nesting == null ? 0 : nesting.retainedBytes());
    }

    @Override
    public long bufferedRows()
    {
        return count;
    }

    @Override
    public long bufferedBytes()
    {
        return bytes.size() + (long) offsetBytes * count + (hasNulls ? 2L * count : 0);
    }

    @Override
    public EncodedPage flush()
    {
        Slice data = bytes.slice();
        EncodedPage page;
        if (constantPages && ConstantPages.allNull(nulls, count)) {
            page = ConstantPages.allNull(count);
        }
        else if (constantPages && largeChunks && !hasNulls && isConstant(data)) {
            page = ConstantPages.constantVariableWidth(count, data.slice(0, ends[0]), offsetBytes);
        }
        else if (!largeChunks && fullZipPages && longestValue() >= FULL_ZIP_VALUE_BYTES) {
            // format 2.1 chunks stop at 32 KiB: long values go in a full-zip page, as Lance's writer puts them
            page = fullZip(data);
        }
        else {
            page = encode(data);
            if (nesting != null) {
                page = nesting.apply(page, count);
            }
        }
        bytes.reset();
        count = 0;
        hasNulls = false;
        return page;
    }

    /** Whether every buffered value (none NULL) equals the first. */
    private boolean isConstant(Slice data)
    {
        if (count == 0) {
            return false;
        }
        int length = ends[0];
        for (int i = 1; i < count; i++) {
            if (ends[i] - ends[i - 1] != length || !data.equals(ends[i - 1], length, data, 0, length)) {
                return false;
            }
        }
        return true;
    }

    private int longestValue()
    {
        int longest = 0;
        for (int i = 0; i < count; i++) {
            longest = Math.max(longest, ends[i] - begin(i));
        }
        return longest;
    }

    /**
     * A full-zip page: per row its def level (one byte, when the page has any), then for a value its length (as wide as
     * the offsets) and bytes; and the byte position of every record and of the end, byte-packed, so a reader starts a
     * row range without a scan.
     */
    private EncodedPage fullZip(Slice data)
    {
        boolean hasDef = hasNulls;
        int maxLevel = nesting == null ? 1 : nesting.maxLevel();
        // without general compression each value is FSST-coded with one table for the page where that saves, as Lance does
        int[] valueEnds = ends;
        CompressiveEncoding values = encoding;
        if (fsstApplies(data)) {
            FsstValues coded = fsstValues(data);
            if (coded.data().length() < data.length()) {
                data = coded.data();
                valueEnds = coded.ends();
                values = coded.encoding();
            }
        }
        DynamicSliceOutput records = new DynamicSliceOutput(data.length() + (1 + offsetBytes) * count);
        long[] positions = new long[count + 1];
        for (int row = 0; row < count; row++) {
            positions[row] = records.size();
            if (hasDef) {
                records.writeByte(nesting == null ? (nulls[row] ? 1 : 0) : nesting.level(row));
            }
            if (!nulls[row]) {
                int begin = begin(valueEnds, row);
                if (offsetBytes == Long.BYTES) {
                    records.writeLong(valueEnds[row] - begin);
                }
                else {
                    records.writeInt(valueEnds[row] - begin);
                }
                records.writeBytes(data, begin, valueEnds[row] - begin);
            }
        }
        positions[count] = records.size();
        Slice index = recordPositions(positions);
        int defBits = hasDef ? 32 - Integer.numberOfLeadingZeros(maxLevel) : 0;
        List<RepDefLayer> layers = nesting != null ? nesting.layers() : List.of(hasDef ? RepDefLayer.REPDEF_NULLABLE_ITEM : RepDefLayer.REPDEF_ALL_VALID_ITEM);
        return new EncodedPage(count, List.of(records.slice(), index), PageLayouts.fullZipVariable(count, count, 0, defBits, 8 * offsetBytes, values, layers));
    }

    /** A full-zip page's index: the byte positions of its rows' first records and of the end, byte-packed to 1, 2, 4 or 8 bytes. */
    static Slice recordPositions(long[] positions)
    {
        long end = positions[positions.length - 1];
        int width = end < 1 << 8 ? 1 : end < 1 << 16 ? 2 : end < 1L << 32 ? 4 : 8;
        Slice index = Slices.allocate(width * positions.length);
        for (int i = 0; i < positions.length; i++) {
            switch (width) {
                case 1 -> index.setByte(i, (int) positions[i]);
                case 2 -> index.setShort(i * 2, (int) positions[i]);
                case 4 -> index.setInt(i * 4, (int) positions[i]);
                default -> index.setLong(i * 8, positions[i]);
            }
        }
        return index;
    }

    /**
     * The smallest of plain chunks, a dictionary and general compression. Plain chunks are sized without being built,
     * so a page that compresses is copied once, not twice.
     */
    private EncodedPage encode(Slice data)
    {
        long plainBytes = chunkedBytes(CHUNK_TARGET_BYTES);
        EncodedPage dictionary = offsetBytes == Integer.BYTES ? dictionary(data) : null;
        boolean useDictionary = dictionary != null && dictionary.bytes() < plainBytes;
        long bestBytes = useDictionary ? dictionary.bytes() : plainBytes;
        int generalChunkBytes = !largeChunks ? GENERAL_CHUNK_BYTES_V21
                : compressor != null && compressor.parsesOptimally() ? OPTIMAL_PARSING_CHUNK_BYTES : GENERAL_CHUNK_BYTES;
        if (compressor != null && generalPays(data, generalChunkBytes, bestBytes)) {
            EncodedPage general = chunked(data, generalChunkBytes, compressor);
            if (FixedWidthPageEncoder.saves(general, bestBytes)) {
                return general;
            }
        }
        if (fsstApplies(data)) {
            EncodedPage fsst = fsst(data);
            if (fsst.bytes() < bestBytes) {
                return fsst;
            }
        }
        return useDictionary ? dictionary : chunked(data, CHUNK_TARGET_BYTES, null);
    }

    /**
     * FSST over the page's values, then plain chunks of the coded values, as Lance's writer codes strings where no
     * general compression is asked for: one symbol table per page, learned from a sample of it.
     */
    private EncodedPage fsst(Slice data)
    {
        FsstValues coded = fsstValues(data);
        return chunked(coded.data(), coded.ends(), CHUNK_TARGET_BYTES, null, coded.encoding());
    }

    /** Whether FSST is worth trying: no general compression asked for, and Lance's thresholds met (u32 offsets only). */
    private boolean fsstApplies(Slice data)
    {
        return compressor == null && offsetBytes == Integer.BYTES && data.length() >= FSST_MIN_PAGE_BYTES && longestValue() >= FSST_MIN_VALUE_BYTES;
    }

    /** The values FSST-coded with a table learned from the page, and the encoding that names the table. */
    private FsstValues fsstValues(Slice data)
    {
        FsstEncoder encoder = FsstEncoder.train(data, ends, count, FSST_SAMPLE_BYTES);
        DynamicSliceOutput coded = new DynamicSliceOutput(data.length() / 2 + 16);
        int[] codedEnds = new int[count];
        for (int i = 0; i < count; i++) {
            encoder.compress(data, begin(i), ends[i], coded);
            codedEnds[i] = coded.size();
        }
        CompressiveEncoding values = CompressiveEncoding.newBuilder()
                .setFsst(Fsst.newBuilder().setSymbolTable(ByteString.copyFrom(encoder.table().getBytes())).setValues(encoding))
                .build();
        return new FsstValues(coded.slice(), codedEnds, values);
    }

    private record FsstValues(Slice data, int[] ends, CompressiveEncoding encoding) {}

    /** The bytes of the page {@code chunked(data, targetBytes, null)} builds. */
    private long chunkedBytes(int targetBytes)
    {
        long bytes = 0;
        int start = 0;
        while (start < count) {
            int values = chunkValues(ends, start, targetBytes);
            long valueBytes = (long) offsetBytes * (values + 1) + ends[start + values - 1] - begin(start);
            bytes += MiniBlockChunkWriter.chunkBytes(largeChunks, hasNulls, values, (valueBytes + offsetBytes - 1) / offsetBytes * offsetBytes);
            start += values;
        }
        return bytes;
    }

    /** Whether compressing the first chunks (about a quarter MiB) promises to save enough on the whole page. */
    private boolean generalPays(Slice data, int targetBytes, long plainBytes)
    {
        long rawSample = 0;
        long compressedSample = 0;
        int start = 0;
        while (start < count && rawSample < SAMPLE_BYTES) {
            int values = chunkValues(ends, start, targetBytes);
            Slice chunk = encodeChunk(data, ends, start, values);
            rawSample += chunk.length();
            compressedSample += compressor.compressVariable(chunk, offsetBytes * (values + 1)).length();
            start += values;
        }
        long raw = data.length() + (long) offsetBytes * count;
        return (double) compressedSample / rawSample * raw < (1 - EncodingOptions.MIN_GENERAL_SAVING / 2) * plainBytes;
    }

    private EncodedPage chunked(Slice data, int targetBytes, GeneralCompressor general)
    {
        return chunked(data, ends, targetBytes, general, general == null ? encoding : general.wrap(encoding));
    }

    /** Chunks of the values {@code [begin(i), valueEnds[i])} of {@code data}, as the page's {@code values} encoding says. */
    private EncodedPage chunked(Slice data, int[] valueEnds, int targetBytes, GeneralCompressor general, CompressiveEncoding values)
    {
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, count, hasNulls ? nulls : null);
        int start = 0;
        while (start < count) {
            int chunkValues = chunkValues(valueEnds, start, targetBytes);
            Slice chunk = encodeChunk(data, valueEnds, start, chunkValues);
            chunks.addChunk(chunkValues, general == null ? chunk : general.compressVariable(chunk, offsetBytes * (chunkValues + 1)));
            start += chunkValues;
        }
        return chunks.page(values, null, null, 0);
    }

    /**
     * A dictionary page when the page's values repeat: the distinct values in Lance's block form of variable-width
     * values, and bit-packed u32 indices. Null when a sample of the values shows too many distinct ones.
     */
    private EncodedPage dictionary(Slice data)
    {
        int maxItems = Math.min(MAX_DICTIONARY_ITEMS, count / 2);
        Map<Slice, Integer> ids = new HashMap<>();
        long[] indices = new long[count];
        DynamicSliceOutput items = new DynamicSliceOutput(1024);
        int[] itemEnds = new int[64];
        for (int row = 0; row < count; row++) {
            if (hasNulls && nulls[row]) {
                continue;
            }
            Slice value = data.slice(begin(row), ends[row] - begin(row));
            Integer id = ids.get(value);
            if (id == null) {
                // most pages of unique values stop here, after a sample
                if (ids.size() >= maxItems || (row >= DICTIONARY_SAMPLE && ids.size() > row / 2)) {
                    return null;
                }
                id = ids.size();
                ids.put(value, id);
                items.writeBytes(value);
                if (id == itemEnds.length) {
                    itemEnds = Arrays.copyOf(itemEnds, id * 2);
                }
                itemEnds[id] = items.size();
            }
            indices[row] = id;
        }
        if (ids.isEmpty()) {
            return null;
        }
        int itemCount = ids.size();
        int offsetsStart = 8;
        int bytesStart = offsetsStart + 4 * (itemCount + 1);
        Slice dictionary = Slices.allocate(bytesStart + items.size());
        dictionary.setInt(0, 32);
        dictionary.setInt(4, bytesStart);
        for (int i = 0; i < itemCount; i++) {
            dictionary.setInt(offsetsStart + 4 * (i + 1), itemEnds[i]);
        }
        dictionary.setBytes(bytesStart, items.slice());
        CompressiveEncoding dictionaryEncoding = ENCODING;
        if (compressor != null && largeChunks) {
            Slice compressed = compressor.compress(dictionary);
            if (compressed.length() < dictionary.length()) {
                dictionary = compressed;
                dictionaryEncoding = compressor.wrap(ENCODING);
            }
        }
        return dictionaryIndices.dictionaryIndices(indices, nulls, hasNulls, count, dictionary, dictionaryEncoding, itemCount);
    }

    /**
     * Values in the chunk starting at {@code start}: doubled while the chunk stays within the target, and all that
     * remain when they fit in it (the last chunk's count need not be a power of two).
     */
    private int chunkValues(int[] valueEnds, int start, int targetBytes)
    {
        int remaining = count - start;
        int values = 1;
        while (values * 2 <= Math.min(remaining, maxChunkValues) && chunkBytes(valueEnds, start, values * 2) <= targetBytes) {
            values *= 2;
        }
        if (remaining <= maxChunkValues && remaining < values * 2 && chunkBytes(valueEnds, start, remaining) <= targetBytes) {
            values = remaining;
        }
        long needed = chunkBytes(valueEnds, start, values);
        if (needed > MiniBlockChunkWriter.maxChunkBytes(largeChunks) - 64) {
            throw new IllegalArgumentException("A value of %s bytes does not fit a mini-block chunk of format 2.1".formatted(needed - 8));
        }
        return values;
    }

    private long chunkBytes(int[] valueEnds, int start, int values)
    {
        return (long) offsetBytes * (values + 1) + (valueEnds[start + values - 1] - begin(valueEnds, start)) + (hasNulls ? 2L * values : 0);
    }

    private int begin(int index)
    {
        return begin(ends, index);
    }

    private static int begin(int[] valueEnds, int index)
    {
        return index == 0 ? 0 : valueEnds[index - 1];
    }

    private Slice encodeChunk(Slice data, int[] valueEnds, int start, int values)
    {
        int dataStart = begin(valueEnds, start);
        int dataEnd = valueEnds[start + values - 1];
        int offsetsLength = offsetBytes * (values + 1);
        DynamicSliceOutput chunk = new DynamicSliceOutput(offsetsLength + dataEnd - dataStart);
        for (int i = -1; i < values; i++) {
            int offset = offsetsLength + (i < 0 ? 0 : valueEnds[start + i] - dataStart);
            if (offsetBytes == Integer.BYTES) {
                chunk.writeInt(offset);
            }
            else {
                chunk.writeLong(offset);
            }
        }
        chunk.writeBytes(data, dataStart, dataEnd - dataStart);
        // Lance reads the whole buffer as offsets first, so its size is a multiple of their width; the last offset ends
        // the data
        while (chunk.size() % offsetBytes != 0) {
            chunk.writeByte(0);
        }
        return chunk.slice();
    }
}
