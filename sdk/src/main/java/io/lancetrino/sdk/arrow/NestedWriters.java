package io.lancetrino.sdk.arrow;

import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

import java.util.Arrays;
import java.util.List;

import static io.lancetrino.sdk.arrow.ArrowWriters.unsupported;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.lang.String.format;

/**
 * ARRAY into List, LargeList and FixedSizeList; ROW into Struct. The parent's validity and offsets are written here,
 * the children through {@link ArrowWriters#write} with the positions they take from the Trino child block.
 */
final class NestedWriters
{
    private NestedWriters() {}

    static void struct(StructVector vector, Type type, WriteSource source)
    {
        if (!(type instanceof RowType rowType)) {
            throw unsupported(type, vector);
        }
        RowBlock rows = source.block(RowBlock.class, type, vector);
        List<FieldVector> children = vector.getChildrenFromFields();
        List<Type> fieldTypes = rowType.getTypeParameters();
        if (children.size() != fieldTypes.size()) {
            throw unsupported(type, vector);
        }
        int count = source.count();
        boolean nullable = vector.getField().isNullable();
        allocate(vector, count);
        // fields of a null row are hidden: Trino keeps them null, Arrow only needs the struct's validity
        boolean[] childHidden = null;
        for (int i = 0; i < count; i++) {
            if (source.isNull(i)) {
                if (source.writeAsNull(i, nullable, vector)) {
                    vector.setNull(i);
                }
                else {
                    vector.setIndexDefined(i);
                }
                if (childHidden == null) {
                    childHidden = new boolean[count];
                }
                childHidden[i] = true;
            }
            else {
                vector.setIndexDefined(i);
            }
        }
        for (int field = 0; field < children.size(); field++) {
            // field blocks are aligned with the row block's positions
            ArrowWriters.write(children.get(field), fieldTypes.get(field), rows.getFieldBlock(field), source.positions(), childHidden, count);
        }
        vector.setValueCount(count);
    }

    static void list(ListVector vector, Type type, WriteSource source)
    {
        ArrayType arrayType = arrayType(type, vector);
        ArrayBlock arrays = source.block(ArrayBlock.class, type, vector);
        int count = source.count();
        boolean nullable = vector.getField().isNullable();
        allocate(vector, count);
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        if (source.isPlain()) {
            // consecutive arrays: shifted offsets and one region of elements
            ArrowBuf offsetBuffer = vector.getOffsetBuffer();
            for (int i = 1; i <= count; i++) {
                offsetBuffer.setInt((long) i * ListVector.OFFSET_WIDTH, offsets[base + i] - offsets[base]);
            }
            source.setPlainValidity(vector, nullable);
            // every offset is written: keep setValueCount from filling "holes"
            vector.setLastSet(count - 1);
            writeRegion(vector.getDataVector(), arrayType, arrays, count);
            vector.setValueCount(count);
            return;
        }
        for (int i = 0; i < count; i++) {
            if (source.isNull(i)) {
                if (source.writeAsNull(i, nullable, vector)) {
                    vector.setNull(i);
                }
                else {
                    vector.startNewValue(i);
                    vector.endValue(i, 0);
                }
                continue;
            }
            int position = base + source.position(i);
            vector.startNewValue(i);
            vector.endValue(i, offsets[position + 1] - offsets[position]);
        }
        writeElements(vector.getDataVector(), arrayType, arrays, source);
        vector.setValueCount(count);
    }

    static void largeList(LargeListVector vector, Type type, WriteSource source)
    {
        ArrayType arrayType = arrayType(type, vector);
        ArrayBlock arrays = source.block(ArrayBlock.class, type, vector);
        int count = source.count();
        boolean nullable = vector.getField().isNullable();
        allocate(vector, count);
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        if (source.isPlain()) {
            ArrowBuf offsetBuffer = vector.getOffsetBuffer();
            for (int i = 1; i <= count; i++) {
                offsetBuffer.setLong((long) i * LargeListVector.OFFSET_WIDTH, offsets[base + i] - offsets[base]);
            }
            source.setPlainValidity(vector, nullable);
            vector.setLastSet(count - 1);
            writeRegion(vector.getDataVector(), arrayType, arrays, count);
            vector.setValueCount(count);
            return;
        }
        for (int i = 0; i < count; i++) {
            if (source.isNull(i)) {
                if (source.writeAsNull(i, nullable, vector)) {
                    vector.setNull(i);
                }
                else {
                    vector.startNewValue(i);
                    vector.endValue(i, 0);
                }
                continue;
            }
            int position = base + source.position(i);
            vector.startNewValue(i);
            vector.endValue(i, offsets[position + 1] - offsets[position]);
        }
        writeElements(vector.getDataVector(), arrayType, arrays, source);
        vector.setValueCount(count);
    }

