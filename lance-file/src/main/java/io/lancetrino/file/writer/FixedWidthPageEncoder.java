package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;

import java.util.Arrays;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static io.lancetrino.file.writer.FastLanesPacker.BLOCK_VALUES;
import static io.lancetrino.file.writer.PageLayouts.byteStreamSplit;
import static io.lancetrino.file.writer.PageLayouts.flat;
import static io.lancetrino.file.writer.PageLayouts.inlineBitpacking;

/**
 * Encodes a page of fixed-width values into a mini-block page, choosing by size among Flat chunks of 4 KiB, inline
 * bit-packed chunks of 1,024 values (as Lance's writer packs them), and, in format 2.2 for 32- and 64-bit values, a
 * dictionary with bit-packed indices. With a general compressor it also compresses larger Flat chunks and keeps them
 * where they save enough.
 */
final class FixedWidthPageEncoder
{
    private static final int FLAT_CHUNK_BYTES = 4096;
    static final int MAX_CHUNK_VALUES = 4096;
    // a zstd frame per chunk: larger chunks compress better, smaller ones make single-row reads cheaper; format 2.1
    // allows chunks of 32 KiB, which a frame of 16 KiB never outgrows
    private static final int GENERAL_CHUNK_BYTES = 32 * 1024;
    private static final int GENERAL_CHUNK_BYTES_V21 = 16 * 1024;
    private static final int MAX_DICTIONARY_ITEMS = 1 << 16;
    private static final int SAMPLE_CHUNKS = 4;
    // run-length chunks: Lance documents at most 2,048 values a chunk, and a run's length is one byte
    private static final int RUN_LENGTH_CHUNK_VALUES = 2048;
    private static final int MAX_RUN = 255;

    private final int bitsPerValue;
    private final boolean largeChunks;
    private final int maxChunkValues;
    private final GeneralCompressor compressor;
    private final long[] words = new long[BLOCK_VALUES];
    private final long[] lastBlock = new long[BLOCK_VALUES];

    FixedWidthPageEncoder(int bitsPerValue, boolean largeChunks, GeneralCompressor compressor)
    {
        this(bitsPerValue, largeChunks, compressor, MAX_CHUNK_VALUES);
    }

    /**
     * @param maxChunkValues the most values a Flat or compressed chunk holds (at most 4,096; bit-packed chunks hold 1,024)
     */
    FixedWidthPageEncoder(int bitsPerValue, boolean largeChunks, GeneralCompressor compressor, int maxChunkValues)
    {
        checkArgument(maxChunkValues >= BLOCK_VALUES && maxChunkValues <= MAX_CHUNK_VALUES && Integer.bitCount(maxChunkValues) == 1, "chunks of %s values", maxChunkValues);
        this.bitsPerValue = bitsPerValue;
        this.largeChunks = largeChunks;
        this.maxChunkValues = maxChunkValues;
        this.compressor = compressor;
    }

    EncodedPage encode(long[] values, boolean[] nulls, boolean hasNulls, int count)
    {
        if (bitsPerValue == 1) {
            return flatPage(values, nulls, hasNulls, count);
        }
        long flatBytes = (long) count * bitsPerValue / 8;
        long packedBytes = bitpackedBytes(values, count, bitsPerValue);
        LongDictionary dictionary = null;
        long dictionaryBytes = Long.MAX_VALUE;
        if (largeChunks && bitsPerValue >= 32 && count >= 4 * BLOCK_VALUES) {
            dictionary = LongDictionary.build(values, nulls, hasNulls, count, Math.min(MAX_DICTIONARY_ITEMS, count / 4));
            if (dictionary != null && dictionary.itemCount() > 0) {
                dictionaryBytes = (long) dictionary.itemCount() * bitsPerValue / 8 + bitpackedBytes(dictionary.ids(), count, 32);
            }
        }
        long runLengthBytes = runLengthBytes(values, hasNulls ? nulls : null, count, bitsPerValue);
        EncodedPage plain;
        if (runLengthBytes < Math.min(dictionaryBytes, Math.min(flatBytes, packedBytes))) {
            plain = runLengths(values, nulls, hasNulls, count, bitsPerValue, null, null, 0);
        }
        else if (dictionaryBytes < Math.min(flatBytes, packedBytes)) {
            plain = dictionary(dictionary, nulls, hasNulls, count);
        }
        else if (packedBytes < flatBytes) {
            plain = bitpacked(values, nulls, hasNulls, count, bitsPerValue, inlineBitpacking(bitsPerValue), null, null, 0);
        }
        else {
            plain = flatPage(values, nulls, hasNulls, count);
        }
        if (compressor == null) {
            return plain;
        }
        EncodedPage general = general(values, nulls, hasNulls, count, bitsPerValue, plain.bytes(), null, null, 0);
        return general != null && saves(general, plain, count) ? general : plain;
    }

