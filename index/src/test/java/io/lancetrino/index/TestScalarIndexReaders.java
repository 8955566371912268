package io.lancetrino.index;

import io.airlift.slice.Slice;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.index.IndexKind;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.IndexType;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The readers against indexes the Lance SDK builds: for random domains, btree and bitmap answers equal the rows whose
 * value (as the SDK reads it) is in the domain, zone maps answer a superset; a few domains are also checked against
 * the SDK's own filtered scans. The tables get an unindexed fragment and deletions after the indexes are built, so
 * answers are compared with the rows of the version the indexes were built at.
 */
@TestInstance(PER_CLASS)
final class TestScalarIndexReaders
{
    private static final int ROWS = 27_000;
    private static final int DOMAINS_PER_INDEX = 60;

    /** An index of the test table and the Trino type of its column. */
    private record IndexCase(String name, String column, IndexType sdkType, IndexKind kind, Type type, String params) {}

    private static final List<IndexCase> CASES = List.of(
            new IndexCase("id_btree", "id", IndexType.BTREE, IndexKind.BTREE, BIGINT, null),
            new IndexCase("id_bitmap", "id", IndexType.BITMAP, IndexKind.BITMAP, BIGINT, null),
            new IndexCase("id_zonemap", "id", IndexType.ZONEMAP, IndexKind.ZONEMAP, BIGINT, "{\"rows_per_zone\": 2000}"),
            new IndexCase("cat_bitmap", "cat", IndexType.BITMAP, IndexKind.BITMAP, VARCHAR, null),
            new IndexCase("cat_btree", "cat", IndexType.BTREE, IndexKind.BTREE, VARCHAR, "{\"zone_size\": 2000}"),
            new IndexCase("cat_zonemap", "cat", IndexType.ZONEMAP, IndexKind.ZONEMAP, VARCHAR, "{\"rows_per_zone\": 1000}"),
            new IndexCase("score_btree", "score", IndexType.BTREE, IndexKind.BTREE, DOUBLE, "{\"zone_size\": 1000}"),
            new IndexCase("score_zonemap", "score", IndexType.ZONEMAP, IndexKind.ZONEMAP, DOUBLE, null),
            new IndexCase("day_btree", "day", IndexType.BTREE, IndexKind.BTREE, DATE, "{\"zone_size\": 1000}"),
            new IndexCase("day_zonemap", "day", IndexType.ZONEMAP, IndexKind.ZONEMAP, DATE, "{\"rows_per_zone\": 1000}"),
            new IndexCase("small_bitmap", "small", IndexType.BITMAP, IndexKind.BITMAP, INTEGER, null),
            new IndexCase("small_btree", "small", IndexType.BTREE, IndexKind.BTREE, INTEGER, null));

    private final BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
    private final LocalFileSystem fileSystem = new LocalFileSystem(Path.of("/"));
    private final Map<String, IndexedTable> tables = new LinkedHashMap<>();
    private final Map<String, IndexedTable.Rows> rows = new LinkedHashMap<>();
    private Path directory;

    @BeforeAll
    void createTables(@TempDir Path directory)
            throws Exception
    {
        this.directory = directory;
        Map<String, IndexedTable.IndexSpec> specs = new LinkedHashMap<>();
        CASES.forEach(test -> specs.put(test.name(), new IndexedTable.IndexSpec(test.column(), test.sdkType(), test.params())));
        for (String version : List.of("2.1", "2.2")) {
            Path tableDirectory = Files.createDirectories(directory.resolve(version));
            IndexedTable table = IndexedTable.create(allocator, tableDirectory, version, ROWS, version.hashCode(), specs);
            tables.put(version, table);
            rows.put(version, table.rows(allocator));
        }
    }

    @AfterAll
    void close()
    {
        allocator.close();
    }

