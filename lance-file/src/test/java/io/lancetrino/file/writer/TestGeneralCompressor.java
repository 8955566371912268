package io.lancetrino.file.writer;

import io.airlift.compress.v3.zstd.ZstdDecompressor;
import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.codec.BufferDecompressor;
import io.lancetrino.file.proto.encodings.BufferCompression;
import io.lancetrino.file.proto.encodings.CompressionScheme;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chunks of strings under zstd: offsets and bytes as two frames, which any zstd reader decodes as one buffer. Lance's
 * SDK reads such files value by value in {@code TestLanceFileWriter}.
 */
class TestGeneralCompressor
{
    private static final String[] WORDS = {"carefully", "final", "deposits", "sleep", "quickly", "among", "the", "furiously", "regular", "ideas", "pending", "accounts"};

    @Test
    void offsetsAndBytesOfAStringChunkAreFramesOfTheirOwn()
    {
        Random random = new Random(7);
        int values = 2_000;
        DynamicSliceOutput text = new DynamicSliceOutput(64 << 10);
        int[] ends = new int[values];
        for (int i = 0; i < values; i++) {
            int words = 2 + random.nextInt(5);
            for (int w = 0; w < words; w++) {
                text.writeBytes((WORDS[random.nextInt(WORDS.length)] + (w + 1 < words ? " " : "")).getBytes(US_ASCII));
            }
            ends[i] = text.size();
        }
        int offsetsLength = 4 * (values + 1);
        DynamicSliceOutput chunk = new DynamicSliceOutput(offsetsLength + text.size());
        chunk.writeInt(offsetsLength);
        for (int end : ends) {
            chunk.writeInt(offsetsLength + end);
        }
        chunk.writeBytes(text.slice());
        Slice raw = chunk.slice();

        GeneralCompressor compressor = GeneralCompressor.forStrings(EncodingOptions.DEFAULT);
        Slice split = compressor.compressVariable(raw, offsetsLength);
        Slice whole = compressor.compress(raw);
        // the first frame holds the offsets alone
        assertThat(ZstdDecompressor.create().getDecompressedSize(split.byteArray(), split.byteArrayOffset() + 8, split.length() - 8)).isEqualTo(offsetsLength);
        BufferCompression zstd = BufferCompression.newBuilder().setScheme(CompressionScheme.COMPRESSION_ALGORITHM_ZSTD).build();
        assertThat(BufferDecompressor.decompress(zstd, split)).isEqualTo(raw);
        assertThat(split.length()).isLessThan(whole.length() * 9 / 10);

        // LZ4 blocks do not chain: one block, as before
        GeneralCompressor lz4 = GeneralCompressor.forStrings(EncodingOptions.lz4());
        assertThat(lz4.compressVariable(raw, offsetsLength)).isEqualTo(lz4.compress(raw));
    }
}