    static boolean saves(EncodedPage general, EncodedPage plain)
    {
        return saves(general, plain.bytes());
    }

    /**
     * Whether general compression saves enough over a page of {@code count} values, which demands more where the page's
     * values (or dictionary indices) are bit-packed to {@link EncodingOptions#NARROW_BITS_PER_VALUE} bits a value or fewer.
     */
    private static boolean saves(EncodedPage general, EncodedPage plain, int count)
    {
        boolean packed = plain.layout().getMiniBlockLayout().getValueCompression().hasInlineBitpacking();
        if (packed && plain.bytes() * 8 <= (long) EncodingOptions.NARROW_BITS_PER_VALUE * count) {
            return general.bytes() < (1 - EncodingOptions.MIN_NARROW_GENERAL_SAVING) * plain.bytes();
        }
        return saves(general, plain);
    }

    static boolean saves(EncodedPage general, long plainBytes)
    {
        return general.bytes() < (1 - EncodingOptions.MIN_GENERAL_SAVING) * plainBytes;
    }

    private EncodedPage flatPage(long[] values, boolean[] nulls, boolean hasNulls, int count)
    {
        int perChunk = bitsPerValue == 1 ? maxChunkValues : Math.min(maxChunkValues, FLAT_CHUNK_BYTES * 8 / bitsPerValue);
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, count, hasNulls ? nulls : null);
        for (int start = 0; start < count; start += perChunk) {
            int length = Math.min(perChunk, count - start);
            chunks.addChunk(length, flatValues(values, start, length));
        }
        return chunks.page(flat(bitsPerValue), null, null, 0);
    }

    /**
     * Larger Flat chunks under general compression, or null when compressing a sample of four chunks shows they would
     * not save enough against {@code plainBytes}: pages of random keys, dates and most dictionary indices never pay,
     * and compressing them whole cost the writer a third of its time. Byte-stream split goes first where it made the
     * sample smaller: it groups the high bytes of small integers and of floating point, but breaks the repeats zstd
     * finds in values such as prices in cents (TPC-H l_extendedprice: 35.9 MB split, 25.9 MB not).
     */
    private EncodedPage general(long[] values, boolean[] nulls, boolean hasNulls, int count, int valueBits, long plainBytes, Slice dictionary, CompressiveEncoding dictionaryEncoding, int dictionaryItems)
    {
        int chunkBytes = largeChunks ? GENERAL_CHUNK_BYTES : GENERAL_CHUNK_BYTES_V21;
        int perChunk = Math.min(maxChunkValues, chunkBytes * 8 / valueBits);
        int width = valueBits / 8;
        int chunkCount = (count + perChunk - 1) / perChunk;
        int sampleChunks = Math.min(chunkCount, SAMPLE_CHUNKS);
        long sampleValues = 0;
        long plainSample = 0;
        long splitSample = 0;
        for (int sample = 0; sample < sampleChunks; sample++) {
            int start = (int) ((long) chunkCount * sample / sampleChunks) * perChunk;
            int length = Math.min(perChunk, count - start);
            Slice raw = flatValues(values, start, length, valueBits);
            sampleValues += length;
            plainSample += compressor.compress(raw).length();
            splitSample += valueBits >= 32 ? compressor.compress(splitBytes(raw, width)).length() : Long.MAX_VALUE / SAMPLE_CHUNKS;
        }
        // byte planes go first where they made the sample smaller
        boolean split = splitSample < plainSample;
        double estimate = (double) Math.min(plainSample, splitSample) * count / sampleValues;
        if (estimate >= (1 - EncodingOptions.MIN_GENERAL_SAVING / 2) * plainBytes) {
            return null;
        }
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, count, hasNulls ? nulls : null);
        for (int start = 0; start < count; start += perChunk) {
            int length = Math.min(perChunk, count - start);
            Slice raw = flatValues(values, start, length, valueBits);
            if (split) {
                raw = splitBytes(raw, width);
            }
            chunks.addChunk(length, compressor.compress(raw));
        }
        CompressiveEncoding inner = split ? byteStreamSplit(valueBits) : flat(valueBits);
        return chunks.page(compressor.wrap(inner), dictionary, dictionaryEncoding, dictionaryItems);
    }

    private EncodedPage dictionary(LongDictionary dictionary, boolean[] nulls, boolean hasNulls, int count)
    {
        Slice items = flatValues(dictionary.items(), 0, dictionary.itemCount());
        return dictionaryIndices(dictionary.ids(), nulls, hasNulls, count, items, flat(bitsPerValue), dictionary.itemCount());
    }

    /**
     * A dictionary page with the dictionary as given and u32 indices: bit-packed as Lance's writer packs them, or with
     * the general compressor (if any) in larger chunks where that saves enough, as for values.
     */
    EncodedPage dictionaryIndices(long[] ids, boolean[] nulls, boolean hasNulls, int count, Slice dictionary, CompressiveEncoding dictionaryEncoding, int dictionaryItems)
    {
        EncodedPage packed = runLengthBytes(ids, hasNulls ? nulls : null, count, 32) < bitpackedBytes(ids, count, 32)
                ? runLengths(ids, nulls, hasNulls, count, 32, dictionary, dictionaryEncoding, dictionaryItems)
                : bitpacked(ids, nulls, hasNulls, count, 32, inlineBitpacking(32), dictionary, dictionaryEncoding, dictionaryItems);
        if (compressor == null) {
            return packed;
        }
        EncodedPage general = general(ids, nulls, hasNulls, count, 32, packed.bytes(), dictionary, dictionaryEncoding, dictionaryItems);
        return general != null && saves(general, packed, count) ? general : packed;
    }

    /**
     * Chunks of one block of 1,024 values each: the block's bit width in a word of its own, then the packed words. Lance
     * 7.0 reads no more than one block from a chunk (it asserts {@code num_values <= ELEMS_PER_CHUNK}), so bit-packed
     * chunks stay too small for general compression to pay.
     */
    private EncodedPage bitpacked(long[] values, boolean[] nulls, boolean hasNulls, int count, int wordBits, CompressiveEncoding encoding, Slice dictionary, CompressiveEncoding dictionaryEncoding, int dictionaryItems)
    {
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, count, hasNulls ? nulls : null);
        for (int start = 0; start < count; start += BLOCK_VALUES) {
            int length = Math.min(BLOCK_VALUES, count - start);
            long[] block = values;
            int offset = start;
            if (length < BLOCK_VALUES) {
                System.arraycopy(values, start, lastBlock, 0, length);
                Arrays.fill(lastBlock, length, BLOCK_VALUES, 0);
                block = lastBlock;
                offset = 0;
            }
            Slice buffer = FastLanesPacker.packInline(block, offset, wordBits, words);
            chunks.addChunk(length, buffer);
        }
        return chunks.page(encoding, dictionary, dictionaryEncoding, dictionaryItems);
    }

    /**
     * Run-length chunks, as Lance writes them where runs pay (sorted or repetitive values): per chunk the value of each
     * run (plain) in one buffer and its length (1 to 255) in a byte in another. A NULL continues the run it is in:
     * readers take NULLs from the def levels, whatever value their slot holds.
     */
    private EncodedPage runLengths(long[] values, boolean[] nulls, boolean hasNulls, int count, int valueBits, Slice dictionary, CompressiveEncoding dictionaryEncoding, int dictionaryItems)
    {
        int perChunk = Math.min(maxChunkValues, RUN_LENGTH_CHUNK_VALUES);
        MiniBlockChunkWriter chunks = new MiniBlockChunkWriter(largeChunks, count, hasNulls ? nulls : null);
        long[] runValues = new long[perChunk];
        byte[] runLengths = new byte[perChunk];
        boolean[] runNulls = hasNulls ? nulls : null;
        for (int start = 0; start < count; start += perChunk) {
            int end = Math.min(start + perChunk, count);
            int runs = 0;
            for (int position = start; position < end; runs++) {
                int run = runLength(values, runNulls, position, end);
                runValues[runs] = runValue(values, runNulls, position, end);
                runLengths[runs] = (byte) run;
                position += run;
            }
            chunks.addChunk(end - start, List.of(flatValues(runValues, 0, runs, valueBits), Slices.wrappedBuffer(runLengths, 0, runs).copy()));
        }
        return chunks.page(PageLayouts.runLengths(valueBits), dictionary, dictionaryEncoding, dictionaryItems);
    }

    /**
     * The bytes of {@link #runLengths}' chunks, or Long.MAX_VALUE for values narrower than a byte (booleans).
     *
     * @param nulls which values are NULL, or null for none
     */
    private long runLengthBytes(long[] values, boolean[] nulls, int count, int valueBits)
    {
        if (valueBits < 8) {
            return Long.MAX_VALUE;
        }
        int perChunk = Math.min(maxChunkValues, RUN_LENGTH_CHUNK_VALUES);
        long runs = 0;
        for (int start = 0; start < count; start += perChunk) {
            int end = Math.min(start + perChunk, count);
            for (int position = start; position < end; position += runLength(values, nulls, position, end)) {
                runs++;
            }
        }
        long chunks = (count + perChunk - 1) / perChunk;
        // each chunk's two buffers are 8-byte aligned and have a size in its header
        return runs * (valueBits / 8 + 1) + chunks * 16;
    }

    /**
     * The length of the run starting at {@code position}, before {@code end}: the values equal to its value, NULLs
     * (which continue it), at most {@link #MAX_RUN}.
     */
    private static int runLength(long[] values, boolean[] nulls, int position, int end)
    {
        long value = runValue(values, nulls, position, end);
        int run = 1;
        while (run < MAX_RUN && position + run < end && (values[position + run] == value || (nulls != null && nulls[position + run]))) {
            run++;
        }
        return run;
    }

    /** The value of a run starting at {@code position}: its first value that is not NULL, before {@code end}. */
    private static long runValue(long[] values, boolean[] nulls, int position, int end)
    {
        int first = position;
        while (nulls != null && first < end - 1 && nulls[first]) {
            first++;
        }
        return values[first];
    }

    private static long bitpackedBytes(long[] values, int count, int wordBits)
    {
        long bytes = 0;
        for (int start = 0; start < count; start += BLOCK_VALUES) {
            int width = FastLanesPacker.bitWidth(values, start, Math.min(BLOCK_VALUES, count - start), wordBits);
            bytes += wordBits / 8 + FastLanesPacker.packedBytes(wordBits, width);
        }
        return bytes;
    }

    private Slice flatValues(long[] values, int start, int length)
    {
        return flatValues(values, start, length, bitsPerValue);
    }

    private static Slice flatValues(long[] values, int start, int length, int bitsPerValue)
    {
        if (bitsPerValue == 1) {
            byte[] bits = new byte[(length + 7) / 8];
            for (int i = 0; i < length; i++) {
                if (values[start + i] != 0) {
                    bits[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
            return Slices.wrappedBuffer(bits);
        }
        int bytes = bitsPerValue / 8;
        Slice slice = Slices.allocate(length * bytes);
        switch (bytes) {
            case 1 -> {
                for (int i = 0; i < length; i++) {
                    slice.setByte(i, (int) values[start + i]);
                }
            }
            case 2 -> {
                for (int i = 0; i < length; i++) {
                    slice.setShort(i * 2, (int) values[start + i]);
                }
            }
            case 4 -> {
                for (int i = 0; i < length; i++) {
                    slice.setInt(i * 4, (int) values[start + i]);
                }
            }
            default -> slice.setLongs(0, values, start, length);
        }
        return slice;
    }

    /** Byte {@code b} of value {@code i} goes to {@code b * n + i}. */
    private static Slice splitBytes(Slice values, int width)
    {
        int count = values.length() / width;
        byte[] input = values.byteArray();
        int base = values.byteArrayOffset();
        byte[] split = new byte[values.length()];
        for (int i = 0; i < count; i++) {
            for (int b = 0; b < width; b++) {
                split[b * count + i] = input[base + i * width + b];
            }
        }
        return Slices.wrappedBuffer(split);
    }
}
