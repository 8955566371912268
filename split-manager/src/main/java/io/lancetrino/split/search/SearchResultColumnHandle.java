package io.lancetrino.split.search;

import io.trino.spi.connector.ColumnHandle;

import static java.util.Objects.requireNonNull;

/**
 * A column the search table functions add to the table's: {@code _distance} of a vector search in the units of
 * Trino's function for its metric, or {@code _score} of a text search (BM25, as Lance scores it).
 */
public record SearchResultColumnHandle(String name)
        implements ColumnHandle
{
    public static final String DISTANCE = "_distance";
    public static final String SCORE = "_score";

    public SearchResultColumnHandle
    {
        requireNonNull(name, "name is null");
    }

    public static SearchResultColumnHandle distance()
    {
        return new SearchResultColumnHandle(DISTANCE);
    }

    public static SearchResultColumnHandle score()
    {
        return new SearchResultColumnHandle(SCORE);
    }
}
