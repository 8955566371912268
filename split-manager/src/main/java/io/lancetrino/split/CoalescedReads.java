package io.lancetrino.split;

import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The page buffers a split will read from one data file, fetched in few large ranged reads: buffers of all its
 * columns that lie close together in the file are read at once, so an object store serves a split with a few GETs
 * instead of one per buffer. Buffers are handed out once; the readers keep what they reuse.
 */
final class CoalescedReads
        implements AutoCloseable
{
    // a gap this small costs less to read than another request (object stores: tens of ms per GET)
    private static final long MAX_GAP = 1L << 20;
    private static final long MAX_READ = 16L << 20;

    private final TrinoInputFile file;
    // planned buffers not read yet, by position, with their lengths
    private final TreeMap<Long, Integer> pending = new TreeMap<>();
    // buffers read with another one and not taken yet
    private final Map<BufferRange, Slice> read = new HashMap<>();
    private TrinoInput input;
    private long readBytes;
    private long readCount;

    CoalescedReads(TrinoInputFile file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    /** A buffer some reader of the split will ask for. */
    void plan(long position, long length)
    {
        if (length > 0 && length <= MAX_READ) {
            pending.merge(position, toIntExact(length), Math::max);
        }
    }

    /**
     * The planned buffer at {@code [position, position + length)}, read together with its planned neighbours the
     * first time one of them is asked for; empty for a buffer that was not planned (or was already taken).
     */
    Optional<Slice> take(long position, int length)
            throws IOException
    {
        Slice slice = read.remove(new BufferRange(position, length));
        if (slice != null) {
            return Optional.of(slice);
        }
        Integer planned = pending.get(position);
        if (planned == null || planned != length) {
            return Optional.empty();
        }
        // extend around the buffer while the next planned one is near and the read stays bounded
        long start = position;
        long end = position + length;
        for (Map.Entry<Long, Integer> before = pending.lowerEntry(start); before != null; before = pending.lowerEntry(start)) {
            long beforeEnd = before.getKey() + before.getValue();
            if (start - beforeEnd > MAX_GAP || end - before.getKey() > MAX_READ) {
                break;
            }
            start = Math.min(start, before.getKey());
        }
        for (Map.Entry<Long, Integer> after = pending.higherEntry(position); after != null; after = pending.higherEntry(after.getKey())) {
            if (after.getKey() - end > MAX_GAP || after.getKey() + after.getValue() - start > MAX_READ) {
                break;
            }
            end = Math.max(end, after.getKey() + after.getValue());
        }
        Slice whole = input().readFully(start, toIntExact(end - start));
        readCount++;
        readBytes += end - start;
        Map<Long, Integer> members = new HashMap<>(pending.subMap(start, true, end, false));
        for (Map.Entry<Long, Integer> member : members.entrySet()) {
            long memberEnd = member.getKey() + member.getValue();
            if (memberEnd <= end) {
                pending.remove(member.getKey());
                Slice memberSlice = whole.slice(toIntExact(member.getKey() - start), member.getValue());
                if (member.getKey() != position) {
                    read.put(new BufferRange(member.getKey(), member.getValue()), memberSlice);
                }
                else {
                    slice = memberSlice;
                }
            }
        }
        return Optional.of(requireNonNull(slice, "planned buffer not in its own read"));
    }

    /** Bytes held for buffers read ahead and not taken yet. */
    long retainedBytes()
    {
        long bytes = 0;
        for (BufferRange range : read.keySet()) {
            bytes += range.length();
        }
        return bytes;
    }

    long readCount()
    {
        return readCount;
    }

    long readBytes()
    {
        return readBytes;
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
        read.clear();
        pending.clear();
        if (input != null) {
            input.close();
            input = null;
        }
    }

    private record BufferRange(long position, int length) {}
}
