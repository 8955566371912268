package io.lancetrino.split.search;

import com.google.common.collect.ImmutableList;
import io.lancetrino.index.vector.VectorFunction;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.connector.ColumnHandle;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A column the page source computes: a vector function of a vector column and a constant query vector, in place of
 * the engine's projection {@code cosine_distance(CAST(embedding AS array(double)), ARRAY[...])}.
 */
public record LanceDistanceColumnHandle(String name, LanceColumnHandle vector, VectorFunction function, List<Double> query)
        implements ColumnHandle
{
    public LanceDistanceColumnHandle
    {
        requireNonNull(name, "name is null");
        requireNonNull(vector, "vector is null");
        requireNonNull(function, "function is null");
        query = ImmutableList.copyOf(query);
    }

    public double[] queryVector()
    {
        return query.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Override
    public String toString()
    {
        return "%s(%s, <%s-element query>)".formatted(function.sqlName(), vector.name(), query.size());
    }
}
