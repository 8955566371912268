package io.lancetrino.file;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.codec.FsstDecoder;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.VariablePackedStruct;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static java.lang.Math.max;
import static java.lang.Math.min;
import static java.lang.Math.toIntExact;

/**
 * Reads a packed struct (field metadata {@code lance-encoding:packed=true}): one physical column whose value per row is
 * the struct's fields side by side. Fixed-width fields only (PackedStruct: a MiniBlock page of Flat rows with the
 * bits of each field), or, in 2.2, fixed and variable-width fields (VariablePackedStruct: a FullZip page whose record
 * holds each fixed field's bytes, and each variable field's length then bytes). Values are little-endian as stored;
 * the fields come back as blocks of the given field types read as is (as {@link LanceColumnReader} reads leaves).
 */
public final class PackedStructReader
{
    private PackedStructReader() {}

    /** One field of a packed row: a fixed width in bytes, or the width of the length before variable bytes. */
    private record FieldLayout(int fixedBytes, int lengthBytes, Optional<FsstDecoder> fsst)
    {
        FieldLayout(int fixedBytes, int lengthBytes)
        {
            this(fixedBytes, lengthBytes, Optional.empty());
        }
    }

    public static Block read(TrinoInput input, LanceColumn column, RowType type, long rowStart, int rowCount)
            throws IOException
    {
        checkArgument(rowStart >= 0 && rowCount >= 0 && rowStart + rowCount <= column.rows(), "rows [%s, +%s) outside column of %s rows", rowStart, rowCount, column.rows());
        List<Type> fieldTypes = type.getTypeParameters();
        FieldValues[] fields = new FieldValues[fieldTypes.size()];
        for (int field = 0; field < fields.length; field++) {
            fields[field] = new FieldValues(fieldTypes.get(field), rowCount);
        }
        boolean[] rowIsNull = new boolean[rowCount];
        int out = 0;
        long rowEnd = rowStart + rowCount;
        long pageStart = 0;
        for (int page = 0; page < column.pages().size() && pageStart < rowEnd; page++) {
            LancePage lancePage = column.pages().get(page);
            long pageEnd = pageStart + lancePage.rows();
            if (pageEnd > rowStart && lancePage.rows() > 0) {
                String where = "column %s page %s".formatted(column.index(), page);
                List<FieldLayout> layout = layout(where, lancePage.layout(), fieldTypes);
                long from = max(rowStart, pageStart) - pageStart;
                int count = toIntExact(min(rowEnd, pageEnd) - pageStart - from);
                // the page's rows as bytes, through the leaf decoders
                Block rows = LanceColumnReader.read(input, new LanceColumn(column.index(), List.of(lancePage)), VARBINARY, from, count);
                for (int row = 0; row < count; row++) {
                    if (rows.isNull(row)) {
                        // a null row's fields are null too
                        rowIsNull[out + row] = true;
                        for (FieldValues field : fields) {
                            field.skip(out + row);
                        }
                        continue;
                    }
                    split(where, VARBINARY.getSlice(rows, row), layout, fields, out + row);
                }
                out += count;
            }
            pageStart = pageEnd;
        }
        Optional<boolean[]> nulls = Optional.of(rowIsNull);
        Block[] fieldBlocks = new Block[fields.length];
        for (int field = 0; field < fields.length; field++) {
            fieldBlocks[field] = fields[field].build(nulls, rowCount);
        }
        return RowBlock.fromNotNullSuppressedFieldBlocks(rowCount, PageBlocks.bitmap(nulls, rowCount), fieldBlocks);
    }

    /** The values of one field over the rows read, gathered before they become a block. */
    private static final class FieldValues
    {
        private final Type type;
        private final PageBlocks.Kind kind;
        private final long[] fixed;
        private final DynamicSliceOutput bytes;
        private final int[] offsets;

        FieldValues(Type type, int rows)
        {
            this.type = type;
            this.kind = PageBlocks.kind(type);
            this.fixed = switch (kind) {
                case FIXED -> new long[rows];
                case FIXED_128 -> new long[rows * 2];
                case VARIABLE -> null;
            };
            this.bytes = kind == PageBlocks.Kind.VARIABLE ? new DynamicSliceOutput(rows * 8) : null;
            this.offsets = kind == PageBlocks.Kind.VARIABLE ? new int[rows + 1] : null;
        }

        void add(int row, Slice data, int position, int length)
        {
            switch (kind) {
                case FIXED -> fixed[row] = unsigned(data, position, length);
                case FIXED_128 -> {
                    fixed[row * 2] = data.getLong(position);
                    fixed[row * 2 + 1] = data.getLong(position + 8);
                }
                case VARIABLE -> {
                    bytes.writeBytes(data, position, length);
                    offsets[row + 1] = bytes.size();
                }
            }
        }

        void skip(int row)
        {
            if (offsets != null) {
                offsets[row + 1] = bytes.size();
            }
        }

        Block build(Optional<boolean[]> nulls, int rows)
        {
            return switch (kind) {
                case FIXED -> PageBlocks.fixed(type, fixed, 0, rows, nulls);
                case FIXED_128 -> PageBlocks.fixed128((DecimalType) type, fixed, 0, rows, nulls);
                case VARIABLE -> PageBlocks.variable(new VariableValues(bytes.slice(), offsets), 0, rows, nulls);
            };
        }
    }

