package io.lancetrino.metadata.keys;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.proto.Transaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;

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

    /**
     * The keys of all writers of a statement, the named ones first so that names stay aligned with hashes; empty when
     * they inserted none.
     */
    public static Optional<InsertedKeys> union(List<InsertedKeys> parts)
    {
        InsertedKeysFilter filter = InsertedKeysFilter.empty();
        boolean all = true;
        List<String> names = new ArrayList<>();
        LongStream.Builder named = LongStream.builder();
        LongStream.Builder others = LongStream.builder();
        for (InsertedKeys part : parts) {
            filter.or(part.bloom());
            all &= part.allHashes();
            for (int i = 0; i < part.hashes().length; i++) {
                if (i < part.names().size() && names.size() < MAX_NAMES) {
                    names.add(part.names().get(i));
                    named.add(part.hashes()[i]);
                }
                else {
                    others.add(part.hashes()[i]);
                }
            }
        }
        long[] hashes = LongStream.concat(named.build(), others.build()).toArray();
        if (hashes.length > MAX_HASHES) {
            all = false;
            hashes = Arrays.copyOf(hashes, MAX_HASHES);
        }
        if (parts.isEmpty() || (all && hashes.length == 0)) {
            return Optional.empty();
        }
        return Optional.of(new InsertedKeys(parts.getFirst().fieldIds(), filter.toBytes(), hashes, all, names));
    }

    /** The filter as a transaction records it. */
    public Transaction.KeyExistenceFilter toProto()
    {
        return bloom().toProto(fieldIds);
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
