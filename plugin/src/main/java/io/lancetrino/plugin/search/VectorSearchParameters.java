package io.lancetrino.plugin.search;

import io.trino.spi.connector.ConnectorSession;

import java.util.OptionalInt;

/**
 * The session's parameters of approximate vector searches: {@code vector_nprobes}, {@code vector_refine_factor} and
 * {@code vector_ef} (0 for the last two: not set).
 */
public record VectorSearchParameters(OptionalInt nprobes, OptionalInt refineFactor, OptionalInt ef)
{
    public static final String NPROBES = "vector_nprobes";
    public static final String REFINE_FACTOR = "vector_refine_factor";
    public static final String EF = "vector_ef";
    // LanceDB's default
    public static final int DEFAULT_NPROBES = 20;

    public static VectorSearchParameters of(ConnectorSession session)
    {
        return new VectorSearchParameters(
                positive(session.getProperty(NPROBES, Integer.class)),
                positive(session.getProperty(REFINE_FACTOR, Integer.class)),
                positive(session.getProperty(EF, Integer.class)));
    }

    private static OptionalInt positive(int value)
    {
        return value > 0 ? OptionalInt.of(value) : OptionalInt.empty();
    }
}
