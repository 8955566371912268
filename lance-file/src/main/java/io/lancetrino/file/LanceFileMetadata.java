package io.lancetrino.file;

import com.google.common.collect.ImmutableList;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.airlift.slice.Slice;
import io.lancetrino.file.proto.AnyMessage;
import io.lancetrino.file.proto.ColumnMetadata;
import io.lancetrino.file.proto.Encoding;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;

import java.io.IOException;
import java.util.List;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The container of a Lance 2.1/2.2 data file: footer version and per-column pages with their decoded layouts.
 * Reads the file tail once (guessing it holds all column metadata) and reads again only if it did not.
 */
public record LanceFileMetadata(int majorVersion, int minorVersion, List<BufferRange> globalBuffers, List<LanceColumn> columns)
{
    static final int FOOTER_SIZE = 40;
    private static final int MAGIC = 'L' | 'A' << 8 | 'N' << 16 | 'C' << 24;
    private static final int INITIAL_TAIL = 64 * 1024;
    static final String PAGE_LAYOUT_TYPE_URL = "/lance.encodings21.PageLayout";

    public LanceFileMetadata
    {
        globalBuffers = ImmutableList.copyOf(requireNonNull(globalBuffers, "globalBuffers is null"));
        columns = ImmutableList.copyOf(requireNonNull(columns, "columns is null"));
    }

    /** Where a global buffer lies in the file. */
    public record BufferRange(long position, long size) {}

    public int globalBufferCount()
    {
        return globalBuffers.size();
    }

    /**
     * The bytes of one global buffer; buffer 0 of files Lance writes holds the {@code FileDescriptor} (schema and row
     * count).
     */
    public Slice readGlobalBuffer(TrinoInputFile file, int buffer)
            throws IOException
    {
        BufferRange range = globalBuffers.get(buffer);
        try (TrinoInput input = file.newInput()) {
            return input.readFully(range.position(), toIntExact(range.size()));
        }
    }

    public static LanceFileMetadata read(TrinoInputFile file)
            throws IOException
    {
        long length = file.length();
        if (length < FOOTER_SIZE) {
            throw new IOException("Not a Lance file, too short: " + file.location());
        }
        try (TrinoInput input = file.newInput()) {
            int tailSize = toIntExact(Math.min(length, INITIAL_TAIL));
            Slice tail = input.readTail(tailSize);
            long tailStart = length - tailSize;
            int footer = tailSize - FOOTER_SIZE;
            if (tail.getInt(footer + 36) != MAGIC) {
                throw new IOException("Not a Lance file, no LANC magic: " + file.location());
            }
            long columnMetaStart = tail.getLong(footer);
            long columnOffsetTablePosition = tail.getLong(footer + 8);
            long globalBufferTablePosition = tail.getLong(footer + 16);
            int globalBuffers = tail.getInt(footer + 24);
            int columnCount = tail.getInt(footer + 28);
            int major = tail.getUnsignedShort(footer + 32);
            int minor = tail.getUnsignedShort(footer + 34);
            // 2.0 uses another encoding tree entirely, 2.3 is unstable: only 2.1 and 2.2 are decoded
            if (major != 2 || (minor != 1 && minor != 2)) {
                throw new UnsupportedLanceEncodingException("Unsupported Lance file version %s.%s: %s".formatted(major, minor, file.location()));
            }
            // a truncated or damaged footer must not send reads (or allocations) outside the file
            long footerStart = length - FOOTER_SIZE;
            if (columnCount < 0 || globalBuffers < 0 || columnMetaStart < 0 || columnMetaStart > columnOffsetTablePosition
                    || columnOffsetTablePosition > footerStart || columnCount > (footerStart - columnOffsetTablePosition) / 16) {
                throw corrupt(file, "footer places %s columns' metadata at %s and their offsets at %s in a file of %s bytes".formatted(columnCount, columnMetaStart, columnOffsetTablePosition, length));
            }
            if (globalBuffers > 0 && (globalBufferTablePosition < 0 || globalBuffers > (footerStart - globalBufferTablePosition) / 16)) {
                throw corrupt(file, "footer places %s global buffers' offsets at %s in a file of %s bytes".formatted(globalBuffers, globalBufferTablePosition, length));
            }
            if (columnMetaStart < tailStart) {
                // the column metadata is larger than the guess: read everything from its start once more
                tailStart = columnMetaStart;
                tail = input.readTail(toIntExact(length - columnMetaStart));
            }
            // Lance writes the table after the column metadata, so it is in the tail already
            Slice globalBufferTable = globalBufferTablePosition >= tailStart
                    ? tail.slice(toIntExact(globalBufferTablePosition - tailStart), globalBuffers * 16)
                    : input.readFully(globalBufferTablePosition, globalBuffers * 16);
            ImmutableList.Builder<BufferRange> globalBufferRanges = ImmutableList.builder();
            for (int buffer = 0; buffer < globalBuffers; buffer++) {
                long position = globalBufferTable.getLong(buffer * 16);
                long size = globalBufferTable.getLong(buffer * 16 + 8);
                checkInFile(file, length, position, size, "global buffer " + buffer);
                globalBufferRanges.add(new BufferRange(position, size));
            }
            ImmutableList.Builder<LanceColumn> columns = ImmutableList.builder();
            for (int column = 0; column < columnCount; column++) {
                int entry = toIntExact(columnOffsetTablePosition - tailStart) + column * 16;
                long position = tail.getLong(entry);
                long size = tail.getLong(entry + 8);
                if (position < columnMetaStart || size < 0 || size > footerStart - position) {
                    throw corrupt(file, "column %s metadata of %s bytes at %s lies outside the column metadata".formatted(column, size, position));
                }
                ColumnMetadata metadata;
                try {
                    metadata = ColumnMetadata.parseFrom(tail.slice(toIntExact(position - tailStart), toIntExact(size)).toByteBuffer());
                }
                catch (InvalidProtocolBufferException e) {
                    throw new IOException("Corrupt Lance file %s: column %s metadata does not parse".formatted(file.location(), column), e);
                }
                columns.add(toColumn(file, length, column, metadata, input));
            }
            return new LanceFileMetadata(major, minor, globalBufferRanges.build(), columns.build());
        }
    }

