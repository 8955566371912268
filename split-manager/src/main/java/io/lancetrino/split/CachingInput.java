package io.lancetrino.split;

import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Ranged reads of one data file that keep the most recent buffers: the Java reader reads a page's buffers again for
 * every batch it decodes from that page, which must not mean another read of the same bytes each time.
 */
final class CachingInput
        implements TrinoInput
{
    // a page rarely has more than a few buffers; above this the oldest go first
    private static final long MAX_CACHED_BYTES = 32L << 20;
    private static final int MIN_CACHED_BUFFERS = 4;

    private final TrinoInputFile file;
    private final Optional<CoalescedReads> coalescedReads;
    private final Map<BufferRange, Slice> cache = new LinkedHashMap<>(16, 0.75f, true);
    private TrinoInput input;
    private long cachedBytes;

    CachingInput(TrinoInputFile file)
    {
        this(file, Optional.empty());
    }

    /**
     * @param coalescedReads the split's planned reads of this file, shared by its columns
     */
    CachingInput(TrinoInputFile file, Optional<CoalescedReads> coalescedReads)
    {
        this.file = requireNonNull(file, "file is null");
        this.coalescedReads = requireNonNull(coalescedReads, "coalescedReads is null");
    }

    @Override
    public Slice readFully(long position, int length)
            throws IOException
    {
        BufferRange range = new BufferRange(position, length);
        Slice slice = cache.get(range);
        if (slice != null) {
            return slice;
        }
        Optional<Slice> coalesced = coalescedReads.isPresent() ? coalescedReads.get().take(position, length) : Optional.empty();
        slice = coalesced.isPresent() ? coalesced.get() : input().readFully(position, length);
        cache.put(range, slice);
        cachedBytes += length;
        Iterator<Map.Entry<BufferRange, Slice>> eldest = cache.entrySet().iterator();
        while (cachedBytes > MAX_CACHED_BYTES && cache.size() > MIN_CACHED_BUFFERS) {
            cachedBytes -= eldest.next().getKey().length();
            eldest.remove();
        }
        return slice;
    }

    @Override
    public void readFully(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        input().readFully(position, buffer, bufferOffset, bufferLength);
    }

    @Override
    public int readTail(byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        return input().readTail(buffer, bufferOffset, bufferLength);
    }

    long retainedBytes()
    {
        return cachedBytes;
    }

    private TrinoInput input()
            throws IOException
    {
        if (input == null) {
            input = file.newInput();
        }
        return input;
    }

    @Override
    public void close()
            throws IOException
    {
        cache.clear();
        cachedBytes = 0;
        if (input != null) {
            input.close();
            input = null;
        }
    }

    private record BufferRange(long position, int length) {}
}
