package io.lancetrino.index;

import io.airlift.slice.Slice;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/** A file whose positioned reads add their sizes to a counter: the bytes one index search read. */
final class CountingInputFile
        implements TrinoInputFile
{
    private final TrinoInputFile delegate;
    private final AtomicLong bytesRead;

    CountingInputFile(TrinoInputFile delegate, AtomicLong bytesRead)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.bytesRead = requireNonNull(bytesRead, "bytesRead is null");
    }

    @Override
    public TrinoInput newInput()
            throws IOException
    {
        TrinoInput input = delegate.newInput();
        return new TrinoInput()
        {
            @Override
            public void readFully(long position, byte[] buffer, int bufferOffset, int bufferLength)
                    throws IOException
            {
                input.readFully(position, buffer, bufferOffset, bufferLength);
                bytesRead.addAndGet(bufferLength);
            }

            @Override
            public int readTail(byte[] buffer, int bufferOffset, int bufferLength)
                    throws IOException
            {
                int read = input.readTail(buffer, bufferOffset, bufferLength);
                bytesRead.addAndGet(read);
                return read;
            }

            @Override
            public Slice readFully(long position, int length)
                    throws IOException
            {
                Slice slice = input.readFully(position, length);
                bytesRead.addAndGet(slice.length());
                return slice;
            }

            @Override
            public Slice readTail(int length)
                    throws IOException
            {
                Slice slice = input.readTail(length);
                bytesRead.addAndGet(slice.length());
                return slice;
            }

            @Override
            public void close()
                    throws IOException
            {
                input.close();
            }
        };
    }

    @Override
    public TrinoInputStream newStream()
            throws IOException
    {
        // index files are read by position only
        throw new UnsupportedOperationException("streams are not counted: " + delegate.location());
    }

    @Override
    public long length()
            throws IOException
    {
        return delegate.length();
    }

    @Override
    public Instant lastModified()
            throws IOException
    {
        return delegate.lastModified();
    }

    @Override
    public boolean exists()
            throws IOException
    {
        return delegate.exists();
    }

    @Override
    public Location location()
    {
        return delegate.location();
    }
}
