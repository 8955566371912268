package io.lancetrino.file.codec;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.Flat;

import java.util.Arrays;

import static java.lang.Math.toIntExact;

/** Decoders of the compressive encodings this reader understands, one buffer at a time. */
public final class ValueDecoders
{
    private ValueDecoders() {}

    /** Bits per value of a fixed-width encoding, so callers can tell 128-bit values from narrower ones. */
    public static int bitsPerValue(CompressiveEncoding encoding)
    {
        return switch (encoding.getCompressionCase()) {
            case FLAT -> toIntExact(encoding.getFlat().getBitsPerValue());
            case INLINE_BITPACKING -> toIntExact(encoding.getInlineBitpacking().getUncompressedBitsPerValue());
            case OUT_OF_LINE_BITPACKING -> toIntExact(encoding.getOutOfLineBitpacking().getUncompressedBitsPerValue());
            case GENERAL -> bitsPerValue(encoding.getGeneral().getValues());
            case RLE -> bitsPerValue(encoding.getRle().getValues());
            case BYTE_STREAM_SPLIT -> bitsPerValue(encoding.getByteStreamSplit().getValues());
            default -> throw unsupported(encoding);
        };
    }

    /**
     * Decodes {@code count} fixed-width values of at most 64 bits, zero-extended into longs (raw bits for floats).
     * The array may be longer than {@code count} (bit-packed blocks are padded).
     */
    public static long[] decodeFixed(CompressiveEncoding encoding, Slice data, int count)
    {
        return switch (encoding.getCompressionCase()) {
            case FLAT -> decodeFlat(encoding.getFlat(), data, count);
            case INLINE_BITPACKING -> {
                if (encoding.getInlineBitpacking().hasValues()) {
                    throw unsupported(encoding);
                }
                yield Bitpacking.decodeInline(data, bitsPerValue(encoding), count);
            }
            case OUT_OF_LINE_BITPACKING -> {
                CompressiveEncoding child = encoding.getOutOfLineBitpacking().getValues();
                if (!child.hasFlat() || child.getFlat().hasData()) {
                    throw unsupported(encoding);
                }
                yield Bitpacking.decodeOutOfLine(data, bitsPerValue(encoding), toIntExact(child.getFlat().getBitsPerValue()), count);
            }
            case RLE -> decodeBlockRle(encoding, data, count);
            case BYTE_STREAM_SPLIT -> decodeByteStreamSplit(encoding, data, count);
            // general compression wraps the whole output of the inner encoding
            case GENERAL -> decodeFixed(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count);
            default -> throw unsupported(encoding);
        };
    }

    /**
     * Decodes values {@code [first, last)} of a buffer of {@code count} values into {@code destination} from
     * {@code destinationOffset}, zero-extended as {@link #decodeFixed} does. Plain values are copied straight from the
     * buffer instead of through an array of all its values.
     */
    public static void decodeFixedInto(CompressiveEncoding encoding, Slice data, int count, int first, int last, long[] destination, int destinationOffset)
    {
        if (encoding.hasFlat() && !encoding.getFlat().hasData()) {
            int bits = toIntExact(encoding.getFlat().getBitsPerValue());
            if (bits == 64) {
                data.getLongs(first * 8, destination, destinationOffset, last - first);
                return;
            }
            if (bits == 32) {
                for (int i = first; i < last; i++) {
                    destination[destinationOffset + i - first] = data.getUnsignedInt(i * 4);
                }
                return;
            }
        }
        if (encoding.hasInlineBitpacking() && !encoding.getInlineBitpacking().hasValues()) {
            Bitpacking.decodeInlineInto(data, bitsPerValue(encoding), first, last, destination, destinationOffset);
            return;
        }
        if (encoding.hasByteStreamSplit()) {
            decodeByteStreamSplitInto(encoding, data, count, first, last, destination, destinationOffset);
            return;
        }
        if (encoding.hasGeneral()) {
            // the decompressed chunk decodes like any other, so plain values are copied straight from it
            decodeFixedInto(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count, first, last, destination, destinationOffset);
            return;
        }
        System.arraycopy(decodeFixed(encoding, data, count), first, destination, destinationOffset, last - first);
    }