    @Test
    void testRandomDomains()
            throws Exception
    {
        long seed = Long.getLong("lance.index.seed", System.nanoTime());
        Random random = new Random(seed);
        IndexCache cache = new IndexCache(64L << 20);
        for (Map.Entry<String, IndexedTable> entry : tables.entrySet()) {
            IndexedTable table = entry.getValue();
            IndexedTable.Rows tableRows = rows.get(entry.getKey());
            for (IndexCase test : CASES) {
                // the same cache for the second half: answers must not depend on what is cached
                IndexCache testCache = random.nextBoolean() ? cache : IndexCache.disabled();
                ScalarIndexReader reader = ScalarIndexes.open(test.kind(), files(table, test.name()), test.type(), testCache).orElseThrow();
                assertThat(reader.kind()).isEqualTo(test.kind());
                assertThat(reader.exact()).isEqualTo(test.kind() != IndexKind.ZONEMAP);
                List<Object> values = nativeValues(tableRows.values().get(test.column()), test.type());
                for (int i = 0; i < DOMAINS_PER_INDEX; i++) {
                    Domain domain = randomDomain(random, test.type(), values);
                    String context = "seed %s (-Dlance.index.seed=%s), storage %s, index %s, domain %s".formatted(seed, seed, entry.getKey(), test.name(), domain.toString(20));
                    IndexAnswer answer = reader.search(domain);
                    RowAddresses expected = expected(tableRows.addresses(), values, domain);
                    assertThat(answer.exact()).as(context).isEqualTo(reader.exact());
                    if (answer.exact()) {
                        assertThat(answer.rows()).as(context).isEqualTo(expected);
                    }
                    else {
                        assertThat(answer.rows().wholeFragments()).as(context).isEmpty();
                        for (long address : tableRows.addresses()) {
                            if (expected.contains(address)) {
                                assertThat(answer.rows().contains(address)).as(context + ": missing row " + address).isTrue();
                            }
                        }
                    }
                    // no rows outside the fragments the index covers
                    assertThat(answer.rows().fragmentIds()).as(context).isSubsetOf(0, 1, 2);
                }
            }
        }
        assertThat(cache.hitCount()).isPositive();
    }

    /** The Trino domains the random test uses mean what the SDK's filters mean, on the SDK's own scans. */
    @Test
    void testAgainstSdkFilters()
            throws Exception
    {
        IndexedTable table = tables.get("2.2");
        IndexCache cache = new IndexCache(16L << 20);
        Map<String, List<Domain>> domains = new LinkedHashMap<>();
        domains.put("id_btree", List.of(
                Domain.singleValue(BIGINT, 42L),
                Domain.create(ValueSet.ofRanges(Range.range(BIGINT, 100L, true, 200L, false), Range.greaterThan(BIGINT, 4990L)), true),
                Domain.onlyNull(BIGINT)));
        domains.put("cat_bitmap", List.of(
                Domain.multipleValues(VARCHAR, List.of(utf8Slice("alpha"), utf8Slice("kilo"), utf8Slice("nope"))),
                Domain.create(ValueSet.ofRanges(Range.lessThanOrEqual(VARCHAR, utf8Slice("charlie"))), true),
                Domain.notNull(VARCHAR)));
        domains.put("score_btree", List.of(
                Domain.create(ValueSet.ofRanges(Range.range(DOUBLE, -10.5, false, 3.25, true)), false),
                Domain.create(ValueSet.ofRanges(Range.greaterThanOrEqual(DOUBLE, 250.0)), true)));
        domains.put("day_btree", List.of(
                Domain.singleValue(DATE, 18100L),
                Domain.create(ValueSet.ofRanges(Range.range(DATE, 18200L, true, 18210L, true)), false)));
        domains.put("small_bitmap", List.of(
                Domain.multipleValues(INTEGER, List.of(3L, 5L, 250L)),
                Domain.create(ValueSet.ofRanges(Range.greaterThan(INTEGER, 195L)), true)));
        for (Map.Entry<String, List<Domain>> entry : domains.entrySet()) {
            IndexCase test = CASES.stream().filter(candidate -> candidate.name().equals(entry.getKey())).findFirst().orElseThrow();
            ScalarIndexReader reader = ScalarIndexes.open(test.kind(), files(table, test.name()), test.type(), cache).orElseThrow();
            for (Domain domain : entry.getValue()) {
                String filter = sqlFilter(test.column(), test.type(), domain);
                Roaring64NavigableMap expected = table.flatScan(allocator, filter);
                RowAddresses.Builder builder = RowAddresses.builder();
                expected.forEach(builder::add);
                assertThat(reader.search(domain).rows()).as("%s: %s", test.name(), filter).isEqualTo(builder.build());
            }
        }
    }

