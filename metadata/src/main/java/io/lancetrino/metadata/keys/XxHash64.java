package io.lancetrino.metadata.keys;

/**
 * XXH64 of a byte range (the hash lance-core puts key bytes through for its inserted-keys filter).
 */
final class XxHash64
{
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private XxHash64() {}

    static long hash(long seed, byte[] bytes)
    {
        int length = bytes.length;
        int position = 0;
        long hash;
        if (length >= 32) {
            long v1 = seed + P1 + P2;
            long v2 = seed + P2;
            long v3 = seed;
            long v4 = seed - P1;
            do {
                v1 = round(v1, longAt(bytes, position));
                v2 = round(v2, longAt(bytes, position + 8));
                v3 = round(v3, longAt(bytes, position + 16));
                v4 = round(v4, longAt(bytes, position + 24));
                position += 32;
            }
            while (position <= length - 32);
            hash = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            hash = mergeRound(hash, v1);
            hash = mergeRound(hash, v2);
            hash = mergeRound(hash, v3);
            hash = mergeRound(hash, v4);
        }
        else {
            hash = seed + P5;
        }
        hash += length;
        while (position <= length - 8) {
            hash ^= round(0, longAt(bytes, position));
            hash = Long.rotateLeft(hash, 27) * P1 + P4;
            position += 8;
        }
        if (position <= length - 4) {
            hash ^= (Integer.toUnsignedLong(intAt(bytes, position))) * P1;
            hash = Long.rotateLeft(hash, 23) * P2 + P3;
            position += 4;
        }
        while (position < length) {
            hash ^= (bytes[position] & 0xFFL) * P5;
            hash = Long.rotateLeft(hash, 11) * P1;
            position++;
        }
        hash ^= hash >>> 33;
        hash *= P2;
        hash ^= hash >>> 29;
        hash *= P3;
        hash ^= hash >>> 32;
        return hash;
    }

    private static long round(long accumulator, long input)
    {
        return Long.rotateLeft(accumulator + input * P2, 31) * P1;
    }

    private static long mergeRound(long accumulator, long value)
    {
        return (accumulator ^ round(0, value)) * P1 + P4;
    }

    private static long longAt(byte[] bytes, int position)
    {
        return (intAt(bytes, position) & 0xFFFFFFFFL) | ((long) intAt(bytes, position + 4) << 32);
    }

    private static int intAt(byte[] bytes, int position)
    {
        return (bytes[position] & 0xFF) | (bytes[position + 1] & 0xFF) << 8 | (bytes[position + 2] & 0xFF) << 16 | (bytes[position + 3] & 0xFF) << 24;
    }
}
