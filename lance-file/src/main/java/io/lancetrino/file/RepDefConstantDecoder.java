package io.lancetrino.file;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.codec.ValueDecoders;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.ConstantLayout;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.block.Block;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

import static java.lang.Math.toIntExact;

/**
 * Decodes a constant or all-null page of a nested leaf: every valid value is the inline value (none: all null), and
 * the page's buffers hold its rep levels, then its def levels, when it has them (raw u16 without a compression).
 */
final class RepDefConstantDecoder
{
    private RepDefConstantDecoder() {}

    static RepDefMiniBlockDecoder.Rows decode(String where, ConstantLayout layout, TrinoInput input, LancePage page, Type type)
            throws IOException
    {
        RepDefLayers layers = new RepDefLayers(where, layout.getLayersList());
        int repCount = toIntExact(layout.getNumRepValues());
        int defCount = toIntExact(layout.getNumDefValues());
        boolean valueInBuffer = ConstantValue.inBuffer(layout, page.bufferSizes().size());
        // a variable-width value is the first buffer, the levels follow it
        int buffer = valueInBuffer ? 1 : 0;
        Slice value = valueInBuffer ? ConstantValue.variableWidth(where, read(where, input, page, 0)) : null;
        int[] rep = null;
        int[] def = null;
        if (repCount > 0) {
            rep = levels(where, layout.hasRepCompression() ? layout.getRepCompression() : null, read(where, input, page, buffer++), repCount);
        }
        if (defCount > 0) {
            def = levels(where, layout.hasDefCompression() ? layout.getDefCompression() : null, read(where, input, page, buffer), defCount);
        }
        if (repCount == 0 && defCount == 0 && page.bufferSizes().size() == buffer + 2) {
            // pages without level counts (2.1 all-null pages, the SDK's constant pages): the raw rep levels, then the def levels
            Slice repData = read(where, input, page, buffer);
            Slice defData = read(where, input, page, buffer + 1);
            rep = repData.length() == 0 ? null : levels(where, null, repData, repData.length() / 2);
            def = defData.length() == 0 ? null : levels(where, null, defData, defData.length() / 2);
        }
        if (layers.lists() > 0 && rep == null) {
            throw new UnsupportedLanceEncodingException(where + ": constant page of list layers without rep levels");
        }
        if (def == null && !layout.hasInlineValue() && value == null) {
            // all null, but at which layer the page does not say
            throw new UnsupportedLanceEncodingException(where + ": all-null page of a nested leaf without def levels");
        }
        if (rep != null && def != null && rep.length != def.length) {
            throw new IllegalStateException(where + ": %s rep and %s def levels".formatted(rep.length, def.length));
        }
        int entries = rep != null ? rep.length : def != null ? def.length : toIntExact(page.rows());
        boolean[] nulls = new boolean[entries];
        int slots = 0;
        for (int entry = 0; entry < entries; entry++) {
            int level = def == null ? 0 : def[entry];
            if (layers.hasSlot(level)) {
                nulls[slots++] = level != 0 || (!layout.hasInlineValue() && value == null);
            }
        }
        Block values = values(where, layout, value, type, slots, Arrays.copyOf(nulls, slots));
        return new RepDefMiniBlockDecoder.Rows(new LeafLevels(layers, entries, rep, def, values), 0);
    }

    private static Block values(String where, ConstantLayout layout, Slice variableValue, Type type, int count, boolean[] nulls)
    {
        Optional<boolean[]> isNull = Optional.of(nulls);
        if (variableValue != null) {
            if (PageBlocks.kind(type) != PageBlocks.Kind.VARIABLE) {
                throw new UnsupportedLanceEncodingException(where + ": constant value of type " + type + " in a buffer");
            }
            int[] offsets = new int[count + 1];
            io.airlift.slice.DynamicSliceOutput bytes = new io.airlift.slice.DynamicSliceOutput(variableValue.length() * count);
            for (int i = 0; i < count; i++) {
                if (!nulls[i]) {
                    bytes.writeBytes(variableValue);
                }
                offsets[i + 1] = bytes.size();
            }
            return PageBlocks.variable(new VariableValues(bytes.slice(), offsets), 0, count, isNull);
        }
        Slice value = layout.hasInlineValue() ? Slices.wrappedBuffer(layout.getInlineValue().toByteArray()) : null;
        return switch (PageBlocks.kind(type)) {
            case FIXED -> {
                long[] values = new long[count];
                if (value != null) {
                    Arrays.fill(values, LanceColumnReader.inlineFixed(where, value));
                }
                yield PageBlocks.fixed(type, values, 0, count, isNull);
            }
            case FIXED_128 -> {
                long[] values = new long[count * 2];
                if (value != null) {
                    for (int i = 0; i < count; i++) {
                        values[2 * i] = value.getLong(0);
                        values[2 * i + 1] = value.getLong(8);
                    }
                }
                yield PageBlocks.fixed128((DecimalType) type, values, 0, count, isNull);
            }
            case VARIABLE -> {
                if (value != null) {
                    throw new UnsupportedLanceEncodingException(where + ": inline constant for variable-width type " + type);
                }
                yield PageBlocks.variable(new VariableValues(Slices.EMPTY_SLICE, new int[count + 1]), 0, count, isNull);
            }
        };
    }

    private static Slice read(String where, TrinoInput input, LancePage page, int buffer)
            throws IOException
    {
        if (buffer >= page.bufferPositions().size()) {
            throw new IllegalStateException(where + ": constant page without its level buffer " + buffer);
        }
        return LanceColumnReader.readBuffer(input, page, buffer);
    }

    private static int[] levels(String where, CompressiveEncoding compression, Slice data, int count)
    {
        int[] levels = new int[count];
        if (compression == null) {
            if (data.length() < count * 2) {
                throw new IllegalStateException(where + ": %s bytes for %s raw levels".formatted(data.length(), count));
            }
            for (int i = 0; i < count; i++) {
                levels[i] = data.getUnsignedShort(i * 2);
            }
            return levels;
        }
        long[] decoded = ValueDecoders.decodeFixed(compression, data, count);
        for (int i = 0; i < count; i++) {
            levels[i] = toIntExact(decoded[i]);
        }
        return levels;
    }
}
