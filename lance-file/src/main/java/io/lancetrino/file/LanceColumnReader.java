package io.lancetrino.file;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.codec.ValueDecoders;
import io.lancetrino.file.proto.encodings.ConstantLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.Math.toIntExact;

/**
 * Reads a row range of one leaf column of a Lance 2.1/2.2 file into a Trino block. Throws
 * {@link UnsupportedLanceEncodingException} for layouts or encodings it does not decode, so callers can fall back.
 */
public final class LanceColumnReader
{
    private LanceColumnReader() {}

    public static Block read(TrinoInputFile file, LanceFileMetadata metadata, int columnIndex, Type type, long rowStart, int rowCount)
            throws IOException
    {
        try (TrinoInput input = file.newInput()) {
            return read(input, metadata.columns().get(columnIndex), type, rowStart, rowCount);
        }
    }

    public static Block read(TrinoInput input, LanceColumn column, Type type, long rowStart, int rowCount)
            throws IOException
    {
        checkArgument(rowStart >= 0 && rowCount >= 0 && rowStart + rowCount <= column.rows(), "rows [%s, +%s) outside column of %s rows", rowStart, rowCount, column.rows());
        List<Block> blocks = new ArrayList<>();
        for (LanceColumn.PageRows page : column.pagesOf(rowStart, rowStart + rowCount)) {
            String where = "column %s page %s".formatted(column.index(), page.index());
            blocks.add(decodePage(where, input, page.page(), type, page.from(), page.to()));
        }
        return concat(type, blocks, rowCount);
    }

    private static Block decodePage(String where, TrinoInput input, LancePage page, Type type, int from, int to)
            throws IOException
    {
        PageLayout layout = page.layout();
        checkItems(where, layout, page);
        try {
            if (FixedSizeListDecoder.isFixedSizeList(layout)) {
                // vectors: fixed-size lists of fixed-width values, in MiniBlock or FullZip pages
                return FixedSizeListDecoder.decode(where, input, page, type, from, to);
            }
            return switch (layout.getLayoutCase()) {
                case MINI_BLOCK_LAYOUT -> MiniBlockPageDecoder.decode(where, layout.getMiniBlockLayout(), readBuffers(input, page), type, from, to);
                case FULL_ZIP_LAYOUT -> FullZipPageDecoder.decode(where, layout.getFullZipLayout(), readBuffers(input, page), type, from, to);
                case CONSTANT_LAYOUT -> constant(where, layout.getConstantLayout(), input, page, type, from, to);
                default -> throw new UnsupportedLanceEncodingException(where + ": page layout " + layout.getLayoutCase() + " is not decoded");
            };
        }
        catch (UnsupportedLanceEncodingException e) {
            if (e.getMessage().startsWith(where)) {
                throw e;
            }
            // name the column and page, so a fallback can be logged and diagnosed
            throw new UnsupportedLanceEncodingException(where + ": " + e.getMessage());
        }
        catch (IndexOutOfBoundsException | IllegalStateException | ArithmeticException | NegativeArraySizeException | io.airlift.compress.v3.MalformedInputException e) {
            // sizes, offsets or counts in the page that do not fit its buffers: a damaged file, not a reader limitation
            throw new IOException("%s is corrupt: %s".formatted(where, e.getMessage()), e);
        }
    }

    /**
     * Without repetition a leaf has one item per row: a layout that holds another number than the column metadata's
     * page length would shift the rows of every later page, so it is refused as corrupt rather than read.
     */
    private static void checkItems(String where, PageLayout layout, LancePage page)
            throws IOException
    {
        long items = switch (layout.getLayoutCase()) {
            case MINI_BLOCK_LAYOUT -> layout.getMiniBlockLayout().hasRepCompression() ? -1 : layout.getMiniBlockLayout().getNumItems();
            case FULL_ZIP_LAYOUT -> layout.getFullZipLayout().getBitsRep() != 0 ? -1 : Integer.toUnsignedLong(layout.getFullZipLayout().getNumItems());
            default -> -1;
        };
        if (items >= 0 && items != page.rows()) {
            throw new IOException("%s is corrupt: its layout holds %s items, the column metadata says %s rows".formatted(where, items, page.rows()));
        }
    }

