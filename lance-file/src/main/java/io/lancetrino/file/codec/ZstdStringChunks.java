package io.lancetrino.file.codec;

import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.CompressionScheme;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;

/**
 * Whole chunks of strings that are two zstd frames, offsets then bytes (as the Java writer compresses them): the offsets
 * are decompressed apart and the bytes straight into the block's buffer, so the chunk is neither assembled in a buffer
 * of its own nor copied out of one.
 */
public final class ZstdStringChunks
{
    private static final ThreadLocal<byte[]> OFFSETS = ThreadLocal.withInitial(() -> new byte[4 * 4097]);

    private ZstdStringChunks() {}

    /**
     * Appends all {@code count} values of the chunk {@code data} to {@code output}, setting {@code offsets[out + k + 1]}
     * for the k-th. False, with nothing appended, for any other layout (e.g. the one frame Lance's writer makes), which
     * the general path decodes.
     */
    public static boolean appendWhole(CompressiveEncoding encoding, Slice data, int count, VariableOutput output, int[] offsets, int out)
    {
        if (!isZstdOverU32Offsets(encoding) || data.length() < 8) {
            return false;
        }
        long total = data.getLong(0);
        byte[] input = data.byteArray();
        int framesStart = data.byteArrayOffset() + 8;
        int framesLength = data.length() - 8;
        int offsetsBytes = 4 * (count + 1);
        long[] offsetsSize = new long[1];
        long offsetsFrame = ZstdFrames.firstFrameLength(input, framesStart, framesLength, offsetsSize);
        if (offsetsFrame <= 0 || offsetsFrame >= framesLength || offsetsSize[0] != offsetsBytes) {
            return false;
        }
        int bytesFrameStart = framesStart + (int) offsetsFrame;
        int bytesFrameLength = framesLength - (int) offsetsFrame;
        long bytesSize = ZstdFrames.contentSize(input, bytesFrameStart, bytesFrameLength);
        if (bytesSize < 0 || offsetsBytes + bytesSize != total) {
            return false;
        }
        byte[] offsetBuffer = OFFSETS.get();
        if (offsetBuffer.length < offsetsBytes) {
            offsetBuffer = new byte[offsetsBytes];
            OFFSETS.set(offsetBuffer);
        }
        if (BufferDecompressor.decompressZstd(input, framesStart, (int) offsetsFrame, offsetBuffer, 0, offsetsBytes) != offsetsBytes) {
            throw new IllegalStateException("zstd frame of offsets did not give its %s bytes".formatted(offsetsBytes));
        }
        // offsets count from the chunk's start, where the bytes begin right after the offsets
        int previous = ZstdFrames.intAt(offsetBuffer, 0);
        if (previous != offsetsBytes) {
            throw new IllegalStateException("first string offset %s, expected %s after %s offsets".formatted(previous, offsetsBytes, count + 1));
        }
        int size = output.size();
        byte[] target = output.reserve((int) bytesSize, count);
        if (BufferDecompressor.decompressZstd(input, bytesFrameStart, bytesFrameLength, target, size, (int) bytesSize) != bytesSize) {
            throw new IllegalStateException("zstd frame of strings did not give its %s bytes".formatted(bytesSize));
        }
        int shift = size - offsetsBytes;
        for (int i = 1; i <= count; i++) {
            int offset = ZstdFrames.intAt(offsetBuffer, 4 * i);
            if (offset < previous || offset - offsetsBytes > bytesSize) {
                throw new IllegalStateException("string offset %s after %s in a chunk of %s bytes".formatted(offset, previous, offsetsBytes + bytesSize));
            }
            offsets[out + i] = offset + shift;
            previous = offset;
        }
        // bytes after the last value pad the chunk to whole offsets
        output.setSize(previous + shift);
        return true;
    }

    private static boolean isZstdOverU32Offsets(CompressiveEncoding encoding)
    {
        if (!encoding.hasGeneral() || encoding.getGeneral().getCompression().getScheme() != CompressionScheme.COMPRESSION_ALGORITHM_ZSTD) {
            return false;
        }
        CompressiveEncoding values = encoding.getGeneral().getValues();
        if (!values.hasVariable() || values.getVariable().hasValues()) {
            return false;
        }
        CompressiveEncoding offsets = values.getVariable().getOffsets();
        return offsets.hasFlat() && !offsets.getFlat().hasData() && offsets.getFlat().getBitsPerValue() == 32;
    }
}
