package io.lancetrino.metadata.deletion;

import com.google.flatbuffers.FlatBufferBuilder;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import org.apache.arrow.flatbuf.Block;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.arrow.flatbuf.Endianness;
import org.apache.arrow.flatbuf.Field;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.Int;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.flatbuf.Type;
import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Lance's Arrow deletion files, read and written straight from their bytes: an Arrow IPC file of one non-nullable
 * 32-bit integer column ({@code row_id}, unsigned as Lance writes it). Only the flatbuffer messages come from Arrow's
 * format classes; no Arrow memory is allocated, so the default path needs no {@code --add-opens}, and the ZSTD body
 * compression Lance declares is undone by aircompressor, not a native codec.
 */
final class ArrowIpcRowIds
{
    private static final byte[] MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);
    private static final int CONTINUATION = 0xFFFFFFFF;
    private static final String COLUMN = "row_id";
    // a compressed body buffer whose prefix holds this length was stored as it is
    private static final long NOT_COMPRESSED = -1;

    private ArrowIpcRowIds() {}

    static RoaringBitmap read(byte[] content)
            throws IOException
    {
        try {
            return readFile(content);
        }
        catch (RuntimeException e) {
            // a flatbuffer that points outside itself
            throw new IOException("malformed Arrow IPC metadata (%s)".formatted(e), e);
        }
    }

    private static RoaringBitmap readFile(byte[] content)
            throws IOException
    {
        int footerEnd = content.length - MAGIC.length - Integer.BYTES;
        if (content.length < 2 * MAGIC.length + Integer.BYTES || !startsWith(content, 0) || !startsWith(content, content.length - MAGIC.length)) {
            throw new IOException("not an Arrow IPC file (no ARROW1 magic at both ends)");
        }
        ByteBuffer bytes = ByteBuffer.wrap(content).order(ByteOrder.LITTLE_ENDIAN);
        int footerLength = bytes.getInt(footerEnd);
        if (footerLength <= 0 || footerLength > footerEnd - MAGIC.length) {
            throw new IOException("footer of %s bytes in a file of %s".formatted(footerLength, content.length));
        }
        Footer footer = Footer.getRootAsFooter(slice(bytes, footerEnd - footerLength, footerLength));
        Schema schema = footer.schema();
        if (schema == null || schema.fieldsLength() != 1) {
            throw new IOException("a deletion file holds one column, not " + (schema == null ? 0 : schema.fieldsLength()));
        }
        Field field = schema.fields(0);
        Int type = field.typeType() == Type.Int ? (Int) field.type(new Int()) : null;
        if (type == null || type.bitWidth() != 32) {
            throw new IOException("unexpected deletion vector type: column %s is not a 32-bit integer".formatted(field.name()));
        }
        RoaringBitmap rows = new RoaringBitmap();
        for (int i = 0; i < footer.recordBatchesLength(); i++) {
            readBatch(bytes, footer.recordBatches(i), rows);
        }
        return rows;
    }

    private static void readBatch(ByteBuffer bytes, Block block, RoaringBitmap rows)
            throws IOException
    {
        int start = checkedInt(block.offset(), bytes, "record batch");
        // messages since Arrow 0.15 start with a continuation marker; older ones with their length alone
        boolean marker = bytes.getInt(start) == CONTINUATION;
        int metadataLength = bytes.getInt(start + (marker ? 4 : 0));
        Message message = Message.getRootAsMessage(slice(bytes, start + (marker ? 8 : 4), metadataLength));
        if (message.headerType() != MessageHeader.RecordBatch) {
            throw new IOException("block at %s is not a record batch".formatted(start));
        }
        RecordBatch batch = (RecordBatch) message.header(new RecordBatch());
        if (batch.nodesLength() != 1 || batch.buffersLength() != 2) {
            throw new IOException("record batch of %s columns and %s buffers".formatted(batch.nodesLength(), batch.buffersLength()));
        }
        FieldNode node = batch.nodes(0);
        if (node.nullCount() != 0) {
            throw new IOException(node.nullCount() + " rows of the deletion vector are null");
        }
        int count = Math.toIntExact(node.length());
        long bodyStart = block.offset() + block.metaDataLength();
        Buffer values = batch.buffers(1);
        ByteBuffer data = slice(bytes, checkedInt(bodyStart + values.offset(), bytes, "values"), checkedInt(values.length(), bytes, "values"));
        BodyCompression compression = batch.compression();
        if (compression != null) {
            data = decompress(data, compression.codec());
        }
        if (data.remaining() < (long) count * Integer.BYTES) {
            throw new IOException("%s row ids in a buffer of %s bytes".formatted(count, data.remaining()));
        }
        for (int i = 0; i < count; i++) {
            rows.add(data.getInt(data.position() + i * Integer.BYTES));
        }
    }

    private static ByteBuffer decompress(ByteBuffer buffer, byte codec)
            throws IOException
    {
        long uncompressedLength = buffer.getLong(buffer.position());
        ByteBuffer body = slice(buffer, buffer.position() + Long.BYTES, buffer.remaining() - Long.BYTES);
        if (uncompressedLength == NOT_COMPRESSED) {
            return body;
        }
        if (codec != CompressionType.ZSTD) {
            throw new IOException("body compression %s is not read (Lance writes ZSTD)".formatted(CompressionType.name(codec)));
        }
        if (uncompressedLength < 0 || uncompressedLength > Integer.MAX_VALUE - 16) {
            throw new IOException("compressed buffer of %s bytes uncompressed".formatted(uncompressedLength));
        }
        byte[] input = new byte[body.remaining()];
        body.get(body.position(), input);
        byte[] output = new byte[(int) uncompressedLength];
        int length = new ZstdJavaDecompressor().decompress(input, 0, input.length, output, 0, output.length);
        if (length != output.length) {
            throw new IOException("buffer decompressed to %s bytes, not %s".formatted(length, output.length));
        }
        return ByteBuffer.wrap(output).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The row ids in ascending order, in an uncompressed Arrow IPC file (Lance reads it with or without compression).
     */
    static byte[] write(RoaringBitmap rows)
    {
        IpcOutput out = new IpcOutput();
        out.writeBytes(MAGIC);
        out.padTo8();
        out.writeMessage(schemaMessage(), new byte[0]);

        int count = rows.getCardinality();
        ByteBuffer values = ByteBuffer.allocate(align(count * Integer.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        rows.forEach((int row) -> values.putInt(row));
        long batchStart = out.size();
        int metadataLength = out.writeMessage(recordBatchMessage(count, values.capacity()), values.array());

        // end of stream
        out.writeInt(CONTINUATION);
        out.writeInt(0);

        FlatBufferBuilder builder = new FlatBufferBuilder();
        int schema = schema(builder);
        Footer.startRecordBatchesVector(builder, 1);
        Block.createBlock(builder, batchStart, metadataLength, values.capacity());
        int batches = builder.endVector();
        Footer.startDictionariesVector(builder, 0);
        int dictionaries = builder.endVector();
        builder.finish(Footer.createFooter(builder, MetadataVersion.V5, schema, dictionaries, batches, 0));
        byte[] footer = builder.sizedByteArray();
        out.writeBytes(footer);
        out.writeInt(footer.length);
        out.writeBytes(MAGIC);
        return out.toByteArray();
    }

    private static byte[] schemaMessage()
    {
        FlatBufferBuilder builder = new FlatBufferBuilder();
        int schema = schema(builder);
        builder.finish(Message.createMessage(builder, MetadataVersion.V5, MessageHeader.Schema, schema, 0, 0));
        return builder.sizedByteArray();
    }

    private static int schema(FlatBufferBuilder builder)
    {
        int name = builder.createString(COLUMN);
        int type = Int.createInt(builder, 32, false);
        int children = Field.createChildrenVector(builder, new int[0]);
        int field = Field.createField(builder, name, false, Type.Int, type, 0, children, 0);
        int fields = Schema.createFieldsVector(builder, new int[] {field});
        return Schema.createSchema(builder, Endianness.Little, fields, 0, 0);
    }

    private static byte[] recordBatchMessage(int count, int valueBytes)
    {
        FlatBufferBuilder builder = new FlatBufferBuilder();
        RecordBatch.startNodesVector(builder, 1);
        FieldNode.createFieldNode(builder, count, 0);
        int nodes = builder.endVector();
        // structs of a vector are prepended: the values buffer first, then the (empty) validity buffer before it
        RecordBatch.startBuffersVector(builder, 2);
        Buffer.createBuffer(builder, 0, (long) count * Integer.BYTES);
        Buffer.createBuffer(builder, 0, 0);
        int buffers = builder.endVector();
        int batch = RecordBatch.createRecordBatch(builder, count, nodes, buffers, 0, 0);
        builder.finish(Message.createMessage(builder, MetadataVersion.V5, MessageHeader.RecordBatch, batch, valueBytes, 0));
        return builder.sizedByteArray();
    }

    private static boolean startsWith(byte[] content, int position)
    {
        return Arrays.equals(content, position, position + MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    private static ByteBuffer slice(ByteBuffer bytes, int position, int length)
            throws IOException
    {
        if (position < 0 || length < 0 || position > bytes.limit() - length) {
            throw new IOException("%s bytes at %s are beyond the file's %s".formatted(length, position, bytes.limit()));
        }
        return bytes.slice(position, length).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int checkedInt(long value, ByteBuffer bytes, String what)
            throws IOException
    {
        if (value < 0 || value > bytes.limit()) {
            throw new IOException("%s at %s is beyond the file's %s bytes".formatted(what, value, bytes.limit()));
        }
        return (int) value;
    }

    private static int align(int length)
    {
        return (length + 7) & ~7;
    }

    /** Encapsulated messages: marker, metadata length (padded so the body starts 8-byte aligned), metadata, body. */
    private static final class IpcOutput
            extends ByteArrayOutputStream
    {
        int writeMessage(byte[] metadata, byte[] body)
        {
            int padded = align(metadata.length + 8) - 8;
            writeInt(CONTINUATION);
            writeInt(padded);
            writeBytes(metadata);
            writeBytes(new byte[padded - metadata.length]);
            writeBytes(body);
            return padded + 8;
        }


        void writeInt(int value)
        {
            writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
        }

        void padTo8()
        {
            writeBytes(new byte[align(size()) - size()]);
        }
    }
}
