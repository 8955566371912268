package io.lancetrino.split.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlock;
import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

import java.util.List;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_TYPE;
import static io.lancetrino.split.arrow.ArrowBuffers.isNull;
import static io.lancetrino.split.arrow.ArrowBuffers.optional;
import static io.lancetrino.split.arrow.ArrowBuffers.readInts;
import static io.lancetrino.split.arrow.ArrowBuffers.readLongs;
import static io.lancetrino.split.arrow.ArrowBuffers.validity;
import static io.trino.spi.type.RealType.REAL;
import static java.lang.String.format;

/**
 * Converts whole Arrow vectors (as read by the Lance SDK) into Trino blocks, copying buffers in bulk.
 * Dispatch is on the vector class, so a vector whose Arrow type differs from the Lance logical type still converts
 * when the values fit the Trino type.
 */
public final class ArrowBlocks
{
    private ArrowBlocks() {}

    /**
     * A block of {@code type} with exactly {@code vector.getValueCount()} positions; the vector is only read.
     */
    public static Block toBlock(Type type, FieldVector vector)
    {
        return toBlock(type, vector, null, null);
    }

    /**
     * As {@link #toBlock(Type, FieldVector)}, decoding dictionary-encoded vectors (at any nesting level) with the
     * dictionaries of {@code dictionaries}, usually the {@link org.apache.arrow.vector.ipc.ArrowReader} the vector
     * came from.
     */
    public static Block toBlock(Type type, FieldVector vector, DictionaryProvider dictionaries)
    {
        return toBlock(type, vector, dictionaries, null);
    }

    /**
     * @param parentValid validity of an enclosing struct, ANDed into this vector's validity because a null row must
     * have null fields (null when the parent has no nulls)
     */
    private static Block toBlock(Type type, FieldVector vector, DictionaryProvider dictionaries, long[] parentValid)
    {
        int count = vector.getValueCount();
        return switch (vector) {
            case ExtensionTypeVector<?> extension -> toBlock(type, extension.getUnderlyingVector(), dictionaries, parentValid);
            case BaseIntVector _ when vector.getField().getDictionary() != null -> dictionary(type, vector, dictionaries, count, validity(vector, count, parentValid));
            case NullVector _ -> RunLengthEncodedBlock.create(type, null, count);
            case StructVector struct -> row(type, struct, dictionaries, count, validity(struct, count, parentValid));
            case ListVector list -> array(type, list.getDataVector(), dictionaries, listOffsets(list, count), count, validity(list, count, parentValid));
            case LargeListVector list -> array(type, list.getDataVector(), dictionaries, largeListOffsets(list, count), count, validity(list, count, parentValid));
            case FixedSizeListVector list -> array(type, list.getDataVector(), dictionaries, fixedSizeListOffsets(list, count), count, validity(list, count, parentValid));
            case BaseVariableWidthVector _, BaseLargeVariableWidthVector _ when TrinoTypes.isJson(type) -> json(type, vector, validity(vector, count, parentValid));
            // bfloat16 (fixed_size_list:lance.bfloat16:n)
            case FixedSizeBinaryVector binaries when binaries.getByteWidth() == 2 && type.equals(REAL) ->
                    NumericBlocks.toBlock(type, vector, validity(vector, count, parentValid));
            case BaseVariableWidthVector _, BaseLargeVariableWidthVector _, FixedSizeBinaryVector _ ->
                    VariableWidthBlocks.toBlock(type, vector, validity(vector, count, parentValid));
            case TimeSecVector _, TimeMilliVector _, TimeMicroVector _, TimeNanoVector _, TimeStampVector _ ->
                    TemporalBlocks.toBlock(type, vector, validity(vector, count, parentValid));
            case BaseFixedWidthVector _ -> NumericBlocks.toBlock(type, vector, validity(vector, count, parentValid));
            default -> throw unsupported(type, vector);
        };
    }

