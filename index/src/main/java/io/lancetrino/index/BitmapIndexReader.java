package io.lancetrino.index;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.lancetrino.metadata.index.IndexKind;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.spi.block.Block;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * A bitmap index: {@code bitmap_page_lookup.lance} holds one row per distinct value, {@code keys} (the value; the
 * null rows under a null key) and {@code bitmaps} (a serialized {@code RowIdTreeMap}). The keys are tested against
 * the domain and the matching rows' bitmaps united, so the answer is exact. The key table and each decoded bitmap
 * are cached.
 */
final class BitmapIndexReader
        implements ScalarIndexReader
{
    static final String LOOKUP_FILE = "bitmap_page_lookup.lance";

    record Keys(IndexFile file, Block keys, int bitmapsColumn)
            implements IndexCache.Weighed
    {
        @Override
        public long retainedBytes()
        {
            return 64 + file.retainedBytes() + keys.getRetainedSizeInBytes();
        }
    }

    record Bitmap(RowAddresses rows)
            implements IndexCache.Weighed
    {
        @Override
        public long retainedBytes()
        {
            return rows.retainedBytes();
        }
    }

    private final IndexKind kind;
    private final IndexFiles files;
    private final Type type;
    private final IndexCache cache;

    private BitmapIndexReader(IndexKind kind, IndexFiles files, Type type, IndexCache cache)
    {
        this.kind = requireNonNull(kind, "kind is null");
        this.files = requireNonNull(files, "files is null");
        this.type = requireNonNull(type, "type is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    static Optional<BitmapIndexReader> open(IndexKind kind, IndexFiles files, Type type, IndexCache cache)
            throws IOException
    {
        BitmapIndexReader reader = new BitmapIndexReader(kind, files, type, cache);
        return reader.keys(new AtomicLong()).isPresent() ? Optional.of(reader) : Optional.empty();
    }

    @Override
    public IndexKind kind()
    {
        return kind;
    }

    @Override
    public Type type()
    {
        return type;
    }

    @Override
    public boolean exact()
    {
        return true;
    }

    @Override
    public IndexAnswer search(Domain domain)
            throws IOException
    {
        DomainMatcher matcher = new DomainMatcher(type, domain);
        AtomicLong bytesRead = new AtomicLong();
        Keys keys = requireKeys(bytesRead);
        return new IndexAnswer(union(keys, bytesRead, position -> matcher.matches(keys.keys(), position)), true, bytesRead.get());
    }

    /**
     * For a label list index: the rows whose list holds every one of {@code labels} ({@code all}) or any of them.
     * Labels are native values of the element type; a label not in the index matches no row.
     */
    IndexAnswer searchLabels(List<Object> labels, boolean all)
            throws IOException
    {
        AtomicLong bytesRead = new AtomicLong();
        Keys keys = requireKeys(bytesRead);
        DomainMatcher[] matchers = labels.stream()
                .map(label -> new DomainMatcher(type, Domain.singleValue(type, label)))
                .toArray(DomainMatcher[]::new);
        if (!all) {
            return new IndexAnswer(union(keys, bytesRead, position -> {
                for (DomainMatcher matcher : matchers) {
                    if (matcher.matches(keys.keys(), position)) {
                        return true;
                    }
                }
                return false;
            }), true, bytesRead.get());
        }
        RowAddresses result = null;
        for (DomainMatcher matcher : matchers) {
            RowAddresses rows = union(keys, bytesRead, position -> matcher.matches(keys.keys(), position));
            result = result == null ? rows : intersect(result, rows);
        }
        return new IndexAnswer(result == null ? RowAddresses.empty() : result, true, bytesRead.get());
    }

    private static RowAddresses intersect(RowAddresses left, RowAddresses right)
    {
        RowAddresses.Builder result = RowAddresses.builder();
        for (RowAddresses.FragmentRows leftRows : left.fragments()) {
            Optional<RowAddresses.FragmentRows> rightRows = right.forFragment(leftRows.fragmentId());
            if (rightRows.isEmpty()) {
                continue;
            }
            if (leftRows.wholeFragment() && rightRows.get().wholeFragment()) {
                result.addWholeFragment(leftRows.fragmentId());
            }
            else if (leftRows.wholeFragment()) {
                result.addAll(leftRows.fragmentId(), rightRows.get().offsets());
            }
            else if (rightRows.get().wholeFragment()) {
                result.addAll(leftRows.fragmentId(), leftRows.offsets());
            }
            else {
                result.addAll(leftRows.fragmentId(), org.roaringbitmap.RoaringBitmap.and(leftRows.offsets(), rightRows.get().offsets()));
            }
        }
        return result.build();
    }

    /** The union of the bitmaps of the key rows {@code matches} accepts; uncached bitmaps read in runs of rows. */
    private RowAddresses union(Keys keys, AtomicLong bytesRead, IntPredicate matches)
            throws IOException
    {
        RowAddresses.Builder rows = RowAddresses.builder();
        List<Integer> missing = new ArrayList<>();
        for (int position = 0; position < keys.keys().getPositionCount(); position++) {
            if (!matches.test(position)) {
                continue;
            }
            Optional<Bitmap> cached = cache.getIfPresent(bitmapKey(keys, position), Bitmap.class);
            if (cached.isPresent()) {
                rows.addAll(cached.get().rows());
            }
            else {
                missing.add(position);
            }
        }
        if (missing.isEmpty()) {
            return rows.build();
        }
        TrinoInputFile file = new CountingInputFile(files.open(LOOKUP_FILE), bytesRead);
        try (TrinoInput input = file.newInput()) {
            for (List<Integer> run : runs(missing)) {
                int start = run.getFirst();
                Block bitmaps = keys.file().read(input, keys.bitmapsColumn(), VarbinaryType.VARBINARY, start, run.size());
                for (int offset = 0; offset < run.size(); offset++) {
                    int position = start + offset;
                    if (bitmaps.isNull(offset)) {
                        throw IndexFile.corrupt(keys.file().location(), "the bitmap of key row %s is null".formatted(position));
                    }
                    Slice bytes = VarbinaryType.VARBINARY.getSlice(bitmaps, offset);
                    RowAddresses decoded = RowIdTreeMaps.decode(bytes, "Corrupt index file %s, key row %s".formatted(keys.file().location(), position));
                    cache.put(bitmapKey(keys, position), new Bitmap(decoded));
                    rows.addAll(decoded);
                }
            }
        }
        return rows.build();
    }

    private static List<List<Integer>> runs(List<Integer> positions)
    {
        ImmutableList.Builder<List<Integer>> runs = ImmutableList.builder();
        List<Integer> run = new ArrayList<>();
        for (int position : positions) {
            // bounded, so one read does not hold every bitmap of a wide domain at once
            if (!run.isEmpty() && (position != run.getLast() + 1 || run.size() >= 64)) {
                runs.add(run);
                run = new ArrayList<>();
            }
            run.add(position);
        }
        runs.add(run);
        return runs.build();
    }

    private static String bitmapKey(Keys keys, int position)
    {
        return "bitmap:" + keys.file().location() + ":" + position;
    }

    private Keys requireKeys(AtomicLong bytesRead)
            throws IOException
    {
        return keys(bytesRead).orElseThrow(() -> new IllegalStateException("index no longer readable: " + files.open(LOOKUP_FILE).location()));
    }

    private Optional<Keys> keys(AtomicLong bytesRead)
            throws IOException
    {
        TrinoInputFile file = new CountingInputFile(files.open(LOOKUP_FILE), bytesRead);
        String key = "bitmap-keys:" + file.location() + ":" + type.getDisplayName();
        IndexCache.Weighed cached = cache.get(key, IndexCache.Weighed.class, () -> load(file));
        return cached instanceof Keys keys ? Optional.of(keys) : Optional.empty();
    }

    private IndexCache.Weighed load(TrinoInputFile input)
            throws IOException
    {
        IndexFile file = IndexFile.open(input);
        int keysColumn = file.column("keys");
        int bitmapsColumn = file.column("bitmaps", "binary", "large_binary");
        if (!IndexValueTypes.storedAs(file.logicalType(keysColumn), type)) {
            return new Declined("%s index of %s keys for a column of type %s".formatted(kind.sqlName(), file.logicalType(keysColumn), type));
        }
        Block keys;
        try (TrinoInput trinoInput = input.newInput()) {
            keys = file.read(trinoInput, keysColumn, type, 0, toIntExact(file.rows()));
        }
        return new Keys(file, keys, bitmapsColumn);
    }
}
