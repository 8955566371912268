package io.lancetrino.index;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.protobuf.InvalidProtocolBufferException;
import io.airlift.slice.Slice;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.MiniBlockChunks;
import io.lancetrino.file.NestedColumnReader;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.ConstantLayout;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.lancetrino.file.proto.encodings.RepDefLayer;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.proto.Schema;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * One Lance file of an index: its container metadata and its Arrow schema with the schema's metadata (which index
 * files use for parameters such as the btree's {@code batch_size}). Index files have flat schemas: field {@code i} is
 * physical column {@code i}.
 */
record IndexFile(String location, LanceFileMetadata metadata, List<IndexField> fields, Map<String, String> schemaMetadata)
{
    private static final long MAX_SCHEMA_BYTES = 64 * 1024 * 1024;

    /** A top-level field of the file: its name and Lance logical type ({@code int64}, {@code string}, {@code date32:day}, ...). */
    record IndexField(String name, String logicalType) {}

    IndexFile
    {
        requireNonNull(location, "location is null");
        requireNonNull(metadata, "metadata is null");
        fields = ImmutableList.copyOf(requireNonNull(fields, "fields is null"));
        schemaMetadata = ImmutableMap.copyOf(requireNonNull(schemaMetadata, "schemaMetadata is null"));
    }

    /**
     * Reads the container metadata and the schema. Throws {@link UnsupportedLanceEncodingException} for files this
     * reader does not decode (format 2.0 among them), and an {@link IOException} naming the file when it is missing or
     * damaged.
     */
    static IndexFile open(TrinoInputFile file)
            throws IOException
    {
        String location = file.location().toString();
        LanceFileMetadata metadata;
        try {
            metadata = LanceFileMetadata.read(file);
        }
        catch (UnsupportedLanceEncodingException e) {
            throw new UnsupportedLanceEncodingException("Index file %s: %s".formatted(location, e.getMessage()));
        }
        catch (IOException e) {
            throw new IOException("Cannot read index file %s: %s".formatted(location, e.getMessage()), e);
        }
        if (metadata.globalBufferCount() < 1) {
            throw corrupt(location, "no global buffer holds its schema");
        }
        if (metadata.globalBuffers().getFirst().size() > MAX_SCHEMA_BYTES) {
            throw corrupt(location, "its schema buffer has %s bytes".formatted(metadata.globalBuffers().getFirst().size()));
        }
        IndexFile indexFile = parseSchema(location, metadata, metadata.readGlobalBuffer(file, 0));
        if (indexFile.fields.size() != metadata.columns().size()) {
            throw new UnsupportedLanceEncodingException("Index file %s: %s fields in %s columns, not a flat schema".formatted(location, indexFile.fields.size(), metadata.columns().size()));
        }
        return indexFile;
    }

    private static IndexFile parseSchema(String location, LanceFileMetadata metadata, Slice descriptor)
            throws IOException
    {
        Schema schema;
        try {
            schema = FileDescriptor.parseFrom(descriptor.toByteBuffer()).getSchema();
        }
        catch (InvalidProtocolBufferException e) {
            throw corrupt(location, "its schema does not parse: " + e.getMessage());
        }
        ImmutableList.Builder<IndexField> fields = ImmutableList.builder();
        for (Field field : schema.getFieldsList()) {
            if (field.getParentId() != -1) {
                throw new UnsupportedLanceEncodingException("Index file %s: nested field %s".formatted(location, field.getName()));
            }
            fields.add(new IndexField(field.getName(), field.getLogicalType()));
        }
        ImmutableMap.Builder<String, String> schemaMetadata = ImmutableMap.builder();
        schema.getMetadataMap().forEach((key, value) -> schemaMetadata.put(key, value.toStringUtf8()));
        return new IndexFile(location, metadata, fields.build(), schemaMetadata.buildKeepingLast());
    }

    long rows()
    {
        return metadata.columns().isEmpty() ? 0 : metadata.columns().getFirst().rows();
    }

