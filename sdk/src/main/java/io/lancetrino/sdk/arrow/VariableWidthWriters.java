package io.lancetrino.sdk.arrow;

import io.lancetrino.split.arrow.JsonbEncoder;
import io.airlift.slice.Slice;
import io.trino.spi.TrinoException;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;

import static io.lancetrino.split.LanceErrorCode.LANCE_INVALID_JSON;
import static io.lancetrino.sdk.arrow.ArrowWriters.unsupported;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static java.lang.String.format;

/**
 * VARCHAR into Utf8 / LargeUtf8, VARBINARY into Binary / LargeBinary / FixedSizeBinary, copying bytes straight from
 * the block's slice.
 */
final class VariableWidthWriters
{
    private VariableWidthWriters() {}

    static void write(FieldVector vector, Type type, WriteSource source)
    {
        boolean matches = switch (vector) {
            case VarCharVector _, LargeVarCharVector _ -> type instanceof VarcharType;
            case VarBinaryVector _, LargeVarBinaryVector _ -> type.equals(VARBINARY);
            default -> false;
        };
        if (!matches) {
            throw unsupported(type, vector);
        }
        VariableWidthBlock values = source.block(VariableWidthBlock.class, type, vector);
        boolean nullable = vector.getField().isNullable();
        if (source.isPlain()) {
            plain(vector, values, source, nullable);
            return;
        }
        int count = source.count();
        long totalBytes = 0;
        for (int i = 0; i < count; i++) {
            if (!source.isNull(i)) {
                totalBytes += values.getSliceLength(source.position(i));
            }
        }
        Slice slice = values.getRawSlice();
        byte[] bytes = slice.byteArray();
        int bytesOffset = slice.byteArrayOffset();
        switch (vector) {
            case BaseVariableWidthVector variable -> {
                if (totalBytes > Integer.MAX_VALUE) {
                    throw new TrinoException(NOT_SUPPORTED, format("More than 2 GB of values in one batch of column %s: %s bytes", vector.getName(), totalBytes));
                }
                variable.allocateNew(totalBytes, count);
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        if (source.writeAsNull(i, nullable, vector)) {
                            variable.setNull(i);
                        }
                        else {
                            // empty value: the offsets are filled in by the next set or setValueCount
                            variable.setIndexDefined(i);
                        }
                        continue;
                    }
                    int position = source.position(i);
                    variable.set(i, bytes, bytesOffset + values.getRawSliceOffset(position), values.getSliceLength(position));
                }
                variable.setValueCount(count);
            }
            case BaseLargeVariableWidthVector variable -> {
                variable.allocateNew(totalBytes, count);
                for (int i = 0; i < count; i++) {
                    if (source.isNull(i)) {
                        if (source.writeAsNull(i, nullable, vector)) {
                            variable.setNull(i);
                        }
                        else {
                            variable.setIndexDefined(i);
                        }
                        continue;
                    }
                    int position = source.position(i);
                    variable.set(i, bytes, bytesOffset + values.getRawSliceOffset(position), values.getSliceLength(position));
                }
                variable.setValueCount(count);
            }
            default -> throw unsupported(type, vector);
        }
    }

    /**
     * Positions {@code 0..count-1} of a block: their bytes are contiguous in its slice, so they are copied at once and
     * the offsets shifted.
     */
    private static void plain(FieldVector vector, VariableWidthBlock values, WriteSource source, boolean nullable)
    {
        int count = source.count();
        int start = count == 0 ? 0 : values.getRawSliceOffset(0);
        int end = count == 0 ? 0 : values.getRawSliceOffset(count - 1) + values.getSliceLength(count - 1);
        Slice slice = values.getRawSlice();
        switch (vector) {
            case BaseVariableWidthVector variable -> {
                variable.allocateNew(end - start, count);
                variable.getDataBuffer().setBytes(0, slice.byteArray(), slice.byteArrayOffset() + start, end - start);
                ArrowBuf offsets = variable.getOffsetBuffer();
                for (int i = 0; i < count; i++) {
                    offsets.setInt((i + 1L) * BaseVariableWidthVector.OFFSET_WIDTH, values.getRawSliceOffset(i) + values.getSliceLength(i) - start);
                }
                source.setPlainValidity(vector, nullable);
                // every offset is written: keep setValueCount from filling "holes"
                variable.setLastSet(count - 1);
                variable.setValueCount(count);
            }
            case BaseLargeVariableWidthVector variable -> {
                variable.allocateNew(end - start, count);
                variable.getDataBuffer().setBytes(0, slice.byteArray(), slice.byteArrayOffset() + start, end - start);
                ArrowBuf offsets = variable.getOffsetBuffer();
                for (int i = 0; i < count; i++) {
                    offsets.setLong((i + 1L) * BaseLargeVariableWidthVector.OFFSET_WIDTH, values.getRawSliceOffset(i) + values.getSliceLength(i) - start);
                }
                source.setPlainValidity(vector, nullable);
                variable.setLastSet(count - 1);
                variable.setValueCount(count);
            }
            default -> throw new IllegalArgumentException("Not a variable width vector: " + vector.getClass().getSimpleName());
        }
    }

    /**
     * Trino {@code json} into Binary / LargeBinary as Lance's JSONB, the bytes the Lance SDK writes for a {@code json}
     * column ({@link JsonbEncoder}).
     */
    static void json(FieldVector vector, Type type, WriteSource source)
    {
        if (!(vector instanceof VarBinaryVector || vector instanceof LargeVarBinaryVector)) {
            throw unsupported(type, vector);
        }
        VariableWidthBlock values = source.block(VariableWidthBlock.class, type, vector);
        boolean nullable = vector.getField().isNullable();
        int count = source.count();
        byte[][] encoded = new byte[count][];
        long totalBytes = 0;
        for (int i = 0; i < count; i++) {
            if (source.isNull(i)) {
                continue;
            }
            Slice text = values.getSlice(source.position(i));
            try {
                encoded[i] = JsonbEncoder.encode(text.byteArray(), text.byteArrayOffset(), text.length());
            }
            catch (IllegalArgumentException e) {
                throw new TrinoException(LANCE_INVALID_JSON, format("Column %s: cannot store JSON value as Lance JSONB: %s", vector.getName(), e.getMessage()), e);
            }
            totalBytes += encoded[i].length;
        }
        switch (vector) {
            case BaseVariableWidthVector variable -> {
                if (totalBytes > Integer.MAX_VALUE) {
                    throw new TrinoException(NOT_SUPPORTED, format("More than 2 GB of values in one batch of column %s: %s bytes", vector.getName(), totalBytes));
                }
                variable.allocateNew(totalBytes, count);
            }
            case BaseLargeVariableWidthVector variable -> variable.allocateNew(totalBytes, count);
            default -> throw unsupported(type, vector);
        }
        VariableWidthFieldVector variable = (VariableWidthFieldVector) vector;
        for (int i = 0; i < count; i++) {
            if (encoded[i] != null) {
                variable.set(i, encoded[i]);
            }
            else if (source.writeAsNull(i, nullable, vector)) {
                variable.setNull(i);
            }
            else {
                // empty placeholder under a null parent; the offsets are filled in by the next set or setValueCount
                variable.setIndexDefined(i);
            }
        }
        vector.setValueCount(count);
    }

    static void fixedSize(FixedSizeBinaryVector vector, Type type, WriteSource source)
    {
        VariableWidthBlock values = source.block(VariableWidthBlock.class, type, vector);
        int count = source.count();
        int width = vector.getByteWidth();
        boolean nullable = vector.getField().isNullable();
        vector.allocateNew(count);
        ArrowBuf data = vector.getDataBuffer();
        Slice slice = values.getRawSlice();
        byte[] bytes = slice.byteArray();
        int bytesOffset = slice.byteArrayOffset();
        for (int i = 0; i < count; i++) {
            if (source.isNull(i)) {
                if (source.writeAsNull(i, nullable, vector)) {
                    vector.setNull(i);
                }
                else {
                    vector.setIndexDefined(i);
                }
                continue;
            }
            int position = source.position(i);
            int length = values.getSliceLength(position);
            if (length != width) {
                throw new TrinoException(CONSTRAINT_VIOLATION, format("Value of %s bytes does not fit column %s of fixed size %s bytes", length, vector.getName(), width));
            }
            data.setBytes((long) i * width, bytes, bytesOffset + values.getRawSliceOffset(position), width);
            vector.setIndexDefined(i);
        }
        vector.setValueCount(count);
    }
}
