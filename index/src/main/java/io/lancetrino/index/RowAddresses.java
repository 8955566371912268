package io.lancetrino.index;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import org.roaringbitmap.RoaringBitmap;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntToLongFunction;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A set of row addresses {@code (fragment_id << 32) | row_offset}: per fragment, a bitmap of row offsets, or the
 * whole fragment (Lance writes a fragment whose every row matches without listing them; how many rows that is the
 * caller knows from the manifest). Immutable.
 */
public final class RowAddresses
{
    private static final RowAddresses EMPTY = new RowAddresses(ImmutableSortedMap.of(), ImmutableSortedSet.of());

    // bitmaps are never exposed, so no one can change them
    private final ImmutableSortedMap<Integer, RoaringBitmap> offsets;
    private final ImmutableSortedSet<Integer> wholeFragments;

    private RowAddresses(ImmutableSortedMap<Integer, RoaringBitmap> offsets, ImmutableSortedSet<Integer> wholeFragments)
    {
        this.offsets = offsets;
        this.wholeFragments = wholeFragments;
    }

    /** The rows of one fragment: all of them, or those at {@code offsets}. */
    public record FragmentRows(int fragmentId, boolean wholeFragment, RoaringBitmap offsets)
    {
        public FragmentRows
        {
            requireNonNull(offsets, "offsets is null");
            checkArgument(!wholeFragment || offsets.isEmpty(), "a whole fragment lists no offsets");
        }

        public boolean contains(int rowOffset)
        {
            return wholeFragment || offsets.contains(rowOffset);
        }
    }

    public static RowAddresses empty()
    {
        return EMPTY;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    /** Fragments with at least one row, ascending. */
    public SortedSet<Integer> fragmentIds()
    {
        TreeSet<Integer> ids = new TreeSet<>(offsets.keySet());
        ids.addAll(wholeFragments);
        return ImmutableSortedSet.copyOf(ids);
    }

    /** Per fragment, ascending by fragment id; the bitmaps are copies. */
    public ImmutableList<FragmentRows> fragments()
    {
        ImmutableList.Builder<FragmentRows> result = ImmutableList.builder();
        for (int fragmentId : fragmentIds()) {
            result.add(forFragment(fragmentId).orElseThrow());
        }
        return result.build();
    }

    /** The rows of one fragment, empty when none matched; the bitmap is a copy. */
    public Optional<FragmentRows> forFragment(int fragmentId)
    {
        if (wholeFragments.contains(fragmentId)) {
            return Optional.of(new FragmentRows(fragmentId, true, new RoaringBitmap()));
        }
        RoaringBitmap bitmap = offsets.get(fragmentId);
        return bitmap == null ? Optional.empty() : Optional.of(new FragmentRows(fragmentId, false, bitmap.clone()));
    }

    public boolean contains(long rowAddress)
    {
        int fragmentId = (int) (rowAddress >>> 32);
        if (wholeFragments.contains(fragmentId)) {
            return true;
        }
        RoaringBitmap bitmap = offsets.get(fragmentId);
        return bitmap != null && bitmap.contains((int) rowAddress);
    }

    public boolean isEmpty()
    {
        return offsets.isEmpty() && wholeFragments.isEmpty();
    }

    /** Fragments all of whose rows are in the set; {@link #cardinality()} does not count them. */
    public Set<Integer> wholeFragments()
    {
        return wholeFragments;
    }

    /** The number of listed row offsets, not counting {@link #wholeFragments()}. */
    public long cardinality()
    {
        return offsets.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum();
    }

    /** The number of rows, with each whole fragment counted by {@code fragmentRows} (its physical rows). */
    public long cardinality(IntToLongFunction fragmentRows)
    {
        return cardinality() + wholeFragments.stream().mapToLong(fragmentRows::applyAsLong).sum();
    }

    /** Bytes held, for the cache's weigher. */
    long retainedBytes()
    {
        return 64 + offsets.values().stream().mapToLong(bitmap -> 48 + bitmap.getLongSizeInBytes()).sum() + 16L * wholeFragments.size();
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof RowAddresses that && offsets.equals(that.offsets) && wholeFragments.equals(that.wholeFragments);
    }

    @Override
    public int hashCode()
    {
        return offsets.hashCode() * 31 + wholeFragments.hashCode();
    }

    @Override
    public String toString()
    {
        StringBuilder result = new StringBuilder("RowAddresses{");
        for (int fragmentId : fragmentIds()) {
            result.append(' ').append(fragmentId).append(": ");
            result.append(wholeFragments.contains(fragmentId) ? "all" : offsets.get(fragmentId).getLongCardinality() + " rows");
        }
        return result.append(" }").toString();
    }

    public static final class Builder
    {
        private final Map<Integer, RoaringBitmap> offsets = new TreeMap<>();
        private final Set<Integer> wholeFragments = new TreeSet<>();
        // row addresses of one fragment usually come in runs: skip the map lookup for them
        private int lastFragment = -1;
        private RoaringBitmap lastBitmap;

        private Builder() {}

        public Builder add(long rowAddress)
        {
            bitmap((int) (rowAddress >>> 32)).add((int) rowAddress);
            return this;
        }

        /** Row offsets {@code [start, end)} of a fragment. */
        public Builder addRange(int fragmentId, long start, long end)
        {
            checkArgument(start >= 0 && start <= end && end <= 0x1_0000_0000L, "row offsets [%s, %s) out of range", start, end);
            if (start < end) {
                bitmap(fragmentId).add(start, end);
            }
            return this;
        }

        public Builder addAll(int fragmentId, RoaringBitmap rowOffsets)
        {
            if (!rowOffsets.isEmpty()) {
                bitmap(fragmentId).or(rowOffsets);
            }
            return this;
        }

        public Builder addWholeFragment(int fragmentId)
        {
            wholeFragments.add(fragmentId);
            return this;
        }

        public Builder addAll(RowAddresses rows)
        {
            rows.offsets.forEach(this::addAll);
            wholeFragments.addAll(rows.wholeFragments);
            return this;
        }

        private RoaringBitmap bitmap(int fragmentId)
        {
            if (fragmentId != lastFragment || lastBitmap == null) {
                lastBitmap = offsets.computeIfAbsent(fragmentId, _ -> new RoaringBitmap());
                lastFragment = fragmentId;
            }
            return lastBitmap;
        }

        public RowAddresses build()
        {
            ImmutableSortedMap.Builder<Integer, RoaringBitmap> result = ImmutableSortedMap.naturalOrder();
            offsets.forEach((fragmentId, bitmap) -> {
                // a whole fragment needs no list; a bitmap is copied so later additions do not reach the built set
                if (!wholeFragments.contains(fragmentId) && !bitmap.isEmpty()) {
                    RoaringBitmap copy = bitmap.clone();
                    copy.runOptimize();
                    result.put(fragmentId, copy);
                }
            });
            ImmutableSortedMap<Integer, RoaringBitmap> built = result.build();
            if (built.isEmpty() && wholeFragments.isEmpty()) {
                return EMPTY;
            }
            return new RowAddresses(built, ImmutableSortedSet.copyOf(wholeFragments));
        }
    }
}
