package io.lancetrino.file;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.lancetrino.file.codec.FsstDecoder;
import io.lancetrino.file.codec.VariableValues;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.type.Type;

import java.io.IOException;

import java.util.List;
import java.util.Optional;

import static java.lang.Math.toIntExact;

/**
 * Decodes rows of a FullZip page of a nested variable-width leaf (e.g. lists of long strings). Buffer 0 zips one
 * record per level: a byte-packed control word {@code rep << bits_def | def}, then, for a valid value only, its u32/u64
 * length and bytes (a null item keeps its slot but has neither; a null or empty list has no slot). Buffer 1 holds the
 * byte position of every row's first record and of the end, byte-packed, so a row range is read without a scan.
 */
final class RepDefFullZipDecoder
{
    private RepDefFullZipDecoder() {}

    /** Reads the page's buffers as far as the rows need: the whole index, and the records of the rows only. */
    static RepDefMiniBlockDecoder.Rows decodeRows(String where, FullZipLayout layout, TrinoInput input, LancePage page, Type type, int from, int to)
            throws IOException
    {
        List<Long> positions = page.bufferPositions();
        List<Long> sizes = page.bufferSizes();
        if (positions.size() < 2) {
            return decodeRows(where, layout, List.of(input.readFully(positions.getFirst(), toIntExact(sizes.getFirst()))), type, page.rows(), from, to);
        }
        Slice index = input.readFully(positions.get(1), toIntExact(sizes.get(1)));
        int width = toIntExact(index.length() / (page.rows() + 1));
        long start = readUnsigned(index, from * width, width);
        long end = readUnsigned(index, to * width, width);
        Slice records = input.readFully(positions.getFirst() + start, toIntExact(end - start));
        // the records of the rows, as if they were the page's records; their index now starts at 0
        return decodeRecords(where, layout, records, type, 0, records.length(), from);
    }

    static RepDefMiniBlockDecoder.Rows decodeRows(String where, FullZipLayout layout, List<Slice> buffers, Type type, long pageRows, int from, int to)
    {
        if (buffers.size() > 1) {
            Slice index = buffers.get(1);
            int width = toIntExact(index.length() / (pageRows + 1));
            int start = toIntExact(readUnsigned(index, from * width, width));
            int end = toIntExact(readUnsigned(index, to * width, width));
            return decodeRecords(where, layout, buffers.get(0), type, start, end, from);
        }
        // no index: all records, rows cut out by their rep levels
        return decodeRecords(where, layout, buffers.get(0), type, 0, buffers.get(0).length(), 0);
    }

    private static RepDefMiniBlockDecoder.Rows decodeRecords(String where, FullZipLayout layout, Slice data, Type type, int start, int end, int rowOffset)
    {
        RepDefLayers layers = new RepDefLayers(where, layout.getLayersList());
        if (layout.getDetailsCase() != FullZipLayout.DetailsCase.BITS_PER_OFFSET || PageBlocks.kind(type) != PageBlocks.Kind.VARIABLE) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip values " + layout.getDetailsCase() + " for " + type + " are not decoded");
        }
        CompressiveEncoding values = layout.getValueCompression();
        FsstDecoder fsst = null;
        if (values.hasFsst()) {
            fsst = FsstDecoder.of(values.getFsst().getSymbolTable());
            values = values.getFsst().getValues();
        }
        if (!values.hasVariable() || values.getVariable().hasValues() || !values.getVariable().getOffsets().hasFlat() || values.getVariable().getOffsets().getFlat().hasData()) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip value compression " + values.getCompressionCase() + " is not decoded");
        }
        int lengthBytes = toIntExact(layout.getBitsPerOffset()) / 8;
        if (lengthBytes != 4 && lengthBytes != 8) {
            throw new UnsupportedLanceEncodingException(where + ": FullZip lengths of " + layout.getBitsPerOffset() + " bits");
        }
        int bitsRep = toIntExact(layout.getBitsRep());
        int bitsDef = toIntExact(layout.getBitsDef());
        if (layers.lists() > 0 && bitsRep == 0) {
            throw new UnsupportedLanceEncodingException(where + ": list layers without repetition levels");
        }
        int controlBits = bitsRep + bitsDef;
        int controlBytes = controlBits == 0 ? 0 : controlBits <= 8 ? 1 : controlBits <= 16 ? 2 : controlBits <= 32 ? 4 : 8;
        long defMask = (1L << bitsDef) - 1;

        RepDefMiniBlockDecoder.IntList rep = bitsRep > 0 ? new RepDefMiniBlockDecoder.IntList(64) : null;
        RepDefMiniBlockDecoder.IntList def = bitsDef > 0 ? new RepDefMiniBlockDecoder.IntList(64) : null;
        BooleanList nulls = new BooleanList();
        RepDefMiniBlockDecoder.IntList offsets = new RepDefMiniBlockDecoder.IntList(64);
        offsets.add(0);
        DynamicSliceOutput bytes = new DynamicSliceOutput(toIntExact(Math.min(end - start, Integer.MAX_VALUE)));
        int entries = 0;
        int position = start;
        while (position < end) {
            long control = readUnsigned(data, position, controlBytes);
            position += controlBytes;
            int level = toIntExact(control & defMask);
            if (rep != null) {
                rep.add(toIntExact(control >>> bitsDef));
            }
            if (def != null) {
                def.add(level);
            }
            entries++;
            if (!layers.hasSlot(level)) {
                continue;
            }
            if (level == 0) {
                int length = toIntExact(readUnsigned(data, position, lengthBytes));
                position += lengthBytes;
                bytes.writeBytes(data, position, length);
                position += length;
            }
            nulls.add(level != 0);
            offsets.add(bytes.size());
        }
        if (position != end) {
            throw new IllegalStateException(where + ": records end at byte %s, the rows' at %s".formatted(position, end));
        }
        int slots = offsets.size() - 1;
        VariableValues decoded = new VariableValues(bytes.slice(), offsets.toArray());
        if (fsst != null) {
            decoded = fsst.decompress(decoded);
        }
        boolean[] isNull = nulls.toArray();
        LeafLevels levels = new LeafLevels(
                layers,
                entries,
                rep == null ? null : rep.toArray(),
                def == null ? null : def.toArray(),
                PageBlocks.variable(decoded, 0, slots, Optional.of(isNull)));
        return new RepDefMiniBlockDecoder.Rows(levels, rowOffset);
    }

    private static long readUnsigned(Slice slice, int position, int bytes)
    {
        return switch (bytes) {
            case 0 -> 0;
            case 1 -> slice.getUnsignedByte(position);
            case 2 -> slice.getUnsignedShort(position);
            case 3 -> slice.getUnsignedShort(position) | (long) slice.getUnsignedByte(position + 2) << 16;
            case 4 -> slice.getUnsignedInt(position);
            case 8 -> slice.getLong(position);
            default -> throw new UnsupportedLanceEncodingException("byte-packed width " + bytes);
        };
    }

    private static final class BooleanList
    {
        private boolean[] values = new boolean[16];
        private int size;

        void add(boolean value)
        {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        boolean[] toArray()
        {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