    /** A point lookup reads one page of the btree's data file, once the page lookup is cached. */
    @Test
    void testPointLookupReadsOnePage()
            throws Exception
    {
        IndexedTable table = tables.get("2.1");
        IndexCache cache = new IndexCache(16L << 20);
        ScalarIndexReader reader = ScalarIndexes.open(IndexKind.BTREE, files(table, "id_btree"), BIGINT, cache).orElseThrow();
        long dataSize = Files.size(table.indexDirectory("id_btree").resolve(BTreeIndexReader.DATA_FILE));
        IndexAnswer answer = reader.search(Domain.singleValue(BIGINT, 2500L));
        assertThat(answer.rows().isEmpty()).isFalse();
        // 27,000 rows in pages of 4,096: a page is a seventh of the file
        assertThat(answer.bytesRead()).isPositive().isLessThan(dataSize * 2 / 7);
        // the zone map's table comes from the cache the second time
        ScalarIndexReader zones = ScalarIndexes.open(IndexKind.ZONEMAP, files(table, "day_zonemap"), DATE, cache).orElseThrow();
        IndexAnswer zoneAnswer = zones.search(Domain.singleValue(DATE, 18100L));
        assertThat(zoneAnswer.bytesRead()).isZero();
        // days grow with the row: a day lies in few zones of 1,000 rows
        assertThat(zoneAnswer.rows().cardinality()).isPositive().isLessThanOrEqualTo(6_000);
    }

    @Test
    void testUnhandledTypesAreDeclined()
            throws Exception
    {
        IndexedTable table = tables.get("2.1");
        IndexCache cache = new IndexCache(16L << 20);
        // the index holds int64 values, the column is said to be an integer: never compare across types
        assertThat(ScalarIndexes.open(IndexKind.BTREE, files(table, "id_btree"), INTEGER, cache)).isEmpty();
        assertThat(ScalarIndexes.open(IndexKind.BITMAP, files(table, "cat_bitmap"), BIGINT, cache)).isEmpty();
        assertThat(ScalarIndexes.open(IndexKind.ZONEMAP, files(table, "score_zonemap"), io.trino.spi.type.RealType.REAL, cache)).isEmpty();
        assertThat(ScalarIndexes.open(IndexKind.INVERTED, files(table, "cat_bitmap"), VARCHAR, cache)).isEmpty();
        assertThat(ScalarIndexes.supports(IndexKind.BTREE, io.trino.spi.type.TimestampType.TIMESTAMP_NANOS)).isFalse();
    }

    @Test
    void testLegacyIndexFilesAreDeclined(@TempDir Path directory)
            throws Exception
    {
        Map<String, IndexedTable.IndexSpec> specs = new LinkedHashMap<>();
        specs.put("id_btree", new IndexedTable.IndexSpec("id", IndexType.BTREE, null));
        specs.put("cat_bitmap", new IndexedTable.IndexSpec("cat", IndexType.BITMAP, null));
        specs.put("day_zonemap", new IndexedTable.IndexSpec("day", IndexType.ZONEMAP, null));
        IndexedTable table = IndexedTable.create(allocator, directory, "legacy", 3_000, 7, specs);
        IndexCache cache = new IndexCache(16L << 20);
        for (IndexCase test : List.of(CASES.get(0), CASES.get(3), CASES.get(9))) {
            assertThatThrownBy(() -> ScalarIndexes.open(test.kind(), files(table, test.name()), test.type(), cache))
                    .isInstanceOf(UnsupportedLanceEncodingException.class)
                    .hasMessageContaining("Unsupported Lance file version 0.3");
        }
    }

