package io.lancetrino.file.writer;

import io.airlift.slice.Slice;

import java.io.IOException;
import java.io.OutputStream;

import static java.util.Objects.requireNonNull;

/**
 * An output that knows how many bytes it has written, for the absolute positions Lance files record.
 */
final class PositionedOutput
{
    private static final byte[] ZEROS = new byte[64];

    private final OutputStream output;
    private long position;

    PositionedOutput(OutputStream output)
    {
        this.output = requireNonNull(output, "output is null");
    }

    long position()
    {
        return position;
    }

    void write(byte[] bytes)
            throws IOException
    {
        output.write(bytes);
        position += bytes.length;
    }

    void write(Slice slice)
            throws IOException
    {
        slice.getBytes(0, output, slice.length());
        position += slice.length();
    }

    void align(int alignment)
            throws IOException
    {
        int padding = (int) ((alignment - position % alignment) % alignment);
        output.write(ZEROS, 0, padding);
        position += padding;
    }

    void close()
            throws IOException
    {
        output.close();
    }
}
