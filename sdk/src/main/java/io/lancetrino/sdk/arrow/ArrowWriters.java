package io.lancetrino.sdk.arrow;

import io.lancetrino.split.arrow.ArrowBlocks;
import io.lancetrino.split.arrow.ArrowTypes;
import io.lancetrino.split.arrow.TrinoTypes;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_TYPE;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static java.lang.String.format;

/**
 * Converts Trino blocks into Arrow vectors for writing Lance files (the inverse of {@link ArrowBlocks}).
 * <p>
 * The vector class decides the encoding, so a block can be written into any vector that reading maps to its Trino
 * type ({@link TrinoTypes}): besides the vectors {@link ArrowTypes} creates, also unsigned integers (range checked),
 * half floats and bfloat16 (rounded), large strings and binaries, fixed size binaries and lists (length checked),
 * Date64, Decimal256, any time unit that holds the Trino precision and timestamps with any zone.
 * <p>
 * Every block representation works: value blocks, dictionary and run-length blocks (also nested inside arrays and
 * rows), regions. A null in a vector whose field is not nullable fails with {@code CONSTRAINT_VIOLATION}, except under
 * a null struct row or fixed size list, where a zero placeholder is written instead.
 */
public final class ArrowWriters
{
    private ArrowWriters() {}

    /**
     * Writes all positions of {@code block} into {@code vector}. The vector is (re)allocated here for exactly
     * {@code block.getPositionCount()} values, with children sized to what they receive; anything it held before is
     * released. On return its value count is set.
     */
    public static void writeBlock(Block block, Type type, FieldVector vector)
    {
        write(vector, type, block, null, null, block.getPositionCount());
    }

    /**
     * A new root in {@code arrowSchema} holding the page: channel {@code i} of the page, of type {@code types.get(i)},
     * goes into field {@code i} of the schema. The caller closes the root.
     */
    public static VectorSchemaRoot toArrow(Page page, List<Type> types, Schema arrowSchema, BufferAllocator allocator)
    {
        checkArgument(page.getChannelCount() == types.size(), "Page has %s channels, but %s types", page.getChannelCount(), types.size());
        checkArgument(arrowSchema.getFields().size() == types.size(), "Arrow schema has %s fields, but %s types", arrowSchema.getFields().size(), types.size());
        VectorSchemaRoot root = VectorSchemaRoot.create(arrowSchema, allocator);
        try {
            for (int channel = 0; channel < types.size(); channel++) {
                writeBlock(page.getBlock(channel), types.get(channel), root.getVector(channel));
            }
            root.setRowCount(page.getPositionCount());
            return root;
        }
        catch (RuntimeException | Error e) {
            root.close();
            throw e;
        }
    }

    /**
     * Allocates {@code vector} for {@code count} values and writes them.
     *
     * @param positions positions of {@code block} to write, or null for its first {@code count} positions
     * @param hidden indexes under a null parent, or null (see {@link WriteSource})
     */
    static void write(FieldVector vector, Type type, Block block, int[] positions, boolean[] hidden, int count)
    {
        WriteSource source = WriteSource.of(block, positions, hidden, count);
        switch (vector) {
            case StructVector struct -> NestedWriters.struct(struct, type, source);
            case ListVector list -> NestedWriters.list(list, type, source);
            case LargeListVector list -> NestedWriters.largeList(list, type, source);
            case FixedSizeListVector list -> NestedWriters.fixedSizeList(list, type, source);
            case BaseVariableWidthVector _, BaseLargeVariableWidthVector _ when TrinoTypes.isJson(type) -> VariableWidthWriters.json(vector, type, source);
            case BaseVariableWidthVector _, BaseLargeVariableWidthVector _ -> VariableWidthWriters.write(vector, type, source);
            case FixedSizeBinaryVector binaries when type.equals(VARBINARY) -> VariableWidthWriters.fixedSize(binaries, type, source);
            case TimeSecVector _, TimeMilliVector _, TimeMicroVector _, TimeNanoVector _, TimeStampVector _ ->
                    TemporalWriters.write((BaseFixedWidthVector) vector, type, source);
            case BaseFixedWidthVector fixed -> NumericWriters.write(fixed, type, source);
            default -> throw unsupported(type, vector);
        }
    }

    static TrinoException unsupported(Type type, FieldVector vector)
    {
        return new TrinoException(LANCE_UNSUPPORTED_TYPE, format("Cannot write Trino %s into Arrow %s (%s)", type, vector.getField(), vector.getClass().getSimpleName()));
    }
}
