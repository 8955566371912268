package io.lancetrino.file;

import com.google.common.collect.ImmutableList;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Reads a row range of a nested column (Trino arrays and rows over Arrow lists and structs) from its leaf columns,
 * one physical column per primitive leaf in pre-order. Each leaf's rep/def levels give the shape; the struct and list
 * nulls and the list offsets come from the first leaf under them. Throws {@link UnsupportedLanceEncodingException} for
 * pages or types it does not decode, so callers can fall back.
 */
public final class NestedColumnReader
{
    private NestedColumnReader() {}

    /** Whether the type is one this reader assembles: arrays and rows over primitive leaves. */
    public static boolean isNested(Type type)
    {
        return type instanceof ArrayType || type instanceof RowType;
    }

    /** The primitive leaf types of a nested type, in the order of their physical columns. */
    public static List<Type> leafTypes(Type type)
    {
        ImmutableList.Builder<Type> leaves = ImmutableList.builder();
        addLeaves(type, leaves);
        return leaves.build();
    }

    private static void addLeaves(Type type, ImmutableList.Builder<Type> leaves)
    {
        switch (type) {
            case ArrayType array -> addLeaves(array.getElementType(), leaves);
            case RowType row -> row.getFields().forEach(field -> addLeaves(field.getType(), leaves));
            default -> leaves.add(type);
        }
    }

    public static Block read(TrinoInput input, List<LanceColumn> leaves, Type type, long rowStart, int rowCount)
            throws IOException
    {
        List<Type> leafTypes = leafTypes(type);
        checkArgument(leafTypes.size() == leaves.size(), "%s leaf columns for type %s", leaves.size(), type);
        List<LeafTree> trees = new ArrayList<>();
        for (int i = 0; i < leaves.size(); i++) {
            LanceColumn leaf = leaves.get(i);
            LeafLevels levels = readLevels(input, leaf, leafTypes.get(i), rowStart, rowCount);
            LeafTree tree = LeafTree.build("column " + leaf.index(), levels);
            if (tree.rows() != rowCount) {
                throw new IllegalStateException("column %s: levels describe %s rows, %s wanted".formatted(leaf.index(), tree.rows(), rowCount));
            }
            trees.add(tree);
        }
        return assemble(type, trees, 0);
    }

    private static Block assemble(Type type, List<LeafTree> leaves, int depth)
    {
        LeafTree first = leaves.getFirst();
        int layer = first.layers().size() - 1 - depth;
        if (layer < 0) {
            throw new UnsupportedLanceEncodingException("column type %s is deeper than the leaf's layers %s".formatted(type, first.layers()));
        }
        switch (type) {
            case ArrayType array -> {
                if (!first.layers().isList(layer)) {
                    throw new UnsupportedLanceEncodingException("array type %s over layer %s of %s".formatted(type, layer, first.layers()));
                }
                Block elements = assemble(array.getElementType(), leaves, depth + 1);
                int positions = first.positions(layer);
                return ArrayBlock.fromElementBlock(positions, PageBlocks.bitmap(Optional.of(first.nulls(layer)), positions), first.offsets(layer), elements);
            }
            case RowType row -> {
                if (first.layers().isList(layer)) {
                    throw new UnsupportedLanceEncodingException("row type %s over list layer %s of %s".formatted(type, layer, first.layers()));
                }
                Block[] fields = new Block[row.getFields().size()];
                int next = 0;
                for (int field = 0; field < fields.length; field++) {
                    Type fieldType = row.getFields().get(field).getType();
                    int count = leafTypes(fieldType).size();
                    fields[field] = assemble(fieldType, leaves.subList(next, next + count), depth + 1);
                    next += count;
                }
                int positions = first.positions(layer);
                return RowBlock.fromNotNullSuppressedFieldBlocks(positions, PageBlocks.bitmap(Optional.of(first.nulls(layer)), positions), fields);
            }
            default -> {
                if (layer != 0 || leaves.size() != 1) {
                    throw new UnsupportedLanceEncodingException("leaf type %s at layer %s of %s".formatted(type, layer, first.layers()));
                }
                return first.values();
            }
        }
    }

    /** The levels and value slots of the rows [rowStart, rowStart + rowCount) of one leaf column. */
    static LeafLevels readLevels(TrinoInput input, LanceColumn column, Type type, long rowStart, int rowCount)
            throws IOException
    {
        checkArgument(rowStart >= 0 && rowCount >= 0 && rowStart + rowCount <= column.rows(), "rows [%s, +%s) outside column of %s rows", rowStart, rowCount, column.rows());
        List<LeafLevels> parts = new ArrayList<>();
        for (LanceColumn.PageRows page : column.pagesOf(rowStart, rowStart + rowCount)) {
            String where = "column %s page %s".formatted(column.index(), page.index());
            try {
                RepDefMiniBlockDecoder.Rows decoded = decodePage(where, input, page.page(), type, page.from(), page.to());
                parts.add(rows(where, decoded.levels(), page.from() - decoded.rowOffset(), page.to() - decoded.rowOffset()));
            }
            catch (UnsupportedLanceEncodingException e) {
                throw e.getMessage().startsWith(where) ? e : new UnsupportedLanceEncodingException(where + ": " + e.getMessage());
            }
        }
        if (parts.isEmpty()) {
            throw new UnsupportedLanceEncodingException("column %s: no pages for rows [%s, +%s)".formatted(column.index(), rowStart, rowCount));
        }
        return concat(type, parts);
    }

