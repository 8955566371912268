package io.lancetrino.file.codec;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;

import static java.lang.Math.toIntExact;

/**
 * Values of a Flat encoding wider than a word or not a power of two (fixed-size binary, packed struct rows) as
 * variable-width values that all have the same length, so they flow through the variable-width paths of the reader.
 */
final class FixedWidthBytes
{
    private FixedWidthBytes() {}

    static VariableValues decode(CompressiveEncoding encoding, Slice data, int count)
    {
        if (encoding.hasGeneral()) {
            return decode(encoding.getGeneral().getValues(), BufferDecompressor.decompress(encoding.getGeneral().getCompression(), data), count);
        }
        if (!encoding.hasFlat()) {
            throw ValueDecoders.unsupported(encoding);
        }
        long bits = encoding.getFlat().getBitsPerValue();
        if (bits == 0 || bits % 8 != 0) {
            throw new UnsupportedLanceEncodingException("Flat values of %s bits as bytes".formatted(bits));
        }
        if (encoding.getFlat().hasData()) {
            data = BufferDecompressor.decompress(encoding.getFlat().getData(), data);
        }
        int width = toIntExact(bits / 8);
        int length = toIntExact((long) width * count);
        if (data.length() < length) {
            throw new IllegalStateException("%s values of %s bytes in a buffer of %s bytes".formatted(count, width, data.length()));
        }
        int[] offsets = new int[count + 1];
        for (int i = 1; i <= count; i++) {
            offsets[i] = offsets[i - 1] + width;
        }
        return new VariableValues(Slices.wrappedBuffer(data.getBytes(0, length)), offsets);
    }
}
