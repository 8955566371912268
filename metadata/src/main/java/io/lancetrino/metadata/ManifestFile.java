package io.lancetrino.metadata;

import com.google.protobuf.InvalidProtocolBufferException;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;
import static java.util.Objects.requireNonNull;

/**
 * One parsed manifest file: {@code [IndexSection][Transaction][Manifest][footer]}, the manifest directly before the
 * 16-byte footer {@code i64 position | i16 major | i16 minor | "LANC"}.
 */
public record ManifestFile(
        String location,
        Manifest manifest,
        Optional<Transaction> inlineTransaction,
        Optional<IndexSection> indexSection,
        long sizeInBytes)
{
    static final byte[] MAGIC = {'L', 'A', 'N', 'C'};
    static final int FOOTER_SIZE = 16;

    public ManifestFile
    {
        requireNonNull(location, "location is null");
        requireNonNull(manifest, "manifest is null");
        requireNonNull(inlineTransaction, "inlineTransaction is null");
        requireNonNull(indexSection, "indexSection is null");
    }

    public long version()
    {
        return manifest.getVersion();
    }

    public static ManifestFile parse(String location, byte[] bytes)
    {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int size = bytes.length;
        if (size < FOOTER_SIZE + 4 || !hasMagic(bytes)) {
            throw corrupt(location, "file does not end with the Lance magic");
        }
        long position = buffer.getLong(size - FOOTER_SIZE);
        if (position < 0 || position + 4 > size - FOOTER_SIZE) {
            throw corrupt(location, "manifest position " + position + " is outside the file");
        }
        long length = Integer.toUnsignedLong(buffer.getInt((int) position));
        if (length != size - position - 20) {
            throw corrupt(location, "manifest length " + length + " does not reach the footer");
        }
        try {
            Manifest manifest = Manifest.parseFrom(ByteBuffer.wrap(bytes, (int) position + 4, (int) length));
            Optional<Transaction> transaction = Optional.empty();
            if (manifest.hasTransactionSection()) {
                transaction = Optional.of(Transaction.parseFrom(section(location, buffer, manifest.getTransactionSection(), position)));
            }
            Optional<IndexSection> indices = Optional.empty();
            if (manifest.hasIndexSection()) {
                indices = Optional.of(IndexSection.parseFrom(section(location, buffer, manifest.getIndexSection(), position)));
            }
            return new ManifestFile(location, manifest, transaction, indices, size);
        }
        catch (InvalidProtocolBufferException e) {
            throw new LanceTableException(CORRUPT_MANIFEST, "Corrupt Lance manifest %s: %s".formatted(location, e.getMessage()), e);
        }
    }

    public static byte[] serialize(Manifest manifest, Optional<Transaction> inlineTransaction, Optional<IndexSection> indexSection)
    {
        // side sections come first and are located by absolute offset; the manifest sits directly before the footer
        Manifest.Builder builder = manifest.toBuilder().clearIndexSection().clearTransactionSection();
        byte[] index = indexSection.map(IndexSection::toByteArray).orElse(null);
        byte[] transaction = inlineTransaction.map(Transaction::toByteArray).orElse(null);
        long offset = 0;
        if (index != null) {
            builder.setIndexSection(offset);
            offset += 4 + index.length;
        }
        if (transaction != null) {
            builder.setTransactionSection(offset);
            offset += 4 + transaction.length;
        }
        byte[] body = builder.build().toByteArray();
        ByteBuffer out = ByteBuffer.allocate((int) offset + 4 + body.length + FOOTER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        if (index != null) {
            out.putInt(index.length).put(index);
        }
        if (transaction != null) {
            out.putInt(transaction.length).put(transaction);
        }
        long manifestPosition = out.position();
        out.putInt(body.length).put(body);
        out.putLong(manifestPosition).putShort((short) 0).putShort((short) 2).put(MAGIC);
        return out.array();
    }

    private static ByteBuffer section(String location, ByteBuffer buffer, long offset, long manifestPosition)
    {
        if (offset < 0 || offset + 4 > manifestPosition) {
            throw corrupt(location, "section offset " + offset + " is outside the file");
        }
        long length = Integer.toUnsignedLong(buffer.getInt((int) offset));
        if (offset + 4 + length > manifestPosition) {
            throw corrupt(location, "section at " + offset + " overlaps the manifest");
        }
        return ByteBuffer.wrap(buffer.array(), (int) offset + 4, (int) length);
    }

    private static boolean hasMagic(byte[] bytes)
    {
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[bytes.length - MAGIC.length + i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private static LanceTableException corrupt(String location, String reason)
    {
        return new LanceTableException(CORRUPT_MANIFEST, "Corrupt Lance manifest %s: %s".formatted(location, reason));
    }
}