    /**
     * A Lance {@code json} column: binary vectors hold Lance's JSONB (extension {@code lance.json}), string vectors JSON
     * text (extension {@code arrow.json}), both returned as Trino's canonical JSON text.
     */
    private static Block json(Type type, FieldVector vector, long[] valid)
    {
        int count = vector.getValueCount();
        boolean binary = !(vector instanceof VarCharVector || vector instanceof LargeVarCharVector);
        BlockBuilder builder = type.createBlockBuilder(null, count);
        for (int i = 0; i < count; i++) {
            if (isNull(valid, i)) {
                builder.appendNull();
                continue;
            }
            byte[] bytes = ((VariableWidthFieldVector) vector).get(i);
            if (binary) {
                try {
                    type.writeSlice(builder, Slices.utf8Slice(JsonbValues.toJson(bytes, 0, bytes.length)));
                }
                catch (IllegalArgumentException e) {
                    throw new TrinoException(LANCE_BAD_DATA, format("Column %s holds a JSON value this connector cannot decode at row %s of the batch: %s", vector.getField().getName(), i, e.getMessage()), e);
                }
            }
            else {
                type.writeSlice(builder, Slices.wrappedBuffer(bytes));
            }
        }
        return builder.build();
    }

    private static Block row(Type type, StructVector vector, DictionaryProvider dictionaries, int count, long[] valid)
    {
        if (!(type instanceof RowType rowType)) {
            throw unsupported(type, vector);
        }
        List<FieldVector> children = vector.getChildrenFromFields();
        List<Type> fieldTypes = rowType.getTypeParameters();
        if (children.size() != fieldTypes.size()) {
            throw new TrinoException(LANCE_BAD_DATA, format("Arrow struct %s has %s children, expected %s", vector.getField(), children.size(), fieldTypes.size()));
        }
        Block[] fields = new Block[children.size()];
        for (int i = 0; i < fields.length; i++) {
            Block field = toBlock(fieldTypes.get(i), children.get(i), dictionaries, valid);
            fields[i] = positions(field, 0, count, vector);
        }
        return RowBlock.fromNotNullSuppressedFieldBlocks(count, optional(valid), fields);
    }

    private static Block array(Type type, FieldVector elementVector, DictionaryProvider dictionaries, int[] offsets, int count, long[] valid)
    {
        if (!(type instanceof ArrayType arrayType)) {
            throw unsupported(type, elementVector);
        }
        int start = offsets[0];
        int end = offsets[count];
        Block elements = positions(toBlock(arrayType.getElementType(), elementVector, dictionaries, null), start, end - start, elementVector);
        if (start != 0) {
            for (int i = 0; i <= count; i++) {
                offsets[i] -= start;
            }
        }
        if (valid != null && nullWithElements(offsets, count, valid)) {
            // Trino requires null arrays to be empty; Arrow lets them span elements (always for fixed size lists)
            int[] kept = new int[offsets[count]];
            int keptCount = 0;
            int[] compacted = new int[count + 1];
            for (int i = 0; i < count; i++) {
                if (!isNull(valid, i)) {
                    for (int element = offsets[i]; element < offsets[i + 1]; element++) {
                        kept[keptCount++] = element;
                    }
                }
                compacted[i + 1] = keptCount;
            }
            elements = elements.copyPositions(kept, 0, keptCount);
            offsets = compacted;
        }
        return ArrayBlock.fromElementBlock(count, optional(valid), offsets, elements);
    }

