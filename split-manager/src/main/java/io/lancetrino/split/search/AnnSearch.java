package io.lancetrino.split.search;

import com.google.common.collect.ImmutableList;
import io.lancetrino.split.LanceColumnHandle;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A nearest-neighbour search the Lance SDK runs over the whole version: through the column's vector index where one
 * covers fragments (probing {@code nprobes} partitions, re-ranking {@code k * refineFactor} candidates exactly), flat
 * over the fragments it does not cover, with the filter applied before the top k is taken.
 *
 * @param filter a Lance SQL filter, applied before the search (Lance's prefilter)
 * @param indexName the index the planner expects the search to use, for EXPLAIN; empty for a flat search
 * @param order the distance the rows are returned by, nearest first, when the engine relies on the scan's order (a
 * pushed top-N it no longer applies itself); computed from each row's vector as the engine computes it
 */
public record AnnSearch(
        LanceColumnHandle vector,
        List<Float> query,
        int k,
        VectorMetric metric,
        OptionalInt nprobes,
        OptionalInt refineFactor,
        OptionalInt ef,
        Optional<String> filter,
        Optional<String> indexName,
        Optional<LanceDistanceColumnHandle> order)
{
    public AnnSearch
    {
        requireNonNull(vector, "vector is null");
        query = ImmutableList.copyOf(query);
        checkArgument(k > 0, "k must be positive");
        requireNonNull(metric, "metric is null");
        requireNonNull(nprobes, "nprobes is null");
        requireNonNull(refineFactor, "refineFactor is null");
        requireNonNull(ef, "ef is null");
        requireNonNull(filter, "filter is null");
        requireNonNull(indexName, "indexName is null");
        requireNonNull(order, "order is null");
    }

    public float[] queryVector()
    {
        float[] values = new float[query.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = query.get(i);
        }
        return values;
    }

    @Override
    public String toString()
    {
        StringBuilder text = new StringBuilder("nearest %s by %s %s".formatted(k, metric.lanceName(), vector.name()));
        indexName.ifPresentOrElse(index -> text.append(" through index ").append(index), () -> text.append(" flat"));
        nprobes.ifPresent(value -> text.append(" nprobes ").append(value));
        refineFactor.ifPresent(value -> text.append(" refine_factor ").append(value));
        ef.ifPresent(value -> text.append(" ef ").append(value));
        filter.ifPresent(value -> text.append(" prefilter ").append(value));
        return text.toString();
    }
}
