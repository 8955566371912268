package io.lancetrino.split.search;

import com.google.common.collect.ImmutableList;

import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A BM25 full-text search the Lance SDK runs over the whole version: through the columns' inverted indexes where
 * they cover fragments, flat over the fragments they do not cover, best {@code k} rows by score.
 *
 * @param phrase whether the query is a phrase (its terms adjacent and in order), which needs positions in the index
 * @param indexNames the indexes the planner expects the search to use, for EXPLAIN
 */
public record TextSearch(String query, List<String> columns, int k, boolean phrase, List<String> indexNames, Optional<String> filter)
{
    public TextSearch
    {
        requireNonNull(query, "query is null");
        columns = ImmutableList.copyOf(columns);
        checkArgument(!columns.isEmpty(), "no columns");
        checkArgument(k > 0, "k must be positive");
        indexNames = ImmutableList.copyOf(indexNames);
        requireNonNull(filter, "filter is null");
    }

    @Override
    public String toString()
    {
        String text = "best %s by %s %s of %s".formatted(k, phrase ? "phrase" : "match", columns, indexNames.isEmpty() ? "no index" : "index " + String.join(", ", indexNames));
        return filter.map(value -> text + " prefilter " + value).orElse(text);
    }
}
