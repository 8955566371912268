package io.lancetrino.sharing.recipient;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;

import static java.util.Objects.checkFromIndexSize;
import static java.util.Objects.requireNonNull;

/**
 * A data file of a shared version, read with HTTP range requests through its signed URL. Lance files never change,
 * so the modification time is a constant and the file metadata cache keys on location and size alone.
 */
public final class SharedInputFile
        implements TrinoInputFile
{
    private final SharingFileSystem fileSystem;
    private final String location;
    private final SharedLocation shared;
    private long length = -1;

    SharedInputFile(SharingFileSystem fileSystem, String location)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.location = requireNonNull(location, "location is null");
        this.shared = SharedLocation.parse(location).filter(parsed -> parsed.sharedVersion().isPresent())
                .orElseThrow(() -> new IllegalArgumentException("Not a file of a shared version: " + location));
    }

    @Override
    public TrinoInput newInput()
    {
        return new Input();
    }

    @Override
    public TrinoInputStream newStream()
            throws IOException
    {
        return new Stream(length());
    }

    @Override
    public long length()
            throws IOException
    {
        if (length < 0) {
            length = fileSystem.signedFile(location, shared, false).size();
        }
        return length;
    }

    @Override
    public Instant lastModified()
    {
        return Instant.EPOCH;
    }

    @Override
    public boolean exists()
            throws IOException
    {
        try {
            length();
            return true;
        }
        catch (FileNotFoundException e) {
            return false;
        }
    }

    @Override
    public Location location()
    {
        return Location.of(location);
    }

    private byte[] read(long position, int count)
            throws IOException
    {
        return fileSystem.read(location, shared, position, count);
    }

    private final class Input
            implements TrinoInput
    {
        @Override
        public void readFully(long position, byte[] buffer, int offset, int count)
                throws IOException
        {
            checkFromIndexSize(offset, count, buffer.length);
            if (position < 0 || position + count > length()) {
                throw new IOException("Cannot read %s bytes at %s of %s: the file has %s bytes".formatted(count, position, location, length()));
            }
            System.arraycopy(read(position, count), 0, buffer, offset, count);
        }

        @Override
        public int readTail(byte[] buffer, int offset, int count)
                throws IOException
        {
            checkFromIndexSize(offset, count, buffer.length);
            int tail = (int) Math.min(count, length());
            System.arraycopy(read(length() - tail, tail), 0, buffer, offset, tail);
            return tail;
        }

        @Override
        public void close() {}
    }

    private final class Stream
            extends TrinoInputStream
    {
        private static final int CHUNK = 1 << 20;
        private final long size;
        private long position;
        private byte[] chunk = new byte[0];
        private long chunkStart;

        private Stream(long size)
        {
            this.size = size;
        }

        @Override
        public long getPosition()
        {
            return position;
        }

        @Override
        public void seek(long position)
                throws IOException
        {
            if (position < 0 || position > size) {
                throw new IOException("Cannot seek to %s of %s (%s bytes)".formatted(position, location, size));
            }
            this.position = position;
        }

        @Override
        public int read()
                throws IOException
        {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int count)
                throws IOException
        {
            checkFromIndexSize(offset, count, buffer.length);
            if (position >= size) {
                return -1;
            }
            if (position < chunkStart || position >= chunkStart + chunk.length) {
                chunkStart = position;
                chunk = SharedInputFile.this.read(position, (int) Math.min(CHUNK, size - position));
            }
            int available = (int) Math.min(count, chunkStart + chunk.length - position);
            System.arraycopy(chunk, (int) (position - chunkStart), buffer, offset, available);
            position += available;
            return available;
        }
    }
}
