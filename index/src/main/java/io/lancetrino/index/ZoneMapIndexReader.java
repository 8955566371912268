package io.lancetrino.index;

import io.lancetrino.metadata.index.IndexKind;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.spi.block.Block;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * A zone map: {@code zonemap.lance} holds one row per zone of a fragment ({@code min}, {@code max} of its non-null
 * values, {@code null_count}, {@code nan_count}, {@code fragment_id}, {@code zone_start}, {@code zone_length}; the
 * zone is row offsets {@code [zone_start, zone_start + zone_length)}, a span that includes rows deleted before the
 * build). The answer is the zones that may hold a matching row: a superset.
 */
final class ZoneMapIndexReader
        implements ScalarIndexReader
{
    static final String FILE = "zonemap.lance";

    record Zones(Block mins, Block maxs, long[] nullCounts, long[] nanCounts, int[] fragmentIds, long[] starts, long[] lengths)
            implements IndexCache.Weighed
    {
        @Override
        public long retainedBytes()
        {
            return 128 + mins.getRetainedSizeInBytes() + maxs.getRetainedSizeInBytes() + 36L * starts.length;
        }
    }

    private final IndexFiles files;
    private final Type type;
    private final IndexCache cache;

    private ZoneMapIndexReader(IndexFiles files, Type type, IndexCache cache)
    {
        this.files = requireNonNull(files, "files is null");
        this.type = requireNonNull(type, "type is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    static Optional<ScalarIndexReader> open(IndexFiles files, Type type, IndexCache cache)
            throws IOException
    {
        ZoneMapIndexReader reader = new ZoneMapIndexReader(files, type, cache);
        return reader.zones(new AtomicLong()).isPresent() ? Optional.of(reader) : Optional.empty();
    }

    @Override
    public IndexKind kind()
    {
        return IndexKind.ZONEMAP;
    }

    @Override
    public Type type()
    {
        return type;
    }

    @Override
    public boolean exact()
    {
        return false;
    }

    @Override
    public IndexAnswer search(Domain domain)
            throws IOException
    {
        DomainMatcher matcher = new DomainMatcher(type, domain);
        AtomicLong bytesRead = new AtomicLong();
        Zones zones = zones(bytesRead).orElseThrow(() -> new IllegalStateException("index no longer readable: " + files.open(FILE).location()));
        RowAddresses.Builder rows = RowAddresses.builder();
        for (int zone = 0; zone < zones.starts().length; zone++) {
            if (mayMatch(zones, zone, matcher)) {
                rows.addRange(zones.fragmentIds()[zone], zones.starts()[zone], zones.starts()[zone] + zones.lengths()[zone]);
            }
        }
        return new IndexAnswer(rows.build(), false, bytesRead.get());
    }

    private static boolean mayMatch(Zones zones, int zone, DomainMatcher matcher)
    {
        long nullCount = zones.nullCounts()[zone];
        long nanCount = zones.nanCounts()[zone];
        long length = zones.lengths()[zone];
        if (matcher.nullAllowed() && nullCount > 0) {
            return true;
        }
        // the span counts deleted rows too, so this errs on the side of a match
        if (matcher.noValues() || length <= nullCount) {
            return false;
        }
        if (matcher.allValues()) {
            return true;
        }
        if (zones.mins().isNull(zone) || zones.maxs().isNull(zone)) {
            // no bounds: only NaN (which no such domain holds), or bounds Lance did not record
            return length > nullCount + nanCount;
        }
        return matcher.mayMatch(matcher.value(zones.mins(), zone), matcher.value(zones.maxs(), zone));
    }

    private Optional<Zones> zones(AtomicLong bytesRead)
            throws IOException
    {
        TrinoInputFile file = new CountingInputFile(files.open(FILE), bytesRead);
        String key = "zonemap:" + file.location() + ":" + type.getDisplayName();
        IndexCache.Weighed cached = cache.get(key, IndexCache.Weighed.class, () -> load(file));
        return cached instanceof Zones zones ? Optional.of(zones) : Optional.empty();
    }

    private IndexCache.Weighed load(TrinoInputFile input)
            throws IOException
    {
        IndexFile file = IndexFile.open(input);
        int minColumn = file.column("min");
        int maxColumn = file.column("max");
        int nullCountColumn = file.column("null_count", "uint32");
        int nanCountColumn = file.column("nan_count", "uint32");
        int fragmentColumn = file.column("fragment_id", "uint64");
        int startColumn = file.column("zone_start", "uint64");
        int lengthColumn = file.column("zone_length", "uint64", "uint32");
        if (!IndexValueTypes.storedAs(file.logicalType(minColumn), type) || !IndexValueTypes.storedAs(file.logicalType(maxColumn), type)) {
            return new Declined("zonemap of %s values for a column of type %s".formatted(file.logicalType(minColumn), type));
        }
        int zoneCount = toIntExact(file.rows());
        try (TrinoInput trinoInput = input.newInput()) {
            Block mins = file.read(trinoInput, minColumn, type, 0, zoneCount);
            Block maxs = file.read(trinoInput, maxColumn, type, 0, zoneCount);
            long[] nullCounts = unsigned32(file, file.read(trinoInput, nullCountColumn, IntegerType.INTEGER, 0, zoneCount), "null_count");
            long[] nanCounts = unsigned32(file, file.read(trinoInput, nanCountColumn, IntegerType.INTEGER, 0, zoneCount), "nan_count");
            long[] fragments = longs(file, file.read(trinoInput, fragmentColumn, BigintType.BIGINT, 0, zoneCount), "fragment_id");
            long[] starts = longs(file, file.read(trinoInput, startColumn, BigintType.BIGINT, 0, zoneCount), "zone_start");
            long[] lengths = file.logicalType(lengthColumn).equals("uint32")
                    ? unsigned32(file, file.read(trinoInput, lengthColumn, IntegerType.INTEGER, 0, zoneCount), "zone_length")
                    : longs(file, file.read(trinoInput, lengthColumn, BigintType.BIGINT, 0, zoneCount), "zone_length");
            int[] fragmentIds = new int[zoneCount];
            for (int zone = 0; zone < zoneCount; zone++) {
                if (fragments[zone] < 0 || fragments[zone] > 0xFFFF_FFFFL || starts[zone] < 0 || lengths[zone] < 0 || starts[zone] + lengths[zone] > 0x1_0000_0000L) {
                    throw IndexFile.corrupt(file.location(), "zone %s is rows [%s, +%s) of fragment %s".formatted(zone, starts[zone], lengths[zone], fragments[zone]));
                }
                fragmentIds[zone] = (int) fragments[zone];
            }
            return new Zones(mins, maxs, nullCounts, nanCounts, fragmentIds, starts, lengths);
        }
    }

    private static long[] unsigned32(IndexFile file, Block block, String column)
            throws IOException
    {
        long[] values = new long[block.getPositionCount()];
        for (int position = 0; position < values.length; position++) {
            if (block.isNull(position)) {
                throw IndexFile.corrupt(file.location(), "%s of zone %s is null".formatted(column, position));
            }
            values[position] = Integer.toUnsignedLong(IntegerType.INTEGER.getInt(block, position));
        }
        return values;
    }

    private static long[] longs(IndexFile file, Block block, String column)
            throws IOException
    {
        long[] values = new long[block.getPositionCount()];
        for (int position = 0; position < values.length; position++) {
            if (block.isNull(position)) {
                throw IndexFile.corrupt(file.location(), "%s of zone %s is null".formatted(column, position));
            }
            values[position] = BigintType.BIGINT.getLong(block, position);
        }
        return values;
    }
}
