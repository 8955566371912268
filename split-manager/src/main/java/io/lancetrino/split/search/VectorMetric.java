package io.lancetrino.split.search;

import io.lancetrino.index.vector.VectorFunction;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The distances Lance's vector indexes are trained for, and how Lance's {@code _distance} of each converts to the
 * value of Trino's vector functions.
 */
public enum VectorMetric
{
    /** Lance's {@code _distance} is the squared euclidean distance. */
    L2,
    /** Lance's {@code _distance} is 1 - cosine similarity, as Trino's {@code cosine_distance}. */
    COSINE,
    /** Lance's {@code _distance} is 1 - dot product, so nearer rows have smaller values. */
    DOT;

    /** Lance's name of the metric, as index details and the SDK spell it. */
    public String lanceName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<VectorMetric> fromLanceName(String name)
    {
        return Arrays.stream(values()).filter(metric -> metric.lanceName().equals(name.toLowerCase(Locale.ROOT))).findFirst();
    }

    /** The metric whose index answers {@code ORDER BY function(...)} in the function's nearest-first direction. */
    public static VectorMetric of(VectorFunction function)
    {
        return switch (function) {
            case EUCLIDEAN_DISTANCE -> L2;
            case COSINE_DISTANCE, COSINE_SIMILARITY -> COSINE;
            case DOT_PRODUCT -> DOT;
        };
    }

    /** Whether larger values of the function are nearer (similarities and dot products). */
    public static boolean largerIsNearer(VectorFunction function)
    {
        return function == VectorFunction.COSINE_SIMILARITY || function == VectorFunction.DOT_PRODUCT;
    }

    /** The Trino function whose value {@link #toTrino} gives: a distance where one exists, else the dot product. */
    public VectorFunction trinoFunction()
    {
        return switch (this) {
            case L2 -> VectorFunction.EUCLIDEAN_DISTANCE;
            case COSINE -> VectorFunction.COSINE_DISTANCE;
            case DOT -> VectorFunction.DOT_PRODUCT;
        };
    }

    /** Lance's {@code _distance} in the units of {@link #trinoFunction()}. */
    public double toTrino(double lanceDistance)
    {
        return switch (this) {
            case L2 -> Math.sqrt(lanceDistance);
            case COSINE -> lanceDistance;
            case DOT -> 1 - lanceDistance;
        };
    }
}