    /** The physical column of a field, checked against the logical types the index kind stores there. */
    int column(String name, String... logicalTypes)
            throws IOException
    {
        for (int index = 0; index < fields.size(); index++) {
            IndexField field = fields.get(index);
            if (field.name().equals(name)) {
                if (logicalTypes.length > 0 && !List.of(logicalTypes).contains(field.logicalType())) {
                    throw corrupt(location, "column %s has type %s, expected %s".formatted(name, field.logicalType(), String.join(" or ", logicalTypes)));
                }
                if (metadata.columns().get(index).rows() != rows()) {
                    throw corrupt(location, "column %s has %s rows, column 0 has %s".formatted(name, metadata.columns().get(index).rows(), rows()));
                }
                return index;
            }
        }
        throw corrupt(location, "it has no column " + name);
    }

    String logicalType(int column)
    {
        return fields.get(column).logicalType();
    }

    /** Rows {@code [rowStart, rowStart + count)} of a column as a block of {@code type}; errors name the file. */
    Block read(TrinoInput input, int column, Type type, long rowStart, int count)
            throws IOException
    {
        LanceColumn lanceColumn = metadata.columns().get(column);
        if (rowStart < 0 || count < 0 || rowStart + count > lanceColumn.rows()) {
            throw corrupt(location, "rows [%s, +%s) of column %s lie outside its %s rows".formatted(rowStart, count, fields.get(column).name(), lanceColumn.rows()));
        }
        try {
            List<Block> parts = new ArrayList<>();
            for (LanceColumn.PageRows rows : lanceColumn.pagesOf(rowStart, rowStart + count)) {
                parts.add(readPage(input, lanceColumn.index(), rows, type));
            }
            return LanceColumnReader.concat(type, parts, count);
        }
        catch (UnsupportedLanceEncodingException e) {
            UnsupportedLanceEncodingException named = new UnsupportedLanceEncodingException("Index file %s, column %s: %s".formatted(location, fields.get(column).name(), e.getMessage()));
            named.initCause(e);
            throw named;
        }
        catch (IOException | RuntimeException e) {
            throw new IOException("Corrupt index file %s, column %s: %s".formatted(location, fields.get(column).name(), e.getMessage()), e);
        }
    }

    /**
     * Rows of one page. A mini-block page is narrowed to the chunks holding the rows first, so a btree page of a few
     * thousand rows reads those chunks rather than the whole Lance page (which may hold the whole column). A page the
     * flat reader does not decode (2.2 constant pages with nulls) is tried with the nested reader's level decoding.
     */
    private static Block readPage(TrinoInput input, int columnIndex, LanceColumn.PageRows rows, Type type)
            throws IOException
    {
        LancePage page = rows.page();
        int from = rows.from();
        int to = rows.to();
        Optional<NarrowedPage> narrowed = page.layout().getLayoutCase() == PageLayout.LayoutCase.FULL_ZIP_LAYOUT
                ? narrowFullZip(input, page, from, to)
                : narrowMiniBlock(input, page, from, to);
        if (narrowed.isPresent()) {
            page = narrowed.get().page();
            from -= narrowed.get().firstRow();
            to -= narrowed.get().firstRow();
        }
        LanceColumn single = new LanceColumn(columnIndex, List.of(page));
        try {
            return LanceColumnReader.read(input, single, type, from, to - from);
        }
        catch (UnsupportedLanceEncodingException e) {
            if (page.layout().getLayoutCase() != PageLayout.LayoutCase.CONSTANT_LAYOUT) {
                throw e;
            }
            try {
                return NestedColumnReader.read(input, List.of(single), type, from, to - from);
            }
            catch (UnsupportedLanceEncodingException nested) {
                if (allNull(page)) {
                    return RunLengthEncodedBlock.create(type, null, to - from);
                }
                Optional<Slice> constant = variableWidthConstant(input, page, type);
                if (constant.isPresent()) {
                    return RunLengthEncodedBlock.create(type, constant.get(), to - from);
                }
                e.addSuppressed(nested);
                throw e;
            }
        }
    }

    /** A constant page of a flat column without a value and without levels: every row is null (2.2 writes these). */
    private static boolean allNull(LancePage page)
    {
        ConstantLayout layout = page.layout().getConstantLayout();
        return !layout.hasInlineValue() && layout.getNumDefValues() == 0 && layout.getNumRepValues() == 0
                && layout.getLayersCount() == 1 && layout.getLayers(0) == RepDefLayer.REPDEF_NULLABLE_ITEM
                && page.bufferSizes().stream().allMatch(size -> size == 0);
    }