    @Test
    void testCorruptFilesNameTheFile(@TempDir Path directory)
            throws Exception
    {
        IndexedTable table = tables.get("2.2");
        Path copy = copyIndex(table, "id_btree", directory.resolve("truncated"));
        Path data = copy.resolve(BTreeIndexReader.DATA_FILE);
        try (RandomAccessFile file = new RandomAccessFile(data.toFile(), "rw")) {
            file.setLength(file.length() / 2);
        }
        assertThatThrownBy(() -> ScalarIndexes.open(IndexKind.BTREE, files(copy), BIGINT, IndexCache.disabled()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(data.toString());

        // pages overwritten with garbage, the metadata intact: the search names the file
        Path garbled = copyIndex(table, "id_btree", directory.resolve("garbled"));
        Path garbledData = garbled.resolve(BTreeIndexReader.DATA_FILE);
        byte[] bytes = Files.readAllBytes(garbledData);
        Random random = new Random(3);
        for (int i = 0; i < bytes.length / 3; i++) {
            bytes[i] = (byte) random.nextInt();
        }
        Files.write(garbledData, bytes);
        ScalarIndexReader reader = ScalarIndexes.open(IndexKind.BTREE, files(garbled), BIGINT, IndexCache.disabled()).orElseThrow();
        assertThatThrownBy(() -> reader.search(Domain.create(ValueSet.ofRanges(Range.lessThan(BIGINT, 0L)), true)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(garbledData.toString());

        Path missing = copyIndex(table, "cat_bitmap", directory.resolve("missing"));
        Files.delete(missing.resolve(BitmapIndexReader.LOOKUP_FILE));
        assertThatThrownBy(() -> ScalarIndexes.open(IndexKind.BITMAP, files(missing), VARCHAR, IndexCache.disabled()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(missing.resolve(BitmapIndexReader.LOOKUP_FILE).toString());
    }

    @Test
    void testRowIdTreeMapWholeFragments()
            throws IOException
    {
        // two entries: fragment 4 whole (size 0), fragment 9 rows {1, 70000}
        org.roaringbitmap.RoaringBitmap bitmap = org.roaringbitmap.RoaringBitmap.bitmapOf(1, 70_000);
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(4 + 8 + 8 + bitmap.serializedSizeInBytes()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(2).putInt(4).putInt(0).putInt(9).putInt(bitmap.serializedSizeInBytes());
        bitmap.serialize(buffer.slice().order(java.nio.ByteOrder.LITTLE_ENDIAN));
        RowAddresses rows = RowIdTreeMaps.decode(io.airlift.slice.Slices.wrappedBuffer(buffer.array()), "test");
        assertThat(rows.wholeFragments()).containsExactly(4);
        assertThat(rows.forFragment(4).orElseThrow().wholeFragment()).isTrue();
        assertThat(rows.forFragment(9).orElseThrow().offsets().toArray()).containsExactly(1, 70_000);
        assertThat(rows.cardinality()).isEqualTo(2);
        assertThat(rows.cardinality(fragment -> 100)).isEqualTo(102);
        assertThat(rows.contains((4L << 32) | 12345)).isTrue();
        assertThat(rows.contains((9L << 32) | 2)).isFalse();

        buffer.putInt(0, 1000);
        assertThatThrownBy(() -> RowIdTreeMaps.decode(io.airlift.slice.Slices.wrappedBuffer(buffer.array()), "where"))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("where");
    }

    private static Path copyIndex(IndexedTable table, String index, Path target)
            throws IOException
    {
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(table.indexDirectory(index))) {
            for (Path file : files.toList()) {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
        return target;
    }

    private IndexFiles files(IndexedTable table, String index)
    {
        return files(table.indexDirectory(index));
    }

    private IndexFiles files(Path directory)
    {
        return IndexFiles.of(fileSystem, Location.of("local:///" + directory.toAbsolutePath().toString().substring(1)));
    }

    private static RowAddresses expected(List<Long> addresses, List<Object> values, Domain domain)
    {
        RowAddresses.Builder expected = RowAddresses.builder();
        for (int row = 0; row < addresses.size(); row++) {
            if (domain.includesNullableValue(values.get(row))) {
                expected.add(addresses.get(row));
            }
        }
        return expected.build();
    }

    /** Arrow's Java values (getObject) as Trino native values. */
    private static List<Object> nativeValues(List<Object> arrowValues, Type type)
    {
        List<Object> values = new ArrayList<>(arrowValues.size());
        for (Object value : arrowValues) {
            values.add(switch (value) {
                case null -> null;
                case Text text -> utf8Slice(text.toString());
                case Long longValue -> longValue;
                case Integer integer -> (long) integer;
                case Double doubleValue -> doubleValue;
                default -> throw new IllegalArgumentException("unexpected value " + value.getClass());
            });
        }
        return values;
    }

    private static Domain randomDomain(Random random, Type type, List<Object> values)
    {
        boolean nullAllowed = random.nextInt(4) == 0;
        return switch (random.nextInt(10)) {
            case 0 -> Domain.singleValue(type, randomValue(random, type, values));
            case 1 -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(6); i >= 0; i--) {
                    list.add(randomValue(random, type, values));
                }
                yield Domain.create(ValueSet.copyOf(type, list), nullAllowed);
            }
            case 2 -> Domain.onlyNull(type);
            case 3 -> Domain.notNull(type);
            case 4 -> random.nextBoolean() ? Domain.none(type) : Domain.all(type);
            case 5, 6 -> Domain.create(ValueSet.ofRanges(randomRange(random, type, values)), nullAllowed);
            default -> Domain.create(ValueSet.ofRanges(randomRange(random, type, values), randomRange(random, type, values)), nullAllowed);
        };
    }

    private static Range randomRange(Random random, Type type, List<Object> values)
    {
        Object low = randomValue(random, type, values);
        Object high = randomValue(random, type, values);
        if (compare(type, low, high) > 0) {
            Object swap = low;
            low = high;
            high = swap;
        }
        return switch (random.nextInt(6)) {
            case 0 -> Range.lessThan(type, high);
            case 1 -> Range.lessThanOrEqual(type, high);
            case 2 -> Range.greaterThan(type, low);
            case 3 -> Range.greaterThanOrEqual(type, low);
            default -> compare(type, low, high) == 0 ? Range.equal(type, low) : Range.range(type, low, random.nextBoolean(), high, random.nextBoolean());
        };
    }

    @SuppressWarnings("unchecked")
    private static int compare(Type type, Object left, Object right)
    {
        return ((Comparable<Object>) left).compareTo(right);
    }

    /** A value of the column (often one the table holds, sometimes one it does not). */
    private static Object randomValue(Random random, Type type, List<Object> values)
    {
        if (random.nextInt(3) > 0) {
            for (int attempt = 0; attempt < 10; attempt++) {
                Object value = values.get(random.nextInt(values.size()));
                if (value != null) {
                    return value;
                }
            }
        }
        if (type == BIGINT) {
            return (long) random.nextInt(6_400) - 1_200;
        }
        if (type == INTEGER) {
            return (long) random.nextInt(240) - 20;
        }
        if (type == DATE) {
            return (long) random.nextInt(700) + 17_950;
        }
        if (type == DOUBLE) {
            return Math.round(random.nextGaussian() * 15_000) / 100.0;
        }
        List<String> strings = new ArrayList<>(List.of(IndexedTable.CATEGORIES));
        strings.addAll(List.of("", "a", "alph", "alphaa", "zulu", "Echo", "\u00e9t\u00e9"));
        return utf8Slice(strings.get(random.nextInt(strings.size())));
    }

    /** The domain as a Lance SQL filter. */
    private static String sqlFilter(String column, Type type, Domain domain)
    {
        List<String> disjuncts = new ArrayList<>();
        if (domain.getValues().isAll()) {
            disjuncts.add(column + " IS NOT NULL");
        }
        else if (!domain.getValues().isNone()) {
            for (Range range : domain.getValues().getRanges().getOrderedRanges()) {
                if (range.isSingleValue()) {
                    disjuncts.add("%s = %s".formatted(column, literal(type, range.getSingleValue())));
                    continue;
                }
                List<String> conjuncts = new ArrayList<>();
                range.getLowValue().ifPresent(low -> conjuncts.add("%s %s %s".formatted(column, range.isLowInclusive() ? ">=" : ">", literal(type, low))));
                range.getHighValue().ifPresent(high -> conjuncts.add("%s %s %s".formatted(column, range.isHighInclusive() ? "<=" : "<", literal(type, high))));
                disjuncts.add("(" + String.join(" AND ", conjuncts) + ")");
            }
        }
        if (domain.isNullAllowed()) {
            disjuncts.add(column + " IS NULL");
        }
        return String.join(" OR ", disjuncts);
    }

    private static String literal(Type type, Object value)
    {
        if (type == VARCHAR) {
            return "'" + ((Slice) value).toStringUtf8().replace("'", "''") + "'";
        }
        if (type == DATE) {
            return "date '" + LocalDate.ofEpochDay((Long) value) + "'";
        }
        return value.toString();
    }
}
