package io.lancetrino.split.arrow;

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

import static io.lancetrino.split.arrow.ArrowWriters.unsupported;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
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
        boolean nullable = vector.getField().isNullable();
        switch (vector) {
            case BaseVariableWidthVector variable -> {
                if (totalBytes > Integer.MAX_VALUE) {
                    throw new TrinoException(CONSTRAINT_VIOLATION, format("Too much data for one batch of column %s: %s bytes", vector.getName(), totalBytes));
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
