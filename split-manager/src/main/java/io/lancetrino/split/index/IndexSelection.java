package io.lancetrino.split.index;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What scalar indexes say about a query's fragments: for each fragment they answered, the row offsets that may match
 * its filter (empty: none can). Fragments they did not answer are read whole.
 *
 * @param indexes names of the indexes that answered
 * @param bytesRead bytes of index files read (not those the cache already held)
 */
public record IndexSelection(Map<Long, RoaringBitmap> rowsByFragment, List<String> indexes, long bytesRead, long lookupNanos)
{
    public IndexSelection
    {
        rowsByFragment = ImmutableMap.copyOf(requireNonNull(rowsByFragment, "rowsByFragment is null"));
        indexes = ImmutableList.copyOf(indexes);
    }

    public static IndexSelection none()
    {
        return new IndexSelection(Map.of(), List.of(), 0, 0);
    }

    public Optional<RoaringBitmap> rows(long fragmentId)
    {
        return Optional.ofNullable(rowsByFragment.get(fragmentId));
    }
}