    static void fixedSizeList(FixedSizeListVector vector, Type type, WriteSource source)
    {
        ArrayType arrayType = arrayType(type, vector);
        ArrayBlock arrays = source.block(ArrayBlock.class, type, vector);
        int count = source.count();
        int size = vector.getListSize();
        long total = (long) count * size;
        if (total > Integer.MAX_VALUE) {
            throw new TrinoException(NOT_SUPPORTED, format("More than 2^31 elements in one batch of fixed size list column %s: %s", vector.getName(), total));
        }
        boolean nullable = vector.getField().isNullable();
        allocate(vector, count);
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        boolean anyNull = false;
        int wrongLengths = 0;
        int firstWrongLength = 0;
        for (int i = 0; i < count; i++) {
            if (source.isNull(i)) {
                anyNull = true;
                if (source.writeAsNull(i, nullable, vector)) {
                    vector.setNull(i);
                }
                else {
                    vector.setNotNull(i);
                }
                continue;
            }
            int position = base + source.position(i);
            int length = offsets[position + 1] - offsets[position];
            if (length != size && wrongLengths++ == 0) {
                firstWrongLength = length;
            }
            vector.setNotNull(i);
        }
        if (wrongLengths > 0) {
            throw new TrinoException(CONSTRAINT_VIOLATION, format("Column %s has dimension %s, but %s of %s rows written together have arrays of another length (the first has %s elements)",
                    vector.getName(), size, wrongLengths, count, firstWrongLength));
        }

        Block elements = arrays.getRawElementBlock();
        if (source.positions() == null && !anyNull) {
            // consecutive arrays of exactly size elements
            ArrowWriters.write(vector.getDataVector(), arrayType.getElementType(), elements.getRegion(offsets[base], (int) total), null, null, (int) total);
        }
        else {
            // Arrow keeps size slots for a null list too: hidden placeholders
            int[] positions = new int[(int) total];
            boolean[] hidden = anyNull ? new boolean[(int) total] : null;
            for (int i = 0; i < count; i++) {
                int slot = i * size;
                if (source.isNull(i)) {
                    Arrays.fill(hidden, slot, slot + size, true);
                    continue;
                }
                int start = offsets[base + source.position(i)];
                for (int element = 0; element < size; element++) {
                    positions[slot + element] = start + element;
                }
            }
            ArrowWriters.write(vector.getDataVector(), arrayType.getElementType(), elements, positions, hidden, (int) total);
        }
        vector.setValueCount(count);
    }

    // all elements of the first count arrays (Arrow lets a null list span elements, so none are skipped)
    private static void writeRegion(FieldVector elementVector, ArrayType arrayType, ArrayBlock arrays, int count)
    {
        int[] offsets = arrays.getRawOffsets();
        int start = offsets[arrays.getOffsetBase()];
        int end = offsets[arrays.getOffsetBase() + count];
        ArrowWriters.write(elementVector, arrayType.getElementType(), arrays.getRawElementBlock().getRegion(start, end - start), null, null, end - start);
    }

    // the elements of the written (non-null, non-hidden) arrays, in order
    private static void writeElements(FieldVector elementVector, ArrayType arrayType, ArrayBlock arrays, WriteSource source)
    {
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        int count = source.count();
        long total = 0;
        for (int i = 0; i < count; i++) {
            if (!source.isNull(i)) {
                int position = base + source.position(i);
                total += offsets[position + 1] - offsets[position];
            }
        }
        if (total > Integer.MAX_VALUE) {
            // only a dictionary repeating large arrays gets here
            throw new TrinoException(NOT_SUPPORTED, format("More than 2^31 elements in one batch of list column %s: %s", elementVector.getName(), total));
        }
        Block elements = arrays.getRawElementBlock();
        Type elementType = arrayType.getElementType();
        if (source.positions() == null && count > 0 && offsets[base + count] - offsets[base] == total) {
            // the arrays are consecutive and skipped ones are empty: one region of the element block
            ArrowWriters.write(elementVector, elementType, elements.getRegion(offsets[base], (int) total), null, null, (int) total);
            return;
        }
        int[] positions = new int[(int) total];
        int next = 0;
        for (int i = 0; i < count; i++) {
            if (!source.isNull(i)) {
                int position = base + source.position(i);
                for (int element = offsets[position]; element < offsets[position + 1]; element++) {
                    positions[next++] = element;
                }
            }
        }
        ArrowWriters.write(elementVector, elementType, elements, positions, null, next);
    }

    private static ArrayType arrayType(Type type, FieldVector vector)
    {
        if (!(type instanceof ArrayType arrayType)) {
            throw unsupported(type, vector);
        }
        return arrayType;
    }

    /**
     * Allocates the parent's own buffers for {@code count} values. Children are (re)allocated when written, so they
     * get the smallest capacity here.
     */
    private static void allocate(FieldVector vector, int count)
    {
        vector.setInitialCapacity(count);
        for (FieldVector child : vector.getChildrenFromFields()) {
            child.setInitialCapacity(0);
        }
        vector.allocateNew();
    }
}
