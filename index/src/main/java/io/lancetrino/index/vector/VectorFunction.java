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

    /** Whether a larger value means a nearer row (ordered DESC in a nearest-neighbour query). */
    public boolean largerIsNearer()
    {
        return this == COSINE_SIMILARITY || this == DOT_PRODUCT;
    }

    /**
     * The function of the query vector and the {@code length} elements of {@code elements} from {@code offset}; NULL
     * (as {@link Double#NaN} is a value, NULL is reported by returning empty) where the engine returns NULL.
     *
     * @throws TrinoException where the engine fails: vectors of different lengths, a zero vector for cosine
     */
    public OptionalDoubleResult apply(double[] query, Type elementType, Block elements, int offset, int length, String column)
    {
        if (length != query.length) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "%s: column %s holds a vector of %s elements, the query vector has %s".formatted(SAME_LENGTH, column, length, query.length));
        }
        boolean real = elementType.equals(REAL);
        if (!real && !elementType.equals(DOUBLE)) {
            throw new IllegalArgumentException("not a vector element type: " + elementType);
        }
        return switch (this) {
            case EUCLIDEAN_DISTANCE -> {
                double sum = 0;
                for (int i = 0; i < length; i++) {
                    double difference = query[i] - value(elements, offset + i, real);
                    sum += difference * difference;
                }
                yield OptionalDoubleResult.of(Math.sqrt(sum));
            }
            case DOT_PRODUCT -> {
                double sum = 0;
                for (int i = 0; i < length; i++) {
                    sum += query[i] * value(elements, offset + i, real);
                }
                yield OptionalDoubleResult.of(sum);
            }
            case COSINE_SIMILARITY, COSINE_DISTANCE -> {
                if (elements.mayHaveNull()) {
                    for (int i = 0; i < length; i++) {
                        if (elements.isNull(offset + i)) {
                            yield OptionalDoubleResult.NULL;
                        }
                    }
                }
                double queryNorm = 0;
                double rowNorm = 0;
                double dot = 0;
                for (int i = 0; i < length; i++) {
                    double x = query[i];
                    double y = value(elements, offset + i, real);
                    queryNorm += x * x;
                    rowNorm += y * y;
                    dot += x * y;
                }
                if (queryNorm == 0 || rowNorm == 0) {
                    throw new TrinoException(INVALID_FUNCTION_ARGUMENT, ZERO_MAGNITUDE);
                }
                double similarity = dot / Math.sqrt(queryNorm * rowNorm);
                yield OptionalDoubleResult.of(this == COSINE_SIMILARITY ? similarity : 1.0 - similarity);
            }
        };
    }

    /**
     * {@link #apply} over {@code length} non-NULL elements stored as raw values from {@code start}: float bits for a
     * {@code real} vector, double bits for a {@code double} one (the arrays of Trino's int and long array blocks).
     */
    public double applyRaw(double[] query, int[] floatBits, long[] doubleBits, int start, int length, String column)
    {
        if (length != query.length) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "%s: column %s holds a vector of %s elements, the query vector has %s".formatted(SAME_LENGTH, column, length, query.length));
        }
        boolean real = floatBits != null;
        switch (this) {
            case EUCLIDEAN_DISTANCE -> {
                double sum = 0;
                for (int i = 0; i < length; i++) {
                    double difference = query[i] - (real ? Float.intBitsToFloat(floatBits[start + i]) : Double.longBitsToDouble(doubleBits[start + i]));
                    sum += difference * difference;
                }
                return Math.sqrt(sum);
            }
            case DOT_PRODUCT -> {
                double sum = 0;
                for (int i = 0; i < length; i++) {
                    sum += query[i] * (real ? Float.intBitsToFloat(floatBits[start + i]) : Double.longBitsToDouble(doubleBits[start + i]));
                }
                return sum;
            }
            default -> {
                double queryNorm = 0;
                double rowNorm = 0;
                double dot = 0;
                for (int i = 0; i < length; i++) {
                    double x = query[i];
                    double y = real ? Float.intBitsToFloat(floatBits[start + i]) : Double.longBitsToDouble(doubleBits[start + i]);
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
