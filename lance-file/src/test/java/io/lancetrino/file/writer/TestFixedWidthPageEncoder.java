package io.lancetrino.file.writer;

import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static io.lancetrino.file.proto.encodings.CompressiveEncoding.CompressionCase.GENERAL;
import static io.lancetrino.file.proto.encodings.CompressiveEncoding.CompressionCase.INLINE_BITPACKING;
import static io.lancetrino.file.proto.encodings.CompressiveEncoding.CompressionCase.RLE;
import static org.assertj.core.api.Assertions.assertThat;

final class TestFixedWidthPageEncoder
{
    private static final int COUNT = 64 * 1024;

    @Test
    void narrowValuesStayBitPackedUnlessZstdHalvesThem()
    {
        // values 1 to 7 (three bits) in runs of up to 6: zstd saves about a quarter of the bit-packed bytes, enough for
        // wide values, not for values that decompress into ten times their packed size
        long[] shortRuns = runs(6);
        EncodedPage page = encode(shortRuns);
        assertThat(valueEncoding(page).getCompressionCase()).isEqualTo(INLINE_BITPACKING);
        assertThat(page.bytes()).isEqualTo(uncompressed(shortRuns).bytes());

        // in runs of up to 32 zstd saves more than half, and is kept
        long[] longRuns = runs(32);
        EncodedPage compressed = encode(longRuns);
        assertThat(valueEncoding(compressed).getCompressionCase()).isEqualTo(GENERAL);
        assertThat(compressed.bytes()).isLessThan(uncompressed(longRuns).bytes() / 2);
    }

    @Test
    void wideValuesTakeZstdAtTheUsualSaving()
    {
        // 23-bit keys, each repeated as order keys are: zstd over the byte planes saves most of the bit-packed bytes
        long[] keys = new long[COUNT];
        for (int i = 0; i < COUNT; i++) {
            keys[i] = 5_000_000 + i / 4 * 3;
        }
        assertThat(valueEncoding(encode(keys)).getCompressionCase()).isEqualTo(GENERAL);
    }

    @Test
    void sortedValuesTakeRunLengthsAndNullsDoNotBreakTheirRuns()
    {
        // sorted 32-bit keys in runs of 300 (over a run's 255 limit): run-length chunks of 2,048 values
        long[] sorted = new long[COUNT];
        boolean[] nulls = new boolean[COUNT];
        for (int i = 0; i < COUNT; i++) {
            sorted[i] = 1_000_000 + i / 300;
            nulls[i] = i % 7 == 3;
        }
        EncodedPage page = new FixedWidthPageEncoder(32, true, null).encode(sorted, new boolean[COUNT], false, COUNT);
        assertThat(valueEncoding(page).getCompressionCase()).isEqualTo(RLE);
        int runs = runCount(page);
        // a run per key and chunk, and one more where a key's 300 values pass 255
        assertThat(runs).isBetween(COUNT / 300, 2 * (COUNT / 300 + COUNT / 2048 + 1));

        // NULLs (every seventh value, its slot 0) continue the run they fall in: no more runs than without them
        long[] withNulls = sorted.clone();
        for (int i = 0; i < COUNT; i++) {
            withNulls[i] = nulls[i] ? 0 : withNulls[i];
        }
        EncodedPage nullPage = new FixedWidthPageEncoder(32, true, null).encode(withNulls, nulls, true, COUNT);
        assertThat(valueEncoding(nullPage).getCompressionCase()).isEqualTo(RLE);
        assertThat(runCount(nullPage)).isLessThanOrEqualTo(runs);
    }

    /** The runs of a run-length page, checking that each chunk's run lengths add up to its values. */
    private static int runCount(EncodedPage page)
    {
        int runs = 0;
        for (MiniBlockChunkWriter.FlatChunk chunk : MiniBlockChunkWriter.flatChunks(page)) {
            Slice lengths = chunk.valueBuffers().get(1);
            int values = 0;
            for (int run = 0; run < lengths.length(); run++) {
                values += lengths.getUnsignedByte(run);
            }
            assertThat(values).isEqualTo(chunk.values());
            assertThat(chunk.valueBuffers().get(0).length()).isEqualTo(4 * lengths.length());
            runs += lengths.length();
        }
        return runs;
    }

    private static long[] runs(int maxRun)
    {
        Random random = new Random(9);
        long[] values = new long[COUNT];
        for (int i = 0; i < COUNT; ) {
            int run = 1 + random.nextInt(maxRun);
            long value = 1 + random.nextInt(7);
            for (int k = 0; k < run && i < COUNT; k++) {
                values[i++] = value;
            }
        }
        return values;
    }

    private static EncodedPage encode(long[] values)
    {
        return new FixedWidthPageEncoder(32, true, GeneralCompressor.of(EncodingOptions.DEFAULT)).encode(values, new boolean[values.length], false, values.length);
    }

    private static EncodedPage uncompressed(long[] values)
    {
        return new FixedWidthPageEncoder(32, true, null).encode(values, new boolean[values.length], false, values.length);
    }

    private static CompressiveEncoding valueEncoding(EncodedPage page)
    {
        return page.layout().getMiniBlockLayout().getValueCompression();
    }
}