    /**
     * A 2.2 constant page of a variable-width value without nulls keeps the value in its one buffer, as observed in
     * files of lance-core 7.0: {@code u32} part count (2), then per part {@code u32} size and bytes: a {@code u64}
     * holding the value's length, then the value. Anything else stays unsupported.
     */
    private static Optional<Slice> variableWidthConstant(TrinoInput input, LancePage page, Type type)
            throws IOException
    {
        ConstantLayout layout = page.layout().getConstantLayout();
        if (!(type instanceof VarcharType || type == VarbinaryType.VARBINARY) || layout.hasInlineValue() || layout.getNumDefValues() != 0 || layout.getNumRepValues() != 0
                || layout.getLayersCount() != 1 || layout.getLayers(0) != RepDefLayer.REPDEF_ALL_VALID_ITEM || page.bufferSizes().size() != 1 || page.bufferSizes().getFirst() > 1 << 20) {
            return Optional.empty();
        }
        Slice buffer = input.readFully(page.bufferPositions().getFirst(), toIntExact(page.bufferSizes().getFirst()));
        if (buffer.length() < 20 || buffer.getInt(0) != 2 || buffer.getInt(4) != 8) {
            return Optional.empty();
        }
        long length = buffer.getLong(8);
        if (buffer.getUnsignedInt(16) != length || 20 + length != buffer.length()) {
            return Optional.empty();
        }
        return Optional.of(buffer.slice(20, toIntExact(length)));
    }

    private record NarrowedPage(LancePage page, long firstRow) {}

    /**
     * A FullZip page narrowed to the records of rows {@code [from, to)}, found through its repetition index (one
     * byte-packed record position per row, and the end), so one bitmap of a large bitmap index is read rather than all
     * of them. The narrowed page has no index: its decoder starts at its first record.
     */
    private static Optional<NarrowedPage> narrowFullZip(TrinoInput input, LancePage page, int from, int to)
            throws IOException
    {
        FullZipLayout layout = page.layout().getFullZipLayout();
        if (page.bufferPositions().size() != 2 || layout.getBitsRep() != 0 || layout.getNumItems() != page.rows() || (from == 0 && to == page.rows())) {
            return Optional.empty();
        }
        long indexSize = page.bufferSizes().get(1);
        long entries = page.rows() + 1;
        if (indexSize % entries != 0) {
            return Optional.empty();
        }
        int width = toIntExact(indexSize / entries);
        if (width != 1 && width != 2 && width != 4 && width != 8) {
            return Optional.empty();
        }
        Slice bounds = input.readFully(page.bufferPositions().get(1) + (long) from * width, (to - from + 1) * width);
        long start = recordPosition(bounds, 0, width);
        long end = recordPosition(bounds, to - from, width);
        if (start < 0 || start > end || end > page.bufferSizes().get(0)) {
            // positions that do not fit the page: the page reader decides
            return Optional.empty();
        }
        int items = to - from;
        PageLayout narrowedLayout = page.layout().toBuilder()
                .setFullZipLayout(layout.toBuilder().setNumItems(items).setNumVisibleItems(items))
                .build();
        LancePage narrowed = new LancePage(items, List.of(page.bufferPositions().get(0) + start), List.of(end - start), narrowedLayout);
        return Optional.of(new NarrowedPage(narrowed, from));
    }

    private static long recordPosition(Slice bounds, int entry, int width)
    {
        return switch (width) {
            case 1 -> bounds.getUnsignedByte(entry);
            case 2 -> bounds.getUnsignedShort(entry * 2);
            case 4 -> bounds.getUnsignedInt(entry * 4);
            default -> bounds.getLong(entry * 8);
        };
    }

    private static Optional<NarrowedPage> narrowMiniBlock(TrinoInput input, LancePage page, int from, int to)
            throws IOException
    {
        return MiniBlockChunks.narrow(input, page, from, to).map(narrowed -> new NarrowedPage(narrowed.page(), narrowed.firstRow()));
    }

    long retainedBytes()
    {
        long bytes = 256 + location.length() * 2L;
        for (LanceColumn column : metadata.columns()) {
            for (LancePage page : column.pages()) {
                bytes += 96 + 32L * page.bufferPositions().size() + page.layout().getSerializedSize();
            }
        }
        return bytes;
    }

    static IOException corrupt(String location, String problem)
    {
        return new IOException("Corrupt index file %s: %s".formatted(location, problem));
    }
}
