package io.lancetrino.sdk.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_TYPE;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

/**
 * The values for one Arrow vector: index {@code i} of the vector takes position {@link #position(int) position(i)} of
 * a value block (dictionary and run-length blocks are resolved to their value block up front).
 * <p>
 * A <em>hidden</em> index lies under a null parent (a null struct row or a null fixed size list). Its value is never
 * read: it is written as null, or, in a vector that cannot hold nulls, as a zero or empty placeholder that the null
 * parent masks.
 *
 * @param positions positions in {@code block}, or null for {@code 0..count-1}
 * @param hidden per index, or null when nothing is hidden
 */
record WriteSource(ValueBlock block, int[] positions, boolean[] hidden, int count)
{
    WriteSource
    {
        requireNonNull(block, "block is null");
    }

    /**
     * @param positions positions of {@code block} to write in order, or null for its first {@code count} positions;
     * hidden indexes may hold any position
     */
    static WriteSource of(Block block, int[] positions, boolean[] hidden, int count)
    {
        if (block instanceof ValueBlock valueBlock) {
            return new WriteSource(valueBlock, positions, hidden, count);
        }
        // dictionary or run-length: map through to the value block once instead of per value
        int[] mapped = new int[count];
        for (int i = 0; i < count; i++) {
            if (hidden == null || !hidden[i]) {
                mapped[i] = block.getUnderlyingValuePosition(positions == null ? i : positions[i]);
            }
        }
        return new WriteSource(block.getUnderlyingValueBlock(), mapped, hidden, count);
    }

    int position(int index)
    {
        return positions == null ? index : positions[index];
    }

    boolean isHidden(int index)
    {
        return hidden != null && hidden[index];
    }

    /**
     * Whether index is written without a value: hidden, or null in the block.
     */
    boolean isNull(int index)
    {
        return isHidden(index) || block.isNull(position(index));
    }

    /**
     * For an index where {@link #isNull} holds: true when the vector gets a null there, false when it gets a
     * placeholder (a non-nullable vector under a null parent).
     *
     * @throws TrinoException for a null value in a vector that cannot hold nulls
     */
    boolean writeAsNull(int index, boolean nullable, FieldVector vector)
    {
        if (nullable) {
            return true;
        }
        if (isHidden(index)) {
            return false;
        }
        throw new TrinoException(CONSTRAINT_VIOLATION, "NULL value not allowed for NOT NULL column: " + vector.getName());
    }

    /**
     * The value block as the class the Trino type stores its values in.
     */
    <T extends ValueBlock> T block(Class<T> blockClass, Type type, FieldVector vector)
    {
        if (!blockClass.isInstance(block)) {
            throw new TrinoException(LANCE_UNSUPPORTED_TYPE, format("Cannot write %s of Trino %s into Arrow %s", block.getClass().getSimpleName(), type, vector.getField()));
        }
        return blockClass.cast(block);
    }

    /**
     * True when index {@code i} reads position {@code i} and nothing is hidden, so values can be copied in bulk from
     * the block's raw arrays.
     */
    boolean isPlain()
    {
        return positions == null && hidden == null;
    }

    /**
     * Validity of a {@link #isPlain plain} source: every index valid but the block's nulls. The vector's validity
     * buffer must hold {@code count} bits. Only bits change: unlike {@code setNull} of list vectors, offsets are kept.
     */
    void setPlainValidity(FieldVector vector, boolean nullable)
    {
        ArrowBuf validity = vector.getValidityBuffer();
        int fullBytes = count >>> 3;
        validity.setOne(0L, (long) fullBytes);
        for (int i = fullBytes << 3; i < count; i++) {
            BitVectorHelper.setBit(validity, i);
        }
        if (block.mayHaveNull()) {
            for (int i = 0; i < count; i++) {
                // plain: nothing is hidden, so a null in a non-nullable vector fails
                if (block.isNull(i) && writeAsNull(i, nullable, vector)) {
                    BitVectorHelper.unsetBit(validity, i);
                }
            }
        }
    }
}
