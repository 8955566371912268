package io.lancetrino.metadata.keys;

import com.google.common.collect.ImmutableList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The primary key values a statement inserted: their filter (what the transaction records), and for a precise check
 * against other writers' filters their hashes (all of them, unless more than {@link #MAX_HASHES}) and how the first
 * ones read (to name them in an error).
 *
 * @param names how the first keys read, {@code id=17}, aligned with the first hashes
 */
public record InsertedKeys(List<Integer> fieldIds, byte[] filter, long[] hashes, boolean allHashes, List<String> names)
{
    public static final int MAX_HASHES = 1_000_000;
    public static final int MAX_NAMES = 100;

    public InsertedKeys
    {
        fieldIds = ImmutableList.copyOf(fieldIds);
        requireNonNull(filter, "filter is null");
        requireNonNull(hashes, "hashes is null");
        names = ImmutableList.copyOf(names);
    }

    public InsertedKeysFilter bloom()
    {
        return InsertedKeysFilter.fromBytes(filter);
    }

    public static InsertedKeys union(List<InsertedKeys> parts)
    {
        InsertedKeysFilter filter = InsertedKeysFilter.empty();
        long[] hashes = new long[0];
        boolean all = true;
        List<String> names = new ArrayList<>();
        List<Long> namedHashes = new ArrayList<>();
        List<Long> otherHashes = new ArrayList<>();
        for (InsertedKeys part : parts) {
            filter.or(part.bloom());
            all &= part.allHashes();
            for (int i = 0; i < part.hashes().length; i++) {
                if (i < part.names().size() && names.size() < MAX_NAMES) {
                    names.add(part.names().get(i));
                    namedHashes.add(part.hashes()[i]);
                }
                else {
                    otherHashes.add(part.hashes()[i]);
                }
            }
        }
        List<Long> ordered = new ArrayList<>(namedHashes);
        ordered.addAll(otherHashes);
        if (ordered.size() > MAX_HASHES) {
            all = false;
            ordered = ordered.subList(0, MAX_HASHES);
        }
        hashes = ordered.stream().mapToLong(Long::longValue).toArray();
        return new InsertedKeys(parts.isEmpty() ? List.of() : parts.getFirst().fieldIds(), filter.toBytes(), hashes, all, names);
    }

    /** How the keys that {@code theirs} may also hold read, as far as they are named. */
    public List<String> namesIn(InsertedKeysFilter theirs)
    {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (theirs.mightContainHash(hashes[i])) {
                found.add(names.get(i));
            }
        }
        return found;
    }

    /** Whether {@code theirs} may hold one of these keys: each key tested when all are known, else any shared bit. */
    public boolean mayOverlap(InsertedKeysFilter theirs)
    {
        if (!allHashes) {
            return bloom().intersects(theirs);
        }
        return Arrays.stream(hashes).anyMatch(theirs::mightContainHash);
    }
}
