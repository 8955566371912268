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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.Math.min;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * A btree index: {@code page_lookup.lance} holds one row per page ({@code min}, {@code max}, {@code null_count},
 * {@code page_idx}) and {@code page_data.lance} the indexed values sorted (nulls first) with their row addresses
 * ({@code values}, {@code ids}). Page {@code p} is rows {@code [p * batch_size, (p + 1) * batch_size)} of the data
 * file, {@code batch_size} being in the lookup file's schema metadata. A page holding nulls has a null {@code min};
 * an all-null page a null {@code max}. Only pages whose [min, max] meet the domain are read, and their values tested
 * one by one, so the answer is exact.
 */
final class BTreeIndexReader
        implements ScalarIndexReader
{
    static final String LOOKUP_FILE = "page_lookup.lance";
    static final String DATA_FILE = "page_data.lance";
    // pages read by one read at most, so a wide range does not decode the whole index at once
    private static final int MAX_PAGES_PER_READ = 16;

    /** The page lookup, with the data file's metadata, as cached. */
    record Lookup(IndexFile dataFile, Block mins, Block maxs, int[] nullCounts, int[] pages, long batchSize, int valuesColumn, int idsColumn)
            implements IndexCache.Weighed
    {
        @Override
        public long retainedBytes()
        {
            return 128 + dataFile.retainedBytes() + mins.getRetainedSizeInBytes() + maxs.getRetainedSizeInBytes() + 8L * nullCounts.length;
        }
    }

    private final IndexFiles files;
    private final Type type;
    private final IndexCache cache;

    private BTreeIndexReader(IndexFiles files, Type type, IndexCache cache)
    {
        this.files = requireNonNull(files, "files is null");
        this.type = requireNonNull(type, "type is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    static Optional<ScalarIndexReader> open(IndexFiles files, Type type, IndexCache cache)
            throws IOException
    {
        BTreeIndexReader reader = new BTreeIndexReader(files, type, cache);
        return reader.lookup(new AtomicLong()).isPresent() ? Optional.of(reader) : Optional.empty();
    }

    @Override
    public IndexKind kind()
    {
        return IndexKind.BTREE;
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
        Lookup lookup = lookup(bytesRead).orElseThrow(() -> new IllegalStateException("index no longer readable: " + files.open(LOOKUP_FILE).location()));
        long dataRows = lookup.dataFile().rows();

        // page number -> whether every row of the page matches, so only its ids need reading
        Map<Integer, Boolean> wanted = new TreeMap<>();
        for (int entry = 0; entry < lookup.pages().length; entry++) {
            int page = lookup.pages()[entry];
            long pageStart = page * lookup.batchSize();
            if (page < 0 || pageStart >= dataRows) {
                throw IndexFile.corrupt(lookup.dataFile().location(), "page %s of the lookup starts at row %s of %s".formatted(page, pageStart, dataRows));
            }
            long pageRows = min(lookup.batchSize(), dataRows - pageStart);
            int nullCount = lookup.nullCounts()[entry];
            boolean allNull = lookup.maxs().isNull(entry);
            Object min = lookup.mins().isNull(entry) ? null : matcher.value(lookup.mins(), entry);
            Object max = allNull ? null : matcher.value(lookup.maxs(), entry);
            boolean nullsMatch = matcher.nullAllowed() && nullCount > 0;
            boolean valuesMayMatch = !allNull && matcher.mayMatch(min, max);
            if (!nullsMatch && !valuesMayMatch) {
                continue;
            }
            boolean everyRow = (nullCount == 0 && valuesMayMatch && matcher.coversAll(min, max))
                    || (allNull && nullCount == pageRows && matcher.nullAllowed());
            wanted.merge(page, everyRow, Boolean::logicalAnd);
        }

        RowAddresses.Builder rows = RowAddresses.builder();
        if (!wanted.isEmpty()) {
            TrinoInputFile dataFile = new CountingInputFile(files.open(DATA_FILE), bytesRead);
            try (TrinoInput input = dataFile.newInput()) {
                int runStart = -1;
                int runEnd = -1;
                boolean runEveryRow = false;
                for (Map.Entry<Integer, Boolean> page : wanted.entrySet()) {
                    boolean continues = runStart >= 0 && page.getKey() == runEnd + 1 && page.getValue() == runEveryRow && runEnd - runStart + 1 < MAX_PAGES_PER_READ;
                    if (!continues) {
                        if (runStart >= 0) {
                            readPages(lookup, input, matcher, runStart, runEnd, runEveryRow, rows);
                        }
                        runStart = page.getKey();
                        runEveryRow = page.getValue();
                    }
                    runEnd = page.getKey();
                }
                readPages(lookup, input, matcher, runStart, runEnd, runEveryRow, rows);
            }
        }
        return new IndexAnswer(rows.build(), true, bytesRead.get());
    }

    private static void readPages(Lookup lookup, TrinoInput input, DomainMatcher matcher, int firstPage, int lastPage, boolean everyRow, RowAddresses.Builder rows)
            throws IOException
    {
        IndexFile dataFile = lookup.dataFile();
        long start = firstPage * lookup.batchSize();
        long end = min((lastPage + 1) * lookup.batchSize(), dataFile.rows());
        int count = toIntExact(end - start);
        Block ids = dataFile.read(input, lookup.idsColumn(), BigintType.BIGINT, start, count);
        if (everyRow) {
            for (int position = 0; position < count; position++) {
                rows.add(BigintType.BIGINT.getLong(ids, position));
            }
            return;
        }
        Block values = dataFile.read(input, lookup.valuesColumn(), matcher.type(), start, count);
        for (int position = 0; position < count; position++) {
            if (matcher.matches(values, position)) {
                rows.add(BigintType.BIGINT.getLong(ids, position));
            }
        }
    }

    /** The cached lookup, or empty when this reader does not handle the index. */
    private Optional<Lookup> lookup(AtomicLong bytesRead)
            throws IOException
    {
        TrinoInputFile lookupFile = new CountingInputFile(files.open(LOOKUP_FILE), bytesRead);
        String key = "btree:" + lookupFile.location() + ":" + type.getDisplayName();
        IndexCache.Weighed cached = cache.get(key, IndexCache.Weighed.class, () -> load(lookupFile, new CountingInputFile(files.open(DATA_FILE), bytesRead)));
        return cached instanceof Lookup lookup ? Optional.of(lookup) : Optional.empty();
    }

    private IndexCache.Weighed load(TrinoInputFile lookupInput, TrinoInputFile dataInput)
            throws IOException
    {
        IndexFile lookupFile = IndexFile.open(lookupInput);
        if (Boolean.parseBoolean(lookupFile.schemaMetadata().getOrDefault("range_partitioned", "false"))) {
            // a distributed build's part files, not read here
            return new Declined("range-partitioned btree");
        }
        int minColumn = lookupFile.column("min");
        int maxColumn = lookupFile.column("max");
        int nullCountColumn = lookupFile.column("null_count", "uint32");
        int pageColumn = lookupFile.column("page_idx", "uint32");
        if (!IndexValueTypes.storedAs(lookupFile.logicalType(minColumn), type) || !IndexValueTypes.storedAs(lookupFile.logicalType(maxColumn), type)) {
            return new Declined("btree of %s values for a column of type %s".formatted(lookupFile.logicalType(minColumn), type));
        }
        long batchSize;
        try {
            batchSize = Long.parseLong(lookupFile.schemaMetadata().getOrDefault("batch_size", "4096"));
        }
        catch (NumberFormatException e) {
            throw IndexFile.corrupt(lookupFile.location(), "batch_size is " + lookupFile.schemaMetadata().get("batch_size"));
        }
        if (batchSize <= 0 || batchSize > Integer.MAX_VALUE) {
            throw IndexFile.corrupt(lookupFile.location(), "batch_size is " + batchSize);
        }
        IndexFile dataFile = IndexFile.open(dataInput);
        int valuesColumn = dataFile.column("values");
        int idsColumn = dataFile.column("ids", "uint64");
        if (!IndexValueTypes.storedAs(dataFile.logicalType(valuesColumn), type)) {
            return new Declined("btree of %s values for a column of type %s".formatted(dataFile.logicalType(valuesColumn), type));
        }

        int entries = toIntExact(lookupFile.rows());
        Block mins;
        Block maxs;
        Block nullCounts;
        Block pages;
        try (TrinoInput input = lookupInput.newInput()) {
            mins = lookupFile.read(input, minColumn, type, 0, entries);
            maxs = lookupFile.read(input, maxColumn, type, 0, entries);
            nullCounts = lookupFile.read(input, nullCountColumn, IntegerType.INTEGER, 0, entries);
            pages = lookupFile.read(input, pageColumn, IntegerType.INTEGER, 0, entries);
        }
        int[] nullCountValues = new int[entries];
        int[] pageValues = new int[entries];
        for (int entry = 0; entry < entries; entry++) {
            if (nullCounts.isNull(entry) || pages.isNull(entry)) {
                throw IndexFile.corrupt(lookupFile.location(), "page entry %s has a null count or page number".formatted(entry));
            }
            nullCountValues[entry] = IntegerType.INTEGER.getInt(nullCounts, entry);
            pageValues[entry] = IntegerType.INTEGER.getInt(pages, entry);
        }
        return new Lookup(dataFile, mins, maxs, nullCountValues, pageValues, batchSize, valuesColumn, idsColumn);
    }
}
