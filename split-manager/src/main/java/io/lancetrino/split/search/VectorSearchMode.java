package io.lancetrino.split.search;

/**
 * Session property {@code vector_search}: how {@code ORDER BY <vector function> LIMIT n} reaches the connector.
 */
public enum VectorSearchMode
{
    /** Distances and each split's nearest rows are computed in the scan, exactly as the engine computes them. */
    EXACT,
    /**
     * Through a vector index trained for the function's metric, when the column has one and the filter can be handed to
     * the index search; exact otherwise. Which rows come back depends on the index and its parameters.
     */
    APPROXIMATE,
    /** No pushdown: the engine reads every vector and computes every distance itself. */
    OFF;

    public static final String PROPERTY = "vector_search";
}
