package io.lancetrino.file.writer;

import io.airlift.compress.v3.zstd.ZstdDecompressor;
import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.codec.BufferDecompressor;
import io.lancetrino.file.codec.ValueDecoders;
import io.lancetrino.file.codec.VariableOutput;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.codec.ZstdStringChunks;
import io.lancetrino.file.proto.encodings.BufferCompression;
import io.lancetrino.file.proto.encodings.CompressionScheme;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Chunks of strings under zstd: offsets and bytes as two frames, which any zstd reader decodes as one buffer. Lance's
 * SDK reads such files value by value in {@code TestLanceFileWriter}.
 */
class TestGeneralCompressor
{
    private static final String[] WORDS = {"carefully", "final", "deposits", "sleep", "quickly", "among", "the", "furiously", "regular", "ideas", "pending", "accounts"};

    private static final int VALUES = 2_000;
    private static final int OFFSETS_LENGTH = 4 * (VALUES + 1);

    @Test
    void offsetsAndBytesOfAStringChunkAreFramesOfTheirOwn()
    {
        Slice raw = stringChunk(new Random(7));
        int offsetsLength = OFFSETS_LENGTH;

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

    @Test
    void theReaderDecompressesTheBytesFrameStraightIntoTheBlock()
    {
        Random random = new Random(11);
        GeneralCompressor compressor = GeneralCompressor.forStrings(EncodingOptions.DEFAULT);
        CompressiveEncoding encoding = compressor.wrap(VariableWidthColumnWriter.encoding(Integer.BYTES));
        VariableOutput output = new VariableOutput(3 * VALUES);
        int[] offsets = new int[3 * VALUES + 1];
        List<Slice> chunks = List.of(stringChunk(random), stringChunk(random), stringChunk(random));
        for (int i = 0; i < chunks.size(); i++) {
            assertThat(ZstdStringChunks.appendWhole(encoding, compressor.compressVariable(chunks.get(i), OFFSETS_LENGTH), VALUES, output, offsets, i * VALUES)).isTrue();
        }
        VariableValues expected = ValueDecoders.decodeVariable(VariableWidthColumnWriter.encoding(Integer.BYTES), chunks.get(1), VALUES);
        for (int i = 0; i < VALUES; i++) {
            int position = VALUES + i;
            assertThat(output.slice().slice(offsets[position], offsets[position + 1] - offsets[position]))
                    .isEqualTo(expected.data().slice(expected.offsets()[i], expected.offsets()[i + 1] - expected.offsets()[i]));
        }

        // one frame, as Lance's writer makes it: left to the general path, with nothing appended
        int size = output.size();
        assertThat(ZstdStringChunks.appendWhole(encoding, compressor.compress(chunks.get(0)), VALUES, output, offsets, 0)).isFalse();
        assertThat(output.size()).isEqualTo(size);

        // offsets that run backwards are an error, not a block of garbage
        Slice damaged = Slices.wrappedBuffer(chunks.get(0).getBytes());
        damaged.setInt(4 * 10, damaged.getInt(4 * 9) - 1);
        assertThatThrownBy(() -> ZstdStringChunks.appendWhole(encoding, compressor.compressVariable(damaged, OFFSETS_LENGTH), VALUES, new VariableOutput(VALUES), new int[VALUES + 1], 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("string offset");
    }

    /** A chunk of TPC-H-like comments as the writer lays it out: u32 offsets from the chunk's start, then the bytes. */
    private static Slice stringChunk(Random random)
    {
        DynamicSliceOutput text = new DynamicSliceOutput(64 << 10);
        int[] ends = new int[VALUES];
        for (int i = 0; i < VALUES; i++) {
            int words = 2 + random.nextInt(5);
            for (int w = 0; w < words; w++) {
                text.writeBytes((WORDS[random.nextInt(WORDS.length)] + (w + 1 < words ? " " : "")).getBytes(US_ASCII));
            }
            ends[i] = text.size();
        }
        DynamicSliceOutput chunk = new DynamicSliceOutput(OFFSETS_LENGTH + text.size() + 4);
        chunk.writeInt(OFFSETS_LENGTH);
        for (int end : ends) {
            chunk.writeInt(OFFSETS_LENGTH + end);
        }
        chunk.writeBytes(text.slice());
        // padded to whole offsets, as the writer pads
        while (chunk.size() % 4 != 0) {
            chunk.writeByte(0);
        }
        return chunk.slice();
    }
}
