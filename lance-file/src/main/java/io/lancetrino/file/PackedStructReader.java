package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.lancetrino.file.codec.FsstDecoder;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.VariablePackedStruct;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
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
        List<BlockBuilder> fields = new ArrayList<>();
        for (Type fieldType : fieldTypes) {
            fields.add(fieldType.createBlockBuilder(null, rowCount));
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
                        rowIsNull[out + row] = true;
                        fields.forEach(BlockBuilder::appendNull);
                        continue;
                    }
                    split(where, VARBINARY.getSlice(rows, row), layout, fieldTypes, fields);
                }
                out += count;
            }
            pageStart = pageEnd;
        }
        Block[] fieldBlocks = fields.stream().map(BlockBuilder::build).toArray(Block[]::new);
        return RowBlock.fromNotNullSuppressedFieldBlocks(rowCount, PageBlocks.bitmap(Optional.of(rowIsNull), rowCount), fieldBlocks);
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
                                fsst = Optional.of(new FsstDecoder(value.getFsst().getSymbolTable().toByteArray()));
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
                throw new IllegalArgumentException(where + ": packed field %s of %s bytes cannot be read as %s".formatted(field, fixedBytes, fieldType));
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

    private static void split(String where, Slice row, List<FieldLayout> layout, List<Type> fieldTypes, List<BlockBuilder> fields)
    {
        int position = 0;
        for (int field = 0; field < layout.size(); field++) {
            FieldLayout fieldLayout = layout.get(field);
            Type fieldType = fieldTypes.get(field);
            BlockBuilder builder = fields.get(field);
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
            switch (PageBlocks.kind(fieldType)) {
                case VARIABLE -> {
                    Slice value = row.slice(position, length);
                    if (fieldLayout.fsst().isPresent()) {
                        value = fieldLayout.fsst().get().decompress(new VariableValues(value, new int[] {0, length})).data();
                    }
                    fieldType.writeSlice(builder, value);
                }
                case FIXED -> builder.append(PageBlocks.fixed(fieldType, new long[] {unsigned(row, position, length)}, 0, 1, Optional.empty()).getUnderlyingValueBlock(), 0);
                case FIXED_128 -> builder.append(PageBlocks.fixed128((DecimalType) fieldType, new long[] {row.getLong(position), row.getLong(position + 8)}, 0, 1, Optional.empty()).getUnderlyingValueBlock(), 0);
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