    private static IOException corrupt(TrinoInputFile file, String problem)
    {
        return new IOException("Corrupt Lance file %s: %s".formatted(file.location(), problem));
    }

    private static LanceColumn toColumn(TrinoInputFile file, long length, int column, ColumnMetadata metadata, TrinoInput input)
            throws IOException
    {
        ImmutableList.Builder<LancePage> pages = ImmutableList.builder();
        for (int page = 0; page < metadata.getPagesCount(); page++) {
            ColumnMetadata.Page proto = metadata.getPages(page);
            if (proto.getBufferPositionsCount() != proto.getBufferSizesCount() || proto.getLength() < 0) {
                throw corrupt(file, "column %s page %s has %s rows, %s buffer positions and %s sizes".formatted(column, page, proto.getLength(), proto.getBufferPositionsCount(), proto.getBufferSizesCount()));
            }
            for (int buffer = 0; buffer < proto.getBufferPositionsCount(); buffer++) {
                // checked once here, so no page read allocates or seeks for a size or position the file cannot hold
                checkInFile(file, length, proto.getBufferPositions(buffer), proto.getBufferSizes(buffer), "column %s page %s buffer %s".formatted(column, page, buffer));
            }
            PageLayout layout = pageLayout(file, length, column, page, proto.getEncoding(), input);
            pages.add(new LancePage(proto.getLength(), proto.getBufferPositionsList(), proto.getBufferSizesList(), layout));
        }
        return new LanceColumn(column, pages.build());
    }

    private static void checkInFile(TrinoInputFile file, long length, long position, long size, String what)
            throws IOException
    {
        // unsigned in the file: a value above 2^63 reads as negative here
        if (position < 0 || size < 0 || size > length - position || size > Integer.MAX_VALUE) {
            throw corrupt(file, "%s of %s bytes at %s lies outside the file of %s bytes".formatted(what, Long.toUnsignedString(size), Long.toUnsignedString(position), length));
        }
    }

    private static PageLayout pageLayout(TrinoInputFile file, long length, int column, int page, Encoding encoding, TrinoInput input)
            throws IOException
    {
        ByteString any = switch (encoding.getLocationCase()) {
            case DIRECT -> encoding.getDirect().getEncoding();
            case INDIRECT -> {
                Encoding.Deferred deferred = encoding.getIndirect();
                checkInFile(file, length, deferred.getBufferPosition(), deferred.getBufferSize(), "column %s page %s encoding".formatted(column, page));
                yield ByteString.copyFrom(input.readFully(deferred.getBufferPosition(), toIntExact(deferred.getBufferSize())).getBytes());
            }
            default -> throw new UnsupportedLanceEncodingException("Column %s page %s has no encoding".formatted(column, page));
        };
        try {
            AnyMessage message = AnyMessage.parseFrom(any);
            if (!message.getTypeUrl().equals(PAGE_LAYOUT_TYPE_URL)) {
                throw new UnsupportedLanceEncodingException("Column %s page %s has encoding type %s".formatted(column, page, message.getTypeUrl()));
            }
            return PageLayout.parseFrom(message.getValue());
        }
        catch (InvalidProtocolBufferException e) {
            throw new IOException("Corrupt Lance file %s: column %s page %s has an encoding that does not parse".formatted(file.location(), column, page), e);
        }
    }
}
