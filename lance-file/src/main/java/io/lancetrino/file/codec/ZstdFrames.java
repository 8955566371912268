package io.lancetrino.file.codec;

/**
 * Walks the frames of zstd data (RFC 8878: one or more frames, each of blocks) to learn the bytes they decompress to
 * without decompressing them, so a damaged length prefix is caught before an allocation of its size.
 */
final class ZstdFrames
{
    static final long UNKNOWN = -1;
    static final long DAMAGED = -2;

    private static final int FRAME_MAGIC = 0xFD2FB528;
    private static final int SKIPPABLE_MAGIC_MASK = 0xFFFFFFF0;
    private static final int SKIPPABLE_MAGIC = 0x184D2A50;
    private static final int[] DICTIONARY_ID_BYTES = {0, 1, 2, 4};

    private ZstdFrames() {}

    /**
     * The sum of the content sizes the frames in {@code input[offset, offset + length)} declare; {@link #UNKNOWN} when a
     * frame declares none, {@link #DAMAGED} when the data does not parse as whole frames.
     */
    static long contentSize(byte[] input, int offset, int length)
    {
        if (length == 0) {
            return DAMAGED;
        }
        int end = offset + length;
        long total = 0;
        boolean known = true;
        long[] size = new long[1];
        for (int position = offset; position < end; ) {
            position = skipFrame(input, position, end, size);
            if (position < 0) {
                return DAMAGED;
            }
            known &= size[0] != UNKNOWN;
            total += Math.max(size[0], 0);
        }
        return known ? total : UNKNOWN;
    }

    /**
     * The compressed bytes of the first frame in {@code input[offset, offset + length)}, or {@link #DAMAGED}; its
     * declared content size goes to {@code contentSize[0]} ({@link #UNKNOWN} if none).
     */
    static long firstFrameLength(byte[] input, int offset, int length, long[] contentSize)
    {
        int next = skipFrame(input, offset, offset + length, contentSize);
        return next < 0 ? DAMAGED : next - offset;
    }

    /**
     * The position after the frame at {@code position}, or -1 when it does not parse within {@code end}; its declared
     * content size goes to {@code contentSize[0]} ({@link #UNKNOWN} if none, 0 for a skippable frame).
     */
    private static int skipFrame(byte[] input, int position, int end, long[] contentSize)
    {
        if (end - position < 4) {
            return -1;
        }
        int magic = intAt(input, position);
        position += 4;
        if ((magic & SKIPPABLE_MAGIC_MASK) == SKIPPABLE_MAGIC) {
            if (end - position < 4) {
                return -1;
            }
            long skip = intAt(input, position) & 0xFFFFFFFFL;
            position += 4;
            contentSize[0] = 0;
            return skip > end - position ? -1 : position + (int) skip;
        }
        if (magic != FRAME_MAGIC || position >= end) {
            return -1;
        }
        int descriptor = input[position++] & 0xFF;
        boolean singleSegment = (descriptor & 0x20) != 0;
        boolean checksum = (descriptor & 0x04) != 0;
        int sizeBytes = switch (descriptor >>> 6) {
            case 0 -> singleSegment ? 1 : 0;
            case 1 -> 2;
            case 2 -> 4;
            default -> 8;
        };
        int skipped = (singleSegment ? 0 : 1) + DICTIONARY_ID_BYTES[descriptor & 0x03];
        if (end - position < skipped + sizeBytes) {
            return -1;
        }
        position += skipped;
        long size = 0;
        for (int i = 0; i < sizeBytes; i++) {
            size |= (input[position + i] & 0xFFL) << (8 * i);
        }
        position += sizeBytes;
        if (sizeBytes == 2) {
            size += 256;
        }
        if (sizeBytes != 0 && size < 0) {
            return -1;
        }
        contentSize[0] = sizeBytes == 0 ? UNKNOWN : size;
        boolean last;
        do {
            if (end - position < 3) {
                return -1;
            }
            int header = (input[position] & 0xFF) | (input[position + 1] & 0xFF) << 8 | (input[position + 2] & 0xFF) << 16;
            position += 3;
            last = (header & 1) != 0;
            int stored = switch ((header >>> 1) & 3) {
                // raw and compressed blocks store their size; an RLE block one byte
                case 0, 2 -> header >>> 3;
                case 1 -> 1;
                default -> -1;
            };
            if (stored < 0 || stored > end - position) {
                return -1;
            }
            position += stored;
        }
        while (!last);
        if (checksum) {
            if (end - position < 4) {
                return -1;
            }
            position += 4;
        }
        return position;
    }

    /** The little-endian int at {@code position}. */
    static int intAt(byte[] input, int position)
    {
        return (input[position] & 0xFF) | (input[position + 1] & 0xFF) << 8 | (input[position + 2] & 0xFF) << 16 | (input[position + 3] & 0xFF) << 24;
    }
}