    /**
     * A constant page: every row the page's value (inline in the layout, or in its first buffer) or NULL, where its
     * def levels (raw u16 unless the layout names a compression, after an empty rep buffer) say so; none at all when
     * every row is NULL or none is.
     */
    private static Block constant(String where, ConstantLayout layout, TrinoInput input, LancePage page, Type type, int from, int to)
            throws IOException
    {
        int count = to - from;
        int buffers = page.bufferSizes().size();
        boolean valueInBuffer = ConstantValue.inBuffer(layout, buffers);
        if (layout.getNumRepValues() > 0 || (buffers - (valueInBuffer ? 1 : 0) > 0 && page.bufferSizes().get(valueInBuffer ? 1 : 0) > 0)) {
            throw new UnsupportedLanceEncodingException(where + ": constant page with rep levels");
        }
        Block single;
        if (layout.hasInlineValue()) {
            Slice value = Slices.wrappedBuffer(layout.getInlineValue().toByteArray());
            single = switch (PageBlocks.kind(type)) {
                case FIXED -> PageBlocks.fixed(type, new long[] {inlineFixed(where, value)}, 0, 1, Optional.empty());
                case FIXED_128 -> PageBlocks.fixed128((DecimalType) type, new long[] {value.getLong(0), value.getLong(8)}, 0, 1, Optional.empty());
                // only fixed-width values are inlined: fixed-size binary or a packed struct's row, read as their bytes
                case VARIABLE -> new VariableWidthBlock(1, value, new int[] {0, value.length()}, Optional.empty());
            };
        }
        else if (valueInBuffer) {
            if (PageBlocks.kind(type) != PageBlocks.Kind.VARIABLE) {
                throw new UnsupportedLanceEncodingException(where + ": constant value of type " + type + " in a buffer");
            }
            Slice value = ConstantValue.variableWidth(where, readBuffer(input, page, 0));
            single = new VariableWidthBlock(1, value, new int[] {0, value.length()}, Optional.empty());
        }
        else {
            // every row NULL
            return RunLengthEncodedBlock.create(type, null, count);
        }
        int defBuffer = valueInBuffer ? 2 : 1;
        if (buffers <= defBuffer) {
            return RunLengthEncodedBlock.create(single, count);
        }
        // some rows NULL: the value and NULL as a dictionary, each row's def level its id
        Slice levels = readBuffer(input, page, defBuffer);
        int[] ids = new int[count];
        if (layout.getNumDefValues() > 0) {
            long[] decoded = ValueDecoders.decodeFixed(layout.getDefCompression(), levels, toIntExact(layout.getNumDefValues()));
            for (int row = 0; row < count; row++) {
                ids[row] = decoded[from + row] == 0 ? 0 : 1;
            }
        }
        else {
            if (levels.length() < 2L * to) {
                throw new IllegalStateException(where + ": %s bytes for %s def levels".formatted(levels.length(), to));
            }
            for (int row = 0; row < count; row++) {
                ids[row] = levels.getShort(2 * (from + row)) == 0 ? 0 : 1;
            }
        }
        BlockBuilder dictionary = type.createBlockBuilder(null, 2);
        dictionary.append(single.getUnderlyingValueBlock(), single.getUnderlyingValuePosition(0));
        dictionary.appendNull();
        return DictionaryBlock.create(count, dictionary.build(), ids);
    }

    static Slice readBuffer(TrinoInput input, LancePage page, int buffer)
            throws IOException
    {
        return input.readFully(page.bufferPositions().get(buffer), toIntExact(page.bufferSizes().get(buffer)));
    }

    static long inlineFixed(String where, Slice value)
    {
        return switch (value.length()) {
            case 1 -> value.getUnsignedByte(0);
            case 2 -> value.getUnsignedShort(0);
            case 4 -> value.getUnsignedInt(0);
            case 8 -> value.getLong(0);
            default -> throw new UnsupportedLanceEncodingException(where + ": inline constant of " + value.length() + " bytes");
        };
    }

    static List<Slice> readBuffers(TrinoInput input, LancePage page)
            throws IOException
    {
        ImmutableList.Builder<Slice> buffers = ImmutableList.builder();
        for (int i = 0; i < page.bufferPositions().size(); i++) {
            buffers.add(input.readFully(page.bufferPositions().get(i), toIntExact(page.bufferSizes().get(i))));
        }
        return buffers.build();
    }

    /**
     * The blocks one after another as one block of {@code type}; dictionary and run-length blocks of different pages or
     * ranges share no dictionary, so their values are copied.
     */
    public static Block concat(Type type, List<Block> blocks, int rowCount)
    {
        if (blocks.size() == 1) {
            return blocks.getFirst();
        }
        BlockBuilder builder = type.createBlockBuilder(null, rowCount);
        for (Block block : blocks) {
            if (block instanceof ValueBlock valueBlock) {
                builder.appendRange(valueBlock, 0, valueBlock.getPositionCount());
                continue;
            }
            for (int position = 0; position < block.getPositionCount(); position++) {
                builder.append(block.getUnderlyingValueBlock(), block.getUnderlyingValuePosition(position));
            }
        }
        return builder.build();
    }
}
