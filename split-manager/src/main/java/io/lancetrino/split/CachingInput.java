package io.lancetrino.split;

import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    private final Optional<FileMetadataCache.SharedBuffers> sharedBuffers;
    private final Map<BufferRange, Slice> cache = new LinkedHashMap<>(16, 0.75f, true);
    // ranges read through the shared buffers rather than from the file each time
    private final Set<BufferRange> shared = new HashSet<>();
    private final Map<BufferRange, Slice> sharedSlices = new HashMap<>();
    private long directReads;
    private long directReadBytes;
    private TrinoInput input;
    private long cachedBytes;

    CachingInput(TrinoInputFile file)
    {
        this(file, Optional.empty(), Optional.empty());
    }

    /**
     * @param coalescedReads the split's planned reads of this file, shared by its columns
     * @param sharedBuffers where page buffers marked {@link #shareable} are kept across splits and queries
     */
    CachingInput(TrinoInputFile file, Optional<CoalescedReads> coalescedReads, Optional<FileMetadataCache.SharedBuffers> sharedBuffers)
    {
        this.file = requireNonNull(file, "file is null");
        this.coalescedReads = requireNonNull(coalescedReads, "coalescedReads is null");
        this.sharedBuffers = requireNonNull(sharedBuffers, "sharedBuffers is null");
    }

    /** Marks a page buffer every reader of a few of the page's rows needs (a chunk table, a dictionary) as shared. */
    void shareable(long position, long length)
    {
        if (sharedBuffers.isPresent() && length <= Integer.MAX_VALUE) {
            shared.add(new BufferRange(position, (int) length));
        }
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
        Optional<Slice> within = withinSharedBuffer(position, length);
        if (within.isPresent()) {
            // e.g. the chunk table entries of a page narrowed to some chunks: the whole table is at hand
            return within.get();
        }
        Optional<Slice> coalesced = coalescedReads.isPresent() ? coalescedReads.get().take(position, length) : Optional.empty();
        if (coalesced.isPresent()) {
            slice = coalesced.get();
        }
        else if (shared.contains(range)) {
            slice = sharedBuffers.orElseThrow().get(position, length, this::readDirectly);
            sharedSlices.put(range, slice);
        }
        else {
            slice = readDirectly(position, length);
        }
        cache.put(range, slice);
        cachedBytes += length;
        Iterator<Map.Entry<BufferRange, Slice>> eldest = cache.entrySet().iterator();
        while (cachedBytes > MAX_CACHED_BYTES && cache.size() > MIN_CACHED_BUFFERS) {
            cachedBytes -= eldest.next().getKey().length();
            eldest.remove();
        }
        return slice;
    }

    private Optional<Slice> withinSharedBuffer(long position, int length)
    {
        for (Map.Entry<BufferRange, Slice> entry : sharedSlices.entrySet()) {
            BufferRange range = entry.getKey();
            if (position >= range.position() && position + length <= range.position() + range.length()) {
                return Optional.of(entry.getValue().slice((int) (position - range.position()), length));
            }
        }
        return Optional.empty();
    }

    private Slice readDirectly(long position, int length)
            throws IOException
    {
        directReads++;
        directReadBytes += length;
        return input().readFully(position, length);
    }

    @Override
    public void readFully(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        directReads++;
        directReadBytes += bufferLength;
        input().readFully(position, buffer, bufferOffset, bufferLength);
    }

    /** Reads from the file that no planned (coalesced) read or shared buffer served. */
    long directReads()
    {
        return directReads;
    }

    long directReadBytes()
    {
        return directReadBytes;
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
        sharedSlices.clear();
        cachedBytes = 0;
        if (input != null) {
            input.close();
            input = null;
        }
    }

    private record BufferRange(long position, int length) {}
}