    /**
     * A dictionary-encoded vector (Lance {@code dict:{value}:{key}:false}) as a dictionary block over the decoded
     * values; NULL keys point at a NULL appended to the values.
     */
    private static Block dictionary(Type type, FieldVector keys, DictionaryProvider dictionaries, int count, long[] valid)
    {
        DictionaryEncoding encoding = keys.getField().getDictionary();
        Dictionary dictionary = dictionaries == null ? null : dictionaries.lookup(encoding.getId());
        if (dictionary == null) {
            throw new TrinoException(LANCE_BAD_DATA, format("Arrow vector %s refers to dictionary %s, which the reader does not provide", keys.getField(), encoding.getId()));
        }
        Block values = toBlock(type, dictionary.getVector(), dictionaries, null);
        int size = values.getPositionCount();
        if (valid != null) {
            values = values.copyWithAppendedNull();
        }
        BaseIntVector indices = (BaseIntVector) keys;
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            if (isNull(valid, i)) {
                ids[i] = size;
                continue;
            }
            long key = indices.getValueAsLong(i);
            if (key < 0 || key >= size) {
                throw new TrinoException(LANCE_BAD_DATA, format("Arrow vector %s has dictionary key %s at position %s, but the dictionary has %s values", keys.getField(), key, i, size));
            }
            ids[i] = (int) key;
        }
        return DictionaryBlock.create(count, values, ids);
    }

    private static boolean nullWithElements(int[] offsets, int count, long[] valid)
    {
        for (int i = 0; i < count; i++) {
            if (offsets[i + 1] != offsets[i] && isNull(valid, i)) {
                return true;
            }
        }
        return false;
    }

    private static int[] listOffsets(ListVector vector, int count)
    {
        if (count == 0) {
            return new int[1];
        }
        int[] offsets = readInts(vector.getOffsetBuffer(), count + 1);
        checkOffsets(offsets, count, vector);
        return offsets;
    }

    private static int[] largeListOffsets(LargeListVector vector, int count)
    {
        if (count == 0) {
            return new int[1];
        }
        long[] largeOffsets = readLongs(vector.getOffsetBuffer(), count + 1);
        int[] offsets = new int[count + 1];
        for (int i = 0; i <= count; i++) {
            offsets[i] = (int) largeOffsets[i];
            if (offsets[i] != largeOffsets[i]) {
                throw new TrinoException(LANCE_BAD_DATA, format("Arrow large list %s has more elements than a block can hold", vector.getField()));
            }
        }
        checkOffsets(offsets, count, vector);
        return offsets;
    }

    private static int[] fixedSizeListOffsets(FixedSizeListVector vector, int count)
    {
        int size = vector.getListSize();
        if ((long) size * count > Integer.MAX_VALUE) {
            throw new TrinoException(LANCE_BAD_DATA, format("Arrow fixed size list %s has more elements than a block can hold", vector.getField()));
        }
        int[] offsets = new int[count + 1];
        for (int i = 1; i <= count; i++) {
            offsets[i] = offsets[i - 1] + size;
        }
        return offsets;
    }

    private static void checkOffsets(int[] offsets, int count, ValueVector vector)
    {
        if (offsets[0] < 0) {
            throw new TrinoException(LANCE_BAD_DATA, format("Arrow list %s has a negative offset", vector.getField()));
        }
        for (int i = 0; i < count; i++) {
            if (offsets[i + 1] < offsets[i]) {
                throw new TrinoException(LANCE_BAD_DATA, format("Arrow list %s has decreasing offsets at position %s", vector.getField(), i));
            }
        }
    }

    // the used positions of a child block; Arrow children may be longer than their parent needs
    private static Block positions(Block block, int start, int length, ValueVector vector)
    {
        if (start + length > block.getPositionCount()) {
            throw new TrinoException(LANCE_BAD_DATA, format("Arrow vector %s has %s values, expected at least %s", vector.getField(), block.getPositionCount(), start + length));
        }
        if (start == 0 && length == block.getPositionCount()) {
            return block;
        }
        return block.getRegion(start, length);
    }

    static TrinoException unsupported(Type type, ValueVector vector)
    {
        return new TrinoException(LANCE_UNSUPPORTED_TYPE, format("Cannot read Arrow %s (%s) as Trino %s", vector.getField(), vector.getClass().getSimpleName(), type));
    }
}