    /**
     * As {@link #decodeFixedInto(CompressiveEncoding, Slice, int, int, int, long[], int)} for values of at most 32 bits
     * (32-bit types and dictionary ids), into ints: Trino keeps them as ints, so the common encodings never pass
     * through longs. Others are decoded as longs and narrowed.
     */
    public static void decodeFixedInto(CompressiveEncoding encoding, Slice data, int count, int first, int last, int[] destination, int destinationOffset)
    {
        if (bitsPerValue(encoding) > 32) {
            throw new IllegalArgumentException("%s-bit values do not decode into ints".formatted(bitsPerValue(encoding)));
        }
        if (encoding.hasFlat() && !encoding.getFlat().hasData() && encoding.getFlat().getBitsPerValue() == 32) {
            data.getInts(first * 4, destination, destinationOffset, last - first);
            return;
        }
        if (encoding.hasInlineBitpacking() && !encoding.getInlineBitpacking().hasValues()) {
            Bitpacking.decodeInlineInto(data, bitsPerValue(encoding), first, last, destination, destinationOffset);
            return;
        }
        if (encoding.hasByteStreamSplit() && byteStreamSplitWidth(encoding) == 4) {
            ByteStreamSplit.decodeInto(data.byteArray(), data.byteArrayOffset(), byteStreamSplitValues(data, 4, count), first, last, destination, destinationOffset);
            return;
        }
        if (encoding.hasGeneral()) {
            decodeFixedInto(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count, first, last, destination, destinationOffset);
            return;
        }
        narrow(decodeFixed(encoding, data, count), first, last, destination, destinationOffset);
    }

    private static void narrow(long[] values, int first, int last, int[] destination, int destinationOffset)
    {
        for (int i = first; i < last; i++) {
            destination[destinationOffset + i - first] = (int) values[i];
        }
    }

    private static long[] decodeFlat(Flat flat, Slice data, int count)
    {
        if (flat.hasData()) {
            data = BufferDecompressor.decompress(flat.getData(), data);
        }
        long[] values = new long[count];
        switch (toIntExact(flat.getBitsPerValue())) {
            // booleans: one bit per value, least significant bit first
            case 1 -> {
                for (int i = 0; i < count; i++) {
                    values[i] = (data.getByte(i >>> 3) >>> (i & 7)) & 1;
                }
            }
            case 8 -> {
                for (int i = 0; i < count; i++) {
                    values[i] = data.getUnsignedByte(i);
                }
            }
            case 16 -> {
                for (int i = 0; i < count; i++) {
                    values[i] = data.getUnsignedShort(i * 2);
                }
            }
            case 32 -> {
                for (int i = 0; i < count; i++) {
                    values[i] = data.getUnsignedInt(i * 4);
                }
            }
            case 64 -> {
                for (int i = 0; i < count; i++) {
                    values[i] = data.getLong(i * 8);
                }
            }
            default -> throw new UnsupportedLanceEncodingException("Flat values of %s bits".formatted(flat.getBitsPerValue()));
        }
        return values;
    }

    /**
     * Byte stream split: byte {@code b} of value {@code i} sits at {@code b * n + i}, n being the values in the buffer
     * (its length divided by the value width, so padding past {@code count} is honored).
     */
    private static long[] decodeByteStreamSplit(CompressiveEncoding encoding, Slice data, int count)
    {
        long[] decoded = new long[count];
        decodeByteStreamSplitInto(encoding, data, count, 0, count, decoded, 0);
        return decoded;
    }

    private static void decodeByteStreamSplitInto(CompressiveEncoding encoding, Slice data, int count, int first, int last, long[] destination, int destinationOffset)
    {
        int width = byteStreamSplitWidth(encoding);
        ByteStreamSplit.decodeInto(data.byteArray(), data.byteArrayOffset(), byteStreamSplitValues(data, width, count), width, first, last, destination, destinationOffset);
    }

    /** Bytes per value of a byte-stream split encoding: 4 or 8, of plain values. */
    private static int byteStreamSplitWidth(CompressiveEncoding encoding)
    {
        CompressiveEncoding inner = encoding.getByteStreamSplit().getValues();
        if (!inner.hasFlat() || inner.getFlat().hasData()) {
            throw unsupported(encoding);
        }
        int width = toIntExact(inner.getFlat().getBitsPerValue()) / 8;
        if (width != 4 && width != 8) {
            throw unsupported(encoding);
        }
        return width;
    }

    /** The values a byte-stream split buffer holds (its length over the value width), at least {@code count}. */
    private static int byteStreamSplitValues(Slice data, int width, int count)
    {
        int values = data.length() / width;
        if (values < count) {
            throw new IllegalStateException("byte stream split buffer holds %s values, %s wanted".formatted(values, count));
        }
        return values;
    }

