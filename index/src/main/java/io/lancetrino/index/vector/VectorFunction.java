package io.lancetrino.index.vector;

import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;

/**
 * Trino's vector functions over {@code array(double)}, computed as Trino computes them (the same operations in the
 * same order, in double), so a distance computed here equals the engine's to the last bit. A {@code real} element is
 * widened to double first, as the engine's cast does; a NULL element counts as zero in the distances that do not
 * return NULL for it, as it does in the engine's cast block.
 */
public enum VectorFunction
{
    EUCLIDEAN_DISTANCE,
    COSINE_DISTANCE,
    COSINE_SIMILARITY,
    DOT_PRODUCT;

    public static final String SAME_LENGTH = "The arguments must have the same length";
    public static final String ZERO_MAGNITUDE = "Vector magnitude cannot be zero";

    /** The SQL name, e.g. {@code cosine_distance}. */
    public String sqlName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<VectorFunction> fromSqlName(String name)
    {
        return Arrays.stream(values()).filter(function -> function.sqlName().equals(name)).findFirst();
    }

    /**
     * The function of the query vector and the {@code length} elements of {@code elements} from {@code offset}, or
     * NULL where the engine returns NULL (a cosine of a vector with a NULL element).
     *
     * @param row scratch space of at least the query's length
     * @throws TrinoException where the engine fails: vectors of different lengths, a zero vector for cosine
     */
    public OptionalDoubleResult apply(double[] query, Type elementType, Block elements, int offset, int length, String column, double[] row)
    {
        checkLength(query, length, column);
        boolean real = elementType.equals(REAL);
        if (!real && !elementType.equals(DOUBLE)) {
            throw new IllegalArgumentException("not a vector element type: " + elementType);
        }
        if ((this == COSINE_SIMILARITY || this == COSINE_DISTANCE) && elements.mayHaveNull()) {
            for (int i = 0; i < length; i++) {
                if (elements.isNull(offset + i)) {
                    return OptionalDoubleResult.NULL;
                }
            }
        }
        for (int i = 0; i < length; i++) {
            row[i] = value(elements, offset + i, real);
        }
        return OptionalDoubleResult.of(compute(query, row));
    }

    /**
     * {@link #apply} over {@code length} non-NULL elements stored as raw values from {@code start}: float bits for a
     * {@code real} vector, double bits for a {@code double} one (the arrays of Trino's int and long array blocks).
     */
    public double applyRaw(double[] query, int[] floatBits, long[] doubleBits, int start, int length, String column, double[] row)
    {
        checkLength(query, length, column);
        if (floatBits != null) {
            for (int i = 0; i < length; i++) {
                row[i] = Float.intBitsToFloat(floatBits[start + i]);
            }
        }
        else {
            for (int i = 0; i < length; i++) {
                row[i] = Double.longBitsToDouble(doubleBits[start + i]);
            }
        }
        return compute(query, row);
    }

    private static void checkLength(double[] query, int length, String column)
    {
        if (length != query.length) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "%s: column %s holds a vector of %s elements, the query vector has %s".formatted(SAME_LENGTH, column, length, query.length));
        }
    }

    // the engine's arithmetic (ArrayVectorFunctions), operation for operation
    private double compute(double[] query, double[] row)
    {
        int length = query.length;
        switch (this) {
            case EUCLIDEAN_DISTANCE -> {
                double sum = 0;
                for (int i = 0; i < length; i++) {
                    double difference = query[i] - row[i];
                    sum += difference * difference;
                }
                return Math.sqrt(sum);
            }
            case DOT_PRODUCT -> {
                double sum = 0;
                for (int i = 0; i < length; i++) {
                    sum += query[i] * row[i];
                }
                return sum;
            }
            default -> {
                double queryNorm = 0;
                double rowNorm = 0;
                double dot = 0;
                for (int i = 0; i < length; i++) {
                    double x = query[i];
                    double y = row[i];
                    queryNorm += x * x;
                    rowNorm += y * y;
                    dot += x * y;
                }
                if (queryNorm == 0 || rowNorm == 0) {
                    throw new TrinoException(INVALID_FUNCTION_ARGUMENT, ZERO_MAGNITUDE);
                }
                double similarity = dot / Math.sqrt(queryNorm * rowNorm);
                return this == COSINE_SIMILARITY ? similarity : 1.0 - similarity;
            }
        }
    }

    private static double value(Block elements, int position, boolean real)
    {
        if (elements.isNull(position)) {
            return 0;
        }
        return real ? REAL.getFloat(elements, position) : DOUBLE.getDouble(elements, position);
    }

    /** A function value, or NULL. */
    public record OptionalDoubleResult(boolean isNull, double value)
    {
        public static final OptionalDoubleResult NULL = new OptionalDoubleResult(true, 0);

        public static OptionalDoubleResult of(double value)
        {
            return new OptionalDoubleResult(false, value);
        }
    }
}