    private static RepDefMiniBlockDecoder.Rows decodePage(String where, TrinoInput input, LancePage page, Type type, int from, int to)
            throws IOException
    {
        PageLayout layout = page.layout();
        return switch (layout.getLayoutCase()) {
            case MINI_BLOCK_LAYOUT -> RepDefMiniBlockDecoder.decodeRows(where, layout.getMiniBlockLayout(), LanceColumnReader.readBuffers(input, page), type, from, to);
            case FULL_ZIP_LAYOUT -> RepDefFullZipDecoder.decodeRows(where, layout.getFullZipLayout(), input, page, type, from, to);
            case CONSTANT_LAYOUT -> RepDefConstantDecoder.decode(where, layout.getConstantLayout(), input, page, type);
            default -> throw new UnsupportedLanceEncodingException(where + ": page layout " + layout.getLayoutCase() + " of a nested column is not decoded");
        };
    }

    /** The entries and value slots of rows [from, to) of a page's levels. */
    private static LeafLevels rows(String where, LeafLevels page, int from, int to)
    {
        RepDefLayers layers = page.layers();
        int entryFrom;
        int entryTo;
        if (page.rep() == null) {
            entryFrom = from;
            entryTo = to;
        }
        else {
            entryFrom = -1;
            entryTo = page.entries();
            int row = 0;
            for (int entry = 0; entry < page.entries(); entry++) {
                if (page.rep(entry) == layers.lists()) {
                    if (row == from) {
                        entryFrom = entry;
                    }
                    if (row == to) {
                        entryTo = entry;
                        break;
                    }
                    row++;
                }
            }
            if (entryFrom < 0) {
                throw new IllegalStateException(where + ": page has %s rows, row %s wanted".formatted(row, from));
            }
        }
        if (entryFrom == 0 && entryTo == page.entries()) {
            return page;
        }
        int slotFrom = slots(page, 0, entryFrom);
        int slotCount = slots(page, entryFrom, entryTo);
        return new LeafLevels(
                layers,
                entryTo - entryFrom,
                page.rep() == null ? null : java.util.Arrays.copyOfRange(page.rep(), entryFrom, entryTo),
                page.def() == null ? null : java.util.Arrays.copyOfRange(page.def(), entryFrom, entryTo),
                page.values().getRegion(slotFrom, slotCount));
    }

    private static int slots(LeafLevels levels, int from, int to)
    {
        if (levels.def() == null) {
            // nothing null or empty: every entry has a slot
            return to - from;
        }
        int slots = 0;
        for (int entry = from; entry < to; entry++) {
            if (levels.layers().hasSlot(levels.def(entry))) {
                slots++;
            }
        }
        return slots;
    }

    private static LeafLevels concat(Type type, List<LeafLevels> parts)
    {
        if (parts.size() == 1) {
            return parts.getFirst();
        }
        RepDefLayers layers = parts.getFirst().layers();
        int entries = parts.stream().mapToInt(LeafLevels::entries).sum();
        boolean anyRep = parts.stream().anyMatch(part -> part.rep() != null);
        boolean anyDef = parts.stream().anyMatch(part -> part.def() != null);
        int[] rep = anyRep ? new int[entries] : null;
        int[] def = anyDef ? new int[entries] : null;
        BlockBuilder values = type.createBlockBuilder(null, entries);
        int position = 0;
        for (LeafLevels part : parts) {
            if (!part.layers().toString().equals(layers.toString())) {
                throw new UnsupportedLanceEncodingException("pages with different rep/def layers: %s and %s".formatted(layers, part.layers()));
            }
            for (int entry = 0; entry < part.entries(); entry++) {
                if (rep != null) {
                    rep[position + entry] = part.rep(entry);
                }
                if (def != null) {
                    def[position + entry] = part.def(entry);
                }
            }
            position += part.entries();
            Block block = part.values();
            if (block instanceof ValueBlock valueBlock) {
                values.appendRange(valueBlock, 0, valueBlock.getPositionCount());
            }
            else {
                for (int i = 0; i < block.getPositionCount(); i++) {
                    values.append(block.getUnderlyingValueBlock(), block.getUnderlyingValuePosition(i));
                }
            }
        }
        return new LeafLevels(layers, entries, rep, def, values.build());
    }
}