    /**
     * Run-length encoding in its single-buffer (block) form, as 2.2 writes rep/def levels: a u64 byte length of the run
     * values, the run values, then one u8 length per run.
     */
    private static long[] decodeBlockRle(CompressiveEncoding encoding, Slice data, int count)
    {
        CompressiveEncoding valuesEncoding = encoding.getRle().getValues();
        CompressiveEncoding lengthsEncoding = encoding.getRle().getRunLengths();
        if (!valuesEncoding.hasFlat() || !lengthsEncoding.hasFlat() || lengthsEncoding.getFlat().getBitsPerValue() != 8) {
            throw unsupported(encoding);
        }
        int valueBytes = toIntExact(data.getLong(0));
        return decodeRle(encoding, data.slice(8, valueBytes), data.slice(8 + valueBytes, data.length() - 8 - valueBytes), count);
    }

    /** Whether chunks of this encoding hold two value buffers, run values and run lengths. */
    public static boolean isRle(CompressiveEncoding encoding)
    {
        return encoding.hasRle() || (encoding.hasGeneral() && encoding.getGeneral().getValues().hasRle());
    }

    /**
     * Run-length encoding from its run values and its u8 run lengths (runs longer than 255 are split by the writer),
     * decoded into {@code count} values. Under general compression only the run values are compressed; the run lengths
     * stay raw (as the SDK 7.0 writes them).
     */
    public static long[] decodeRle(CompressiveEncoding encoding, Slice runData, Slice lengths, int count)
    {
        long[] values = new long[count];
        decodeRleInto(encoding, runData, lengths, count, 0, count, values, 0);
        return values;
    }

    /**
     * Decodes values {@code [first, last)} of a chunk of {@code count} run-length encoded values into {@code output}
     * from {@code outputOffset}, filling the runs straight into it.
     */
    public static void decodeRleInto(CompressiveEncoding encoding, Slice runData, Slice lengths, int count, int first, int last, long[] output, int outputOffset)
    {
        forEachRun(encoding, runData, lengths, count, first, last, (from, to, value) -> Arrays.fill(output, outputOffset + from, outputOffset + to, value));
    }

    /** As {@link #decodeRleInto(CompressiveEncoding, Slice, Slice, int, int, int, long[], int)}, into ints (values of up to 32 bits). */
    public static void decodeRleInto(CompressiveEncoding encoding, Slice runData, Slice lengths, int count, int first, int last, int[] output, int outputOffset)
    {
        forEachRun(encoding, runData, lengths, count, first, last, (from, to, value) -> Arrays.fill(output, outputOffset + from, outputOffset + to, (int) value));
    }

    /** Where a run's value goes: positions {@code [from, to)} counted from the first value wanted. */
    private interface RunFill
    {
        void fill(int from, int to, long value);
    }

