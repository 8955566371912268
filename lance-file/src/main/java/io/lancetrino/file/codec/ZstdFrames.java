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

    private ZstdFrames() {}

    /**
     * The sum of the content sizes the frames in {@code input[offset, offset + length)} declare; {@link #UNKNOWN} when a
     * frame declares none, {@link #DAMAGED} when the data does not parse as whole frames.
     */
    static long contentSize(byte[] input, int offset, int length)
    {
        int position = offset;
        int end = offset + length;
        long total = 0;
        boolean known = true;
        if (length == 0) {
            return DAMAGED;
        }
        while (position < end) {
            if (end - position < 4) {
                return DAMAGED;
            }
            int magic = intAt(input, position);
            position += 4;
            if ((magic & SKIPPABLE_MAGIC_MASK) == SKIPPABLE_MAGIC) {
                if (end - position < 4) {
                    return DAMAGED;
                }
                long skip = intAt(input, position) & 0xFFFFFFFFL;
                position += 4;
                if (skip > end - position) {
                    return DAMAGED;
                }
                position += (int) skip;
                continue;
            }
            if (magic != FRAME_MAGIC || position >= end) {
                return DAMAGED;
            }
            int descriptor = input[position++] & 0xFF;
            int sizeFlag = descriptor >>> 6;
            boolean singleSegment = (descriptor & 0x20) != 0;
            boolean checksum = (descriptor & 0x04) != 0;
            int dictionaryIdBytes = new int[] {0, 1, 2, 4}[descriptor & 0x03];
            int sizeBytes = switch (sizeFlag) {
                case 0 -> singleSegment ? 1 : 0;
                case 1 -> 2;
                case 2 -> 4;
                default -> 8;
            };
            int headerRest = (singleSegment ? 0 : 1) + dictionaryIdBytes + sizeBytes;
            if (end - position < headerRest) {
                return DAMAGED;
            }
            position += (singleSegment ? 0 : 1) + dictionaryIdBytes;
            long size = 0;
            for (int i = 0; i < sizeBytes; i++) {
                size |= (input[position + i] & 0xFFL) << (8 * i);
            }
            position += sizeBytes;
            if (sizeBytes == 2) {
                size += 256;
            }
            if (sizeBytes == 0) {
                known = false;
            }
            else if (size < 0) {
                return DAMAGED;
            }
            total += size;
            boolean last;
            do {
                if (end - position < 3) {
                    return DAMAGED;
                }
                int header = (input[position] & 0xFF) | (input[position + 1] & 0xFF) << 8 | (input[position + 2] & 0xFF) << 16;
                position += 3;
                last = (header & 1) != 0;
                int type = (header >>> 1) & 3;
                int blockSize = header >>> 3;
                int stored = switch (type) {
                    case 0, 2 -> blockSize;
                    case 1 -> 1;
                    default -> -1;
                };
                if (stored < 0 || stored > end - position) {
                    return DAMAGED;
                }
                position += stored;
            }
            while (!last);
            if (checksum) {
                if (end - position < 4) {
                    return DAMAGED;
                }
                position += 4;
            }
        }
        return known ? total : UNKNOWN;
    }

    private static int intAt(byte[] input, int position)
    {
        return (input[position] & 0xFF) | (input[position + 1] & 0xFF) << 8 | (input[position + 2] & 0xFF) << 16 | (input[position + 3] & 0xFF) << 24;
    }
}
