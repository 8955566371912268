package io.lancetrino.file;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.codec.BufferDecompressor;
import io.lancetrino.file.codec.FsstDecoder;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.BufferCompression;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;

import static java.lang.Math.toIntExact;

/**
 * Decodes a FullZip page of a flat variable-width column (values of 256 bytes or more). Buffer 0 zips one record per
 * item: a byte-packed control word holding the def level, then, for valid items only, a u32/u64 length and the bytes
 * (FSST-compressed, or zstd/lz4-compressed, per value when the page says so).
 * Buffer 1 holds the byte position of every record (and of the end), byte-packed, so a row range starts without a scan.
 */
final class FullZipPageDecoder
{
    private FullZipPageDecoder() {}

    static Block decode(String where, FullZipLayout layout, List<Slice> buffers, Type type, int from, int to)
    {
        if (layout.getBitsRep() != 0) {
            throw new UnsupportedLanceEncodingException(where + ": repetition levels (lists) are not decoded");
        }
        if (!PageBlocks.itemLayersOnly(layout.getLayersList())) {
            throw new UnsupportedLanceEncodingException(where + ": rep/def layers " + layout.getLayersList() + " are not decoded");
        }
        if (layout.getDetailsCase() != FullZipLayout.DetailsCase.BITS_PER_OFFSET || PageBlocks.kind(type) != PageBlocks.Kind.VARIABLE) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip values " + layout.getDetailsCase() + " for " + type + " are not decoded");
        }
        CompressiveEncoding values = layout.getValueCompression();
        // FSST compresses each value on its own with one symbol table for the page
        FsstDecoder fsst = null;
        if (values.hasFsst()) {
            fsst = FsstDecoder.of(values.getFsst().getSymbolTable());
            values = values.getFsst().getValues();
        }
        // values past 32 KiB (e.g. the serialized bitmaps of a large bitmap index) are zstd/lz4 frames, one per value,
        // each with the length prefix of a general buffer; the record's length is the frame's
        BufferCompression general = null;
        if (fsst == null && values.hasGeneral()) {
            general = values.getGeneral().getCompression();
            values = values.getGeneral().getValues();
        }
        // a variable packed struct keeps each row's fields in its record, split by PackedStructReader
        boolean packedRows = general == null && values.hasVariablePackedStruct();
        if (!packedRows && (!values.hasVariable() || values.getVariable().hasValues() || !values.getVariable().getOffsets().hasFlat() || values.getVariable().getOffsets().getFlat().hasData())) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip value compression " + values.getCompressionCase() + " is not decoded");
        }
        int lengthBytes = toIntExact(layout.getBitsPerOffset()) / 8;
        if (lengthBytes != 4 && lengthBytes != 8) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip lengths of " + layout.getBitsPerOffset() + " bits");
        }
        int controlBytes = (toIntExact(layout.getBitsDef()) + 7) / 8;
        Slice data = buffers.get(0);
        int position = buffers.size() > 1 ? recordPosition(buffers.get(1), layout.getNumItems(), from) : skip(data, controlBytes, lengthBytes, from);

        int count = to - from;
        boolean[] nulls = controlBytes > 0 ? new boolean[count] : null;
        int[] offsets = new int[count + 1];
        DynamicSliceOutput bytes = new DynamicSliceOutput(count * 64);
        for (int i = 0; i < count; i++) {
            long control = readUnsigned(data, position, controlBytes);
            position += controlBytes;
            if (control != 0) {
                // a null (def level above 0) has no length and no bytes
                nulls[i] = true;
            }
            else {
                int length = toIntExact(readUnsigned(data, position, lengthBytes));
                position += lengthBytes;
                if (length > data.length() - position) {
                    // checked before the copy sizes its output by it
                    throw new IllegalStateException("value %s of %s bytes at %s runs past the page's %s bytes".formatted(from + i, length, position, data.length()));
                }
                if (general != null) {
                    bytes.writeBytes(BufferDecompressor.decompress(general, data.slice(position, length)));
                }
                else {
                    bytes.writeBytes(data, position, length);
                }
                position += length;
            }
            offsets[i + 1] = bytes.size();
        }
        VariableValues decoded = new VariableValues(bytes.slice(), offsets);
        if (fsst != null) {
            decoded = fsst.decompress(decoded);
        }
        return PageBlocks.variable(decoded, 0, count, Optional.ofNullable(nulls));
    }

    private static int recordPosition(Slice index, int items, int item)
    {
        int width = index.length() / (items + 1);
        return toIntExact(readUnsigned(index, item * width, width));
    }

    private static int skip(Slice data, int controlBytes, int lengthBytes, int items)
    {
        int position = 0;
        for (int i = 0; i < items; i++) {
            long control = readUnsigned(data, position, controlBytes);
            position += controlBytes;
            if (control == 0) {
                position += toIntExact(readUnsigned(data, position, lengthBytes)) + lengthBytes;
            }
        }
        return position;
    }

    private static long readUnsigned(Slice slice, int position, int bytes)
    {
        return switch (bytes) {
            case 0 -> 0;
            case 1 -> slice.getUnsignedByte(position);
            case 2 -> slice.getUnsignedShort(position);
            case 4 -> slice.getUnsignedInt(position);
            case 8 -> slice.getLong(position);
            default -> throw new UnsupportedLanceEncodingException("byte-packed width " + bytes);
        };
    }
}