    private static List<FieldLayout> layout(String where, PageLayout layout, List<Type> fieldTypes)
    {
        List<FieldLayout> fields = new ArrayList<>();
        switch (layout.getLayoutCase()) {
            case MINI_BLOCK_LAYOUT -> {
                CompressiveEncoding values = layout.getMiniBlockLayout().getValueCompression();
                while (values.hasGeneral()) {
                    values = values.getGeneral().getValues();
                }
                if (!values.hasPackedStruct()) {
                    throw new UnsupportedLanceEncodingException(where + ": packed struct values " + values.getCompressionCase() + " are not decoded");
                }
                for (long bits : values.getPackedStruct().getBitsPerValueList()) {
                    fields.add(new FieldLayout(bytes(where, bits), 0));
                }
            }
            case FULL_ZIP_LAYOUT -> {
                CompressiveEncoding values = layout.getFullZipLayout().getValueCompression();
                if (!values.hasVariablePackedStruct()) {
                    throw new UnsupportedLanceEncodingException(where + ": packed struct values " + values.getCompressionCase() + " are not decoded");
                }
                for (VariablePackedStruct.FieldEncoding field : values.getVariablePackedStruct().getFieldsList()) {
                    switch (field.getLayoutCase()) {
                        case BITS_PER_VALUE -> {
                            if (!field.getValue().hasFlat()) {
                                throw new UnsupportedLanceEncodingException(where + ": packed field values " + field.getValue().getCompressionCase() + " are not decoded");
                            }
                            fields.add(new FieldLayout(bytes(where, field.getBitsPerValue()), 0));
                        }
                        case BITS_PER_LENGTH -> {
                            CompressiveEncoding value = field.getValue();
                            // FSST compresses each value of the field on its own, with one symbol table per page
                            Optional<FsstDecoder> fsst = Optional.empty();
                            if (value.hasFsst()) {
                                fsst = Optional.of(FsstDecoder.of(value.getFsst().getSymbolTable()));
                                value = value.getFsst().getValues();
                            }
                            if (!value.hasVariable()) {
                                throw new UnsupportedLanceEncodingException(where + ": packed field values " + value.getCompressionCase() + " are not decoded");
                            }
                            fields.add(new FieldLayout(0, bytes(where, field.getBitsPerLength()), fsst));
                        }
                        default -> throw new UnsupportedLanceEncodingException(where + ": packed field without a layout");
                    }
                }
            }
            case CONSTANT_LAYOUT -> {
                // no encoding to read widths from: the fields' own widths, when all are fixed
                for (Type fieldType : fieldTypes) {
                    if (PageBlocks.kind(fieldType) == PageBlocks.Kind.VARIABLE) {
                        throw new UnsupportedLanceEncodingException(where + ": constant page of a packed struct with variable-width fields");
                    }
                    fields.add(new FieldLayout(bytes(where, PageBlocks.storedBits(fieldType)), 0));
                }
            }
            default -> throw new UnsupportedLanceEncodingException(where + ": packed struct in page layout " + layout.getLayoutCase() + " is not decoded");
        }
        if (fields.size() != fieldTypes.size()) {
            throw new IllegalArgumentException(where + ": packed struct of %s fields cannot be read as %s fields".formatted(fields.size(), fieldTypes.size()));
        }
        for (int field = 0; field < fields.size(); field++) {
            Type fieldType = fieldTypes.get(field);
            int fixedBytes = fields.get(field).fixedBytes();
            PageBlocks.Kind kind = PageBlocks.kind(fieldType);
            boolean fits = switch (kind) {
                // fixed-size binary inside the struct is read as its bytes
                case VARIABLE -> true;
                case FIXED, FIXED_128 -> fixedBytes > 0 && fixedBytes * 8 == PageBlocks.storedBits(fieldType);
            };
            if (!fits) {
                // e.g. booleans, which a packed row may store in a width of their own: the SDK reads them
                throw new UnsupportedLanceEncodingException(where + ": packed field %s of %s bytes cannot be read as %s".formatted(field, fixedBytes, fieldType));
            }
        }
        return fields;
    }

    private static int bytes(String where, long bits)
    {
        if (bits <= 0 || bits % 8 != 0) {
            throw new UnsupportedLanceEncodingException(where + ": packed field of %s bits is not decoded".formatted(bits));
        }
        return toIntExact(bits / 8);
    }

    private static void split(String where, Slice row, List<FieldLayout> layout, FieldValues[] fields, int out)
    {
        int position = 0;
        for (int field = 0; field < layout.size(); field++) {
            FieldLayout fieldLayout = layout.get(field);
            int length;
            if (fieldLayout.fixedBytes() > 0) {
                length = fieldLayout.fixedBytes();
            }
            else {
                length = toIntExact(unsigned(row, position, fieldLayout.lengthBytes()));
                position += fieldLayout.lengthBytes();
            }
            if (position + length > row.length()) {
                throw new IllegalStateException(where + ": packed row of %s bytes ends inside field %s".formatted(row.length(), field));
            }
            if (fieldLayout.fsst().isPresent()) {
                Slice value = fieldLayout.fsst().get().decompress(new VariableValues(row.slice(position, length), new int[] {0, length})).data();
                fields[field].add(out, value, 0, value.length());
            }
            else {
                fields[field].add(out, row, position, length);
            }
            position += length;
        }
    }

    private static long unsigned(Slice slice, int position, int bytes)
    {
        return switch (bytes) {
            case 1 -> slice.getUnsignedByte(position);
            case 2 -> slice.getUnsignedShort(position);
            case 4 -> slice.getUnsignedInt(position);
            case 8 -> slice.getLong(position);
            default -> throw new UnsupportedLanceEncodingException("packed value of %s bytes".formatted(bytes));
        };
    }
}