    /** Hands each run's part within {@code [first, last)} to {@code fill}, after walking every run. */
    private static void forEachRun(CompressiveEncoding encoding, Slice runData, Slice lengths, int count, int first, int last, RunFill fill)
    {
        if (encoding.hasGeneral()) {
            forEachRun(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), runData), lengths, count, first, last, fill);
            return;
        }
        int valueWidth = rleValueWidth(encoding);
        int runs = runData.length() / valueWidth;
        int position = 0;
        for (int run = 0; run < runs && position < count; run++) {
            int length = Math.min(lengths.getUnsignedByte(run), count - position);
            int from = Math.max(position, first);
            int to = Math.min(position + length, last);
            if (from < to) {
                fill.fill(from - first, to - first, runValue(runData, run, valueWidth));
            }
            position += length;
        }
        // every run is walked, so a chunk whose runs do not add up is refused even when the wanted values are earlier
        if (position != count) {
            throw new IllegalStateException("RLE runs hold %s values, %s expected".formatted(position, count));
        }
    }

    /** The byte width of a run-length chunk's values: plain values, and lengths of a byte each. */
    private static int rleValueWidth(CompressiveEncoding encoding)
    {
        CompressiveEncoding valuesEncoding = encoding.getRle().getValues();
        CompressiveEncoding lengthsEncoding = encoding.getRle().getRunLengths();
        if (!valuesEncoding.hasFlat() || valuesEncoding.getFlat().hasData() || !lengthsEncoding.hasFlat() || lengthsEncoding.getFlat().getBitsPerValue() != 8) {
            throw unsupported(encoding);
        }
        int bits = toIntExact(valuesEncoding.getFlat().getBitsPerValue());
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
            throw unsupported(encoding);
        }
        return bits / 8;
    }

    /** A run's value, zero-extended as {@link #decodeFixed} extends values. */
    private static long runValue(Slice runData, int run, int width)
    {
        return switch (width) {
            case 1 -> runData.getUnsignedByte(run);
            case 2 -> runData.getUnsignedShort(run * 2);
            case 4 -> runData.getUnsignedInt(run * 4);
            default -> runData.getLong(run * 8);
        };
    }

    /** Decodes {@code count} 128-bit values as (low, high) long pairs, little-endian as stored. */
    public static long[] decodeFixed128(CompressiveEncoding encoding, Slice data, int count)
    {
        if (encoding.hasGeneral()) {
            return decodeFixed128(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count);
        }
        if (!encoding.hasFlat() || encoding.getFlat().getBitsPerValue() != 128) {
            throw unsupported(encoding);
        }
        if (encoding.getFlat().hasData()) {
            data = BufferDecompressor.decompress(encoding.getFlat().getData(), data);
        }
        long[] values = new long[count * 2];
        for (int i = 0; i < count * 2; i++) {
            values[i] = data.getLong(i * 8);
        }
        return values;
    }

    /** Variable-width values: (count + 1) u32 or u64 offsets relative to the buffer start, then the bytes. */
    public static VariableValues decodeVariable(CompressiveEncoding encoding, Slice data, int count)
    {
        if (encoding.hasFsst()) {
            // FSST compresses the bytes of each value; the compressed values sit in a Variable layout
            return FsstDecoder.of(encoding.getFsst().getSymbolTable()).decompress(decodeVariable(encoding.getFsst().getValues(), data, count));
        }
        if (encoding.hasGeneral()) {
            return decodeVariable(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count);
        }
        if (encoding.hasFlat() || encoding.hasPackedStruct()) {
            // fixed-size binary, or the rows of a packed struct (its fields' bytes side by side), as bytes of one width
            return FixedWidthBytes.decode(encoding.hasFlat() ? encoding : encoding.getPackedStruct().getValues(), data, count);
        }
        if (!encoding.hasVariable()) {
            throw unsupported(encoding);
        }
        if (encoding.getVariable().hasValues()) {
            // offsets and bytes share one buffer, so a per-buffer compression here has no known layout
            throw new UnsupportedLanceEncodingException("Variable values with buffer compression " + encoding.getVariable().getValues().getScheme());
        }
        CompressiveEncoding offsetsEncoding = encoding.getVariable().getOffsets();
        if (!offsetsEncoding.hasFlat() || offsetsEncoding.getFlat().hasData()) {
            throw unsupported(offsetsEncoding);
        }
        int offsetBits = toIntExact(offsetsEncoding.getFlat().getBitsPerValue());
        if (offsetBits != 32 && offsetBits != 64) {
            throw unsupported(offsetsEncoding);
        }
        int[] offsets = new int[count + 1];
        int base = toIntExact(offsetBits == 32 ? data.getUnsignedInt(0) : data.getLong(0));
        for (int i = 0; i <= count; i++) {
            long offset = offsetBits == 32 ? data.getUnsignedInt(i * 4) : data.getLong(i * 8);
            offsets[i] = toIntExact(offset) - base;
        }
        // a view of the buffer: callers copy what they keep
        return new VariableValues(data.slice(base, offsets[count]), offsets);
    }

    /**
     * Variable-width values in their block form (dictionary items): u32 offset width in bits, u32 position of the value
     * bytes, then (count + 1) offsets relative to the value bytes.
     */
    public static VariableValues decodeVariableBlock(CompressiveEncoding encoding, Slice data, int count)
    {
        if (encoding.hasGeneral()) {
            return decodeVariableBlock(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count);
        }
        if (!encoding.hasVariable() || encoding.getVariable().hasValues()) {
            throw unsupported(encoding);
        }
        int offsetBits = data.getInt(0);
        if (offsetBits != 32) {
            throw new UnsupportedLanceEncodingException("Variable block with %s-bit offsets".formatted(offsetBits));
        }
        int bytesStart = data.getInt(4);
        int[] offsets = new int[count + 1];
        for (int i = 0; i <= count; i++) {
            offsets[i] = data.getInt(8 + i * 4);
        }
        Slice bytes = data.slice(bytesStart, data.length() - bytesStart);
        return new VariableValues(Slices.wrappedBuffer(bytes.getBytes()), offsets);
    }

    public static UnsupportedLanceEncodingException unsupported(CompressiveEncoding encoding)
    {
        return new UnsupportedLanceEncodingException("Unsupported Lance compressive encoding " + encoding.getCompressionCase() + ": " + shortText(encoding));
    }

    private static String shortText(CompressiveEncoding encoding)
    {
        String text = encoding.toString().replaceAll("\\s+", " ");
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
