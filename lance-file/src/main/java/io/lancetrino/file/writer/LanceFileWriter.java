package io.lancetrino.file.writer;

import com.google.common.collect.ImmutableList;
import com.google.protobuf.ByteString;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.proto.AnyMessage;
import io.lancetrino.file.proto.ColumnMetadata;
import io.lancetrino.file.proto.Encoding;
import io.trino.spi.Page;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

import static java.util.Objects.requireNonNull;

/**
 * Writes one Lance data file (format 2.1 or 2.2) from Trino pages, one leaf column per block, without the Lance SDK.
 * Each column's values are buffered until they make a page of about 8 MiB (as Lance's writer flushes them); the page's
 * buffers go to the output at once, 64-byte aligned. Closing writes the remaining pages, global buffer 0 (the file
 * descriptor, from the caller, who knows the schema), the column metadata, the two offset tables and the footer.
 */
public final class LanceFileWriter
        implements Closeable
{
    private static final int BUFFER_ALIGNMENT = 64;
    private static final long PAGE_BYTES = 8L << 20;
    private static final int FOOTER_MAGIC = 0x434E414C; // "LANC" little-endian
    private static final ByteString PAGE_LAYOUT_TYPE = ByteString.copyFromUtf8("/lance.encodings21.PageLayout");
    // a ColumnEncoding whose values are plain, as the 7.0 writer records on every 2.1+ column
    private static final Encoding COLUMN_ENCODING = direct("/lance.encodings.ColumnEncoding", ByteString.copyFrom(new byte[] {0x0a, 0x00}));

    private final PositionedOutput output;
    private final int majorVersion;
    private final int minorVersion;
    // one per top-level field, in the order of the pages' blocks
    private final List<FieldWriter> fields;
    // one per leaf column of the file
    private final List<ColumnWriter> columns;
    private final List<List<ColumnMetadata.Page>> pages = new ArrayList<>();
    private final long[] rowsInPages;
    private final LongFunction<byte[]> fileDescriptor;
    private final long pageBytes;
    private long rows;
    private boolean closed;

    /**
     * A writer of a file of these columns (some of which may be vectors).
     *
     * @param fileDescriptor global buffer 0 for the file's row count: Lance's {@code FileDescriptor} (schema and rows)
     */
    public static LanceFileWriter create(OutputStream output, int majorVersion, int minorVersion, List<FileColumn> fileColumns, EncodingOptions encodings, LongFunction<byte[]> fileDescriptor)
    {
        return new LanceFileWriter(output, majorVersion, minorVersion, fileColumns, encodings, fileDescriptor, PAGE_BYTES);
    }

    /**
     * @param pageBytes the encoded size at which a column's buffered values become a page
     */
    LanceFileWriter(OutputStream output, int majorVersion, int minorVersion, List<FileColumn> fileColumns, EncodingOptions encodings, LongFunction<byte[]> fileDescriptor, long pageBytes)
    {
        if (majorVersion != 2 || (minorVersion != 1 && minorVersion != 2)) {
            throw new IllegalArgumentException("The Java writer writes Lance file format 2.1 and 2.2, not %s.%s".formatted(majorVersion, minorVersion));
        }
        this.output = new PositionedOutput(requireNonNull(output, "output is null"));
        this.majorVersion = majorVersion;
        this.minorVersion = minorVersion;
        this.fileDescriptor = requireNonNull(fileDescriptor, "fileDescriptor is null");
        this.pageBytes = pageBytes;
        boolean largeChunks = minorVersion >= 2;
        GeneralCompressor compressor = GeneralCompressor.of(encodings);
        GeneralCompressor stringCompressor = GeneralCompressor.forStrings(encodings);
        ImmutableList.Builder<ColumnWriter> leaves = ImmutableList.builder();
        ImmutableList.Builder<FieldWriter> fields = ImmutableList.builder();
        for (FileColumn column : fileColumns) {
            if (column.dimension().isPresent()) {
                ColumnWriter vectors = new FixedSizeListColumnWriter(column.type(), column.dimension().getAsInt(), largeChunks);
                leaves.add(vectors);
                fields.add(vectors);
            }
            else {
                Leaves columnLeaves = new Leaves(largeChunks, compressor, stringCompressor, column.largeOffsetLeaves(), leaves);
                fields.add(fieldWriter(column.type(), 0, columnLeaves));
            }
        }
        this.fields = fields.build();
        this.columns = leaves.build();
        for (int column = 0; column < columns.size(); column++) {
            pages.add(new ArrayList<>());
        }
        this.rowsInPages = new long[columns.size()];
    }

    /**
     * The writer of a field {@code depth} structs down; its leaf columns are added to {@code leaves} in Lance's order
     * (depth first, children in order), which is the order of the file's columns.
     */
    private static FieldWriter fieldWriter(Type type, int depth, Leaves leaves)
    {
        if (type instanceof ArrayType) {
            List<ColumnWriter> arrayLeaves = new ArrayList<>();
            addListLeaves(type, depth, new ArrayList<>(), leaves, arrayLeaves);
            // each leaf walks the arrays (and the rows between them) down to its own values
            return (block, nullStructDepth) -> arrayLeaves.forEach(leaf -> leaf.append(block, nullStructDepth));
        }
        if (type instanceof RowType row) {
            List<FieldWriter> children = row.getTypeParameters().stream()
                    .map(child -> fieldWriter(child, depth + 1, leaves))
                    .toList();
            return new StructFieldWriter(depth + 1, children);
        }
        return leaves.add(leaves.flat(type, depth == 0 ? null : new StructNesting(depth), depth == 0));
    }

    /**
     * The leaf columns of an array {@code structsAbove} structs down, in Lance's order, each with its path from the
     * array: into elements ({@link ListColumnWriter#LIST}) or a struct's field.
     */
    private static void addListLeaves(Type type, int structsAbove, List<Integer> steps, Leaves leaves, List<ColumnWriter> arrayLeaves)
    {
        if (type instanceof ArrayType array) {
            steps.add(ListColumnWriter.LIST);
            addListLeaves(array.getElementType(), structsAbove, steps, leaves, arrayLeaves);
            steps.removeLast();
        }
        else if (type instanceof RowType row) {
            for (int field = 0; field < row.getTypeParameters().size(); field++) {
                steps.add(field);
                addListLeaves(row.getTypeParameters().get(field), structsAbove, steps, leaves, arrayLeaves);
                steps.removeLast();
            }
        }
        else {
            // the SDK 7.0 miscounts the items of full-zip pages with rows between arrays (it fails on its own such files)
            boolean rowsBetweenArrays = steps.subList(0, steps.lastIndexOf(ListColumnWriter.LIST)).stream().anyMatch(step -> step != ListColumnWriter.LIST);
            arrayLeaves.add(leaves.add(new ListColumnWriter(leaves.listItems(type, !rowsBetweenArrays), type, structsAbove, List.copyOf(steps), leaves.largeChunks())));
        }
    }

    /**
     * Makes the leaf writers of one column, numbering its leaves in Lance's order to find those with 64-bit offsets.
     */
    private static final class Leaves
    {
        private final boolean largeChunks;
        private final GeneralCompressor compressor;
        private final GeneralCompressor stringCompressor;
        private final Set<Integer> largeOffsetLeaves;
        private final ImmutableList.Builder<ColumnWriter> fileLeaves;
        private int next;

        Leaves(boolean largeChunks, GeneralCompressor compressor, GeneralCompressor stringCompressor, Set<Integer> largeOffsetLeaves, ImmutableList.Builder<ColumnWriter> fileLeaves)
        {
            this.largeChunks = largeChunks;
            this.compressor = compressor;
            this.stringCompressor = stringCompressor;
            this.largeOffsetLeaves = largeOffsetLeaves;
            this.fileLeaves = fileLeaves;
        }

        boolean largeChunks()
        {
            return largeChunks;
        }

        <T extends ColumnWriter> T add(T leaf)
        {
            fileLeaves.add(leaf);
            return leaf;
        }

        /** The writer of the next leaf's values as a flat column. */
        ColumnWriter flat(Type type, StructNesting nesting, boolean constantPages)
        {
            return flat(type, nesting, constantPages, FixedWidthPageEncoder.MAX_CHUNK_VALUES, true);
        }

        /**
         * The writer of a list's items (the next leaf's) as a flat column. In format 2.1 a chunk holds 32 KiB with its
         * levels, 4 bytes each: its items are held to 1,024 (4 KiB of levels), which leaves room for the levels of
         * the empty and NULL arrays between them (see {@link ListColumnWriter#maxEmptyLevelsPerPage}).
         *
         * @param fullZipPages whether long strings may go in full-zip pages in format 2.1 (else mini-block chunks)
         */
        ColumnWriter listItems(Type type, boolean fullZipPages)
        {
            return flat(type, null, false, largeChunks ? FixedWidthPageEncoder.MAX_CHUNK_VALUES : FastLanesPacker.BLOCK_VALUES, fullZipPages);
        }

        private ColumnWriter flat(Type type, StructNesting nesting, boolean constantPages, int maxChunkValues, boolean fullZipPages)
        {
            int leaf = next++;
            if (largeOffsetLeaves.contains(leaf)) {
                if (!VariableWidthColumnWriter.supports(type)) {
                    throw new IllegalArgumentException("64-bit offsets are for strings and binaries, not %s".formatted(type));
                }
                return new VariableWidthColumnWriter(type, largeChunks, stringCompressor, nesting, constantPages, Long.BYTES, maxChunkValues, fullZipPages);
            }
            if (FixedWidthColumnWriter.supports(type)) {
                return new FixedWidthColumnWriter(type, largeChunks, compressor, nesting, constantPages, maxChunkValues);
            }
            if (VariableWidthColumnWriter.supports(type)) {
                return new VariableWidthColumnWriter(type, largeChunks, stringCompressor, nesting, constantPages, Integer.BYTES, maxChunkValues, fullZipPages);
            }
            if (Decimal128ColumnWriter.supports(type)) {
                return new Decimal128ColumnWriter(type, largeChunks, compressor, nesting, constantPages);
            }
            throw new IllegalArgumentException("The Java writer does not write columns of type %s yet".formatted(type));
        }
    }

    /**
     * Whether the writer writes columns of the type: flat types, and rows and arrays of them, nested in any way.
     */
    public static boolean supports(Type type)
    {
        if (type instanceof ArrayType array) {
            return supports(array.getElementType());
        }
        if (type instanceof RowType row) {
            return !row.getTypeParameters().isEmpty() && row.getTypeParameters().stream().allMatch(LanceFileWriter::supports);
        }
        return FixedWidthColumnWriter.supports(type) || VariableWidthColumnWriter.supports(type) || Decimal128ColumnWriter.supports(type);
    }

    public static boolean supports(FileColumn column)
    {
        if (column.dimension().isPresent()) {
            return FixedSizeListColumnWriter.supports(column.type(), column.dimension().getAsInt());
        }
        return supports(column.type());
    }

    public void write(Page page)
            throws IOException
    {
        if (page.getChannelCount() != fields.size()) {
            throw new IllegalArgumentException("A page of %s blocks for a file of %s fields".formatted(page.getChannelCount(), fields.size()));
        }
        for (int field = 0; field < fields.size(); field++) {
            fields.get(field).append(page.getBlock(field), null);
        }
        for (int column = 0; column < columns.size(); column++) {
            writeCompletedPages(column);
            if (columns.get(column).bufferedBytes() >= pageBytes) {
                writePage(column, columns.get(column).flush());
            }
        }
        rows += page.getPositionCount();
    }

    /** The heap bytes the columns' buffered values hold: up to a page of each column. */
    public long retainedBytes()
    {
        return columns.stream().mapToLong(ColumnWriter::retainedBytes).sum();
    }

    /**
     * Writes the rest of the file and closes the output; returns the file's length in bytes.
     */
    public long finish()
            throws IOException
    {
        for (int column = 0; column < columns.size(); column++) {
            writeCompletedPages(column);
            if (columns.get(column).bufferedRows() > 0 || pages.get(column).isEmpty()) {
                writePage(column, columns.get(column).flush());
            }
        }
        output.align(BUFFER_ALIGNMENT);
        long descriptorPosition = output.position();
        byte[] descriptor = fileDescriptor.apply(rows);
        output.write(descriptor);

        long columnMetadataStart = output.position();
        Slice columnTable = Slices.allocate(16 * pages.size());
        for (int column = 0; column < pages.size(); column++) {
            byte[] metadata = ColumnMetadata.newBuilder()
                    .setEncoding(COLUMN_ENCODING)
                    .addAllPages(pages.get(column))
                    .build()
                    .toByteArray();
            columnTable.setLong(column * 16, output.position());
            columnTable.setLong(column * 16 + 8, metadata.length);
            output.write(metadata);
        }
        long columnTablePosition = output.position();
        output.write(columnTable);
        long globalTablePosition = output.position();
        Slice globalTable = Slices.allocate(16);
        globalTable.setLong(0, descriptorPosition);
        globalTable.setLong(8, descriptor.length);
        output.write(globalTable);

        Slice footer = Slices.allocate(40);
        footer.setLong(0, columnMetadataStart);
        footer.setLong(8, columnTablePosition);
        footer.setLong(16, globalTablePosition);
        footer.setInt(24, 1);
        footer.setInt(28, columns.size());
        footer.setShort(32, majorVersion);
        footer.setShort(34, minorVersion);
        footer.setInt(36, FOOTER_MAGIC);
        output.write(footer);
        close();
        return output.position();
    }

    @Override
    public void close()
            throws IOException
    {
        if (!closed) {
            closed = true;
            output.close();
        }
    }

    private void writeCompletedPages(int column)
            throws IOException
    {
        for (EncodedPage page : columns.get(column).takeCompletedPages()) {
            writePage(column, page);
        }
    }

    private void writePage(int column, EncodedPage page)
            throws IOException
    {
        ColumnMetadata.Page.Builder metadata = ColumnMetadata.Page.newBuilder()
                .setLength(page.rows())
                .setPriority(rowsInPages[column])
                .setEncoding(direct(PAGE_LAYOUT_TYPE, page.layout().toByteString()));
        for (Slice buffer : page.buffers()) {
            output.align(BUFFER_ALIGNMENT);
            metadata.addBufferPositions(output.position());
            metadata.addBufferSizes(buffer.length());
            output.write(buffer);
        }
        rowsInPages[column] += page.rows();
        pages.get(column).add(metadata.build());
    }

    private static Encoding direct(String typeUrl, ByteString value)
    {
        return direct(ByteString.copyFromUtf8(typeUrl), value);
    }

    private static Encoding direct(ByteString typeUrl, ByteString value)
    {
        AnyMessage any = AnyMessage.newBuilder().setTypeUrlBytes(typeUrl).setValue(value).build();
        return Encoding.newBuilder().setDirect(Encoding.Direct.newBuilder().setEncoding(any.toByteString())).build();
    }
}
