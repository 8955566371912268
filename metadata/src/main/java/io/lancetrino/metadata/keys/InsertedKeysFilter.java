package io.lancetrino.metadata.keys;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.Transaction;

import java.util.Arrays;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The keys a change inserted, as lance-core records them in {@code Update.inserted_rows}: a split-block Bloom filter
 * (Parquet's layout: 32-byte blocks of eight little-endian 32-bit words) of the keys' XXH64 hashes, sized as lance-core
 * sizes every one (8,192 items at a false-positive rate of 0.00057: 32 KiB), so that filters of two writers, of any
 * engine, can be intersected. Two changes whose filters share a set bit may have inserted the same key.
 */
public final class InsertedKeysFilter
{
    public static final long NUMBER_OF_ITEMS = 8192;
    public static final double PROBABILITY = 0.00057;
    public static final int BYTES = 32 * 1024;
    private static final int[] SALT = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};

    private final int[] words;

    private InsertedKeysFilter(int[] words)
    {
        this.words = words;
    }

    public static InsertedKeysFilter empty()
    {
        return new InsertedKeysFilter(new int[BYTES / 4]);
    }

    public static InsertedKeysFilter fromBytes(byte[] bitmap)
    {
        checkArgument(bitmap.length % 32 == 0 && bitmap.length > 0, "a split-block Bloom filter is whole 32-byte blocks, not %s bytes", bitmap.length);
        int[] words = new int[bitmap.length / 4];
        for (int i = 0; i < words.length; i++) {
            words[i] = (bitmap[4 * i] & 0xFF) | (bitmap[4 * i + 1] & 0xFF) << 8 | (bitmap[4 * i + 2] & 0xFF) << 16 | (bitmap[4 * i + 3] & 0xFF) << 24;
        }
        return new InsertedKeysFilter(words);
    }

    /** The hash a key's bytes ({@link KeyBytes}) are filed by. */
    public static long hash(byte[] key)
    {
        return XxHash64.hash(0, key);
    }

    public void add(byte[] key)
    {
        addHash(hash(key));
    }

    public void addHash(long hash)
    {
        int block = block(hash);
        for (int i = 0; i < 8; i++) {
            words[block * 8 + i] |= mask(hash, i);
        }
    }

    public boolean mightContain(byte[] key)
    {
        return mightContainHash(hash(key));
    }

    public boolean mightContainHash(long hash)
    {
        int block = block(hash);
        for (int i = 0; i < 8; i++) {
            int mask = mask(hash, i);
            if ((words[block * 8 + i] & mask) != mask) {
                return false;
            }
        }
        return true;
    }

    /** lance-core's test of two filters: any bit set in both. */
    public boolean intersects(InsertedKeysFilter other)
    {
        if (other.words.length != words.length) {
            // filters of different sizes cannot be compared: lance-core takes that as a conflict
            return true;
        }
        for (int i = 0; i < words.length; i++) {
            if ((words[i] & other.words[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    public void or(InsertedKeysFilter other)
    {
        checkArgument(other.words.length == words.length, "filters of different sizes");
        for (int i = 0; i < words.length; i++) {
            words[i] |= other.words[i];
        }
    }

    public boolean isEmpty()
    {
        return Arrays.stream(words).allMatch(word -> word == 0);
    }

    public byte[] toBytes()
    {
        byte[] bytes = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            bytes[4 * i] = (byte) words[i];
            bytes[4 * i + 1] = (byte) (words[i] >>> 8);
            bytes[4 * i + 2] = (byte) (words[i] >>> 16);
            bytes[4 * i + 3] = (byte) (words[i] >>> 24);
        }
        return bytes;
    }

    public Transaction.KeyExistenceFilter toProto(List<Integer> keyFieldIds)
    {
        return Transaction.KeyExistenceFilter.newBuilder()
                .addAllFieldIds(keyFieldIds)
                .setBloom(Transaction.BloomFilter.newBuilder()
                        .setBitmap(ByteString.copyFrom(toBytes()))
                        .setNumBits(words.length * 32)
                        .setNumberOfItems(NUMBER_OF_ITEMS)
                        .setProbability(PROBABILITY))
                .build();
    }

    private int block(long hash)
    {
        int blocks = words.length / 8;
        return (int) (((hash >>> 32) * blocks) >>> 32);
    }

    private static int mask(long hash, int word)
    {
        return 1 << ((((int) hash) * SALT[word]) >>> 27);
    }
}
