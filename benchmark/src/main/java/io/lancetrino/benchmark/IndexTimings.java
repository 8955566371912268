package io.lancetrino.benchmark;

import io.trino.Session;
import io.trino.execution.QueryInfo;
import io.trino.execution.QueryStats;
import io.trino.execution.StageInfo;
import io.trino.execution.StagesInfo;
import io.trino.spi.metrics.Count;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;
import static io.lancetrino.benchmark.Measurements.median;
import static java.util.Objects.requireNonNull;

/**
 * Scalar indexes: what each costs to build next to a CTAS copy of its table, and what it buys for point lookups, a
 * small IN-list and a selective bitmap filter on columns that are not the sort key, each with the index, without it
 * ({@code use_scalar_index = false}) and on Iceberg, next to {@code SELECT 1} on the same server.
 * <p>
 * The indexes are built on copies of {@code lineitem} and {@code orders} in their own schema, made by the CTAS that is
 * timed: an index on the shared tables would change what other parts measure (Q12 filters {@code l_shipmode}, the
 * sharing load serves {@code orders}, clones copy index files, storage counts them) and leave versions and index files
 * behind on every run. The copies are dropped at the end, and any left by an interrupted run at the start.
 */
public final class IndexTimings
{
    static final String SCHEMA = "bench_indexes";
    // the catalog session property the unindexed variant turns off (true by default)
    static final String USE_SCALAR_INDEX = "use_scalar_index";
    public static final double SELECT_ONE_GOAL = 1.5;
    public static final double ICEBERG_GOAL = 0.1;

    public static final String INDEXED = "lance, index";
    public static final String UNINDEXED = "lance, no index";
    public static final String ICEBERG = "iceberg";
    public static final String SELECT_ONE = "SELECT 1";
    // the floor of any query reading a table: five rows in one file, on each connector
    public static final String LANCE_TINY_SCAN = "lance, SELECT * FROM region";
    public static final String ICEBERG_TINY_SCAN = "iceberg, SELECT * FROM region";
    // the answer of one l_partkey = k lookup alone, spread over as many fragments as the lineitem copy has: what
    // reading just the rows an index selects costs, however good the index
    public static final String LANCE_ANSWER_SCAN = "lance, SELECT * FROM <the answer of l_partkey = k alone>";
    public static final String ICEBERG_ANSWER_SCAN = "iceberg, SELECT * FROM <the answer of l_partkey = k alone>";
    private static final String TINY_TABLE = "region";
    private static final String ANSWER_TABLE = "lookup_answer";
    private static final String ICEBERG_ANSWER_TABLE = "bench_indexes_lookup_answer";
    private static final String ICEBERG_TINY_TABLE = "bench_indexes_region";

    private static final List<String> TABLES = List.of("lineitem", "orders");

    private static final List<IndexSpec> INDEXES = List.of(
            new IndexSpec("lineitem", "l_partkey", "btree", "l_partkey_btree"),
            // seven ship modes, each on about 1/7 of the rows
            new IndexSpec("lineitem", "l_shipmode", "bitmap", "l_shipmode_bitmap"),
            new IndexSpec("orders", "o_custkey", "btree", "o_custkey_btree"));

    public static final List<Lookup> LOOKUPS = List.of(
            new Lookup("partkey_eq", "l_partkey = k", "SELECT * FROM lineitem WHERE l_partkey = %s", "lineitem", "l_partkey", 1, true),
            new Lookup("partkey_in5", "l_partkey IN (5 keys)", "SELECT * FROM lineitem WHERE l_partkey IN (%s)", "lineitem", "l_partkey", 5, true),
            // a third of the customers have no orders: keys are drawn from those that have
            new Lookup("custkey_eq", "o_custkey = k", "SELECT * FROM orders WHERE o_custkey = %s", "orders", "o_custkey", 1, true),
            // 1/7 of the rows by the bitmap index, then about a quarter of those by l_returnflag (3.5% of lineitem)
            new Lookup("bitmap_filter", "l_shipmode = 'AIR' AND l_returnflag = 'R'",
                    "SELECT count(*), sum(l_extendedprice) FROM lineitem WHERE l_shipmode = 'AIR' AND l_returnflag = 'R'", "lineitem", "", 0, false));

    private IndexTimings() {}

    private record IndexSpec(String table, String column, String type, String name) {}

    /**
     * A query of the part; {@code %s} in its text is replaced by {@code keys} keys of {@code column}, drawn anew for
     * every run.
     *
     * @param goals whether the goals for an indexed lookup apply
     */
    public record Lookup(String name, String description, String sql, String table, String column, int keys, boolean goals)
    {
        public Lookup
        {
            requireNonNull(name, "name is null");
            requireNonNull(description, "description is null");
            requireNonNull(sql, "sql is null");
            requireNonNull(table, "table is null");
            requireNonNull(column, "column is null");
        }
    }

    /**
     * One index build, next to the CTAS that made the copy of its table; the metrics are those {@code create_index}
     * returns.
     */
    public record IndexBuild(
            String table,
            String column,
            String indexType,
            String name,
            long tableRows,
            long tableDataBytes,
            double ctasSeconds,
            double buildSeconds,
            long rowsIndexed,
            long rowsNotIndexed,
            long fragmentsCovered,
            long indexSizeBytes,
            long buildMillis)
    {
        public IndexBuild
        {
            requireNonNull(table, "table is null");
            requireNonNull(column, "column is null");
            requireNonNull(indexType, "indexType is null");
            requireNonNull(name, "name is null");
        }
    }

    /**
     * One execution: wall time, Trino's CPU time, physical input as Trino reports it (bytes and rows the page sources
     * returned; Lance's page source counts the rows its predicate pass kept, in decoded bytes), the bytes the Java
     * reader fetched from Lance data files (the scan's {@code coalescedReadBytes} metric; zero for Iceberg), and what
     * the split source reported of its index lookups: bytes of index files read past the catalog's index cache
     * ({@code scalarIndexBytesRead}) and rows the indexes ruled out ({@code scalarIndexRowsSkipped}).
     */
    private record Sample(double seconds, double cpuSeconds, long inputBytes, long inputRows, long lanceFileReads, long lanceFileBytes, long indexBytes, long indexRowsSkipped, long outputRows) {}

    /**
     * Medians over the timed runs, p90 by nearest rank (the slowest run below 10 runs).
     */
    public record VariantStats(
            String variant,
            double medianSeconds,
            double p90Seconds,
            double minSeconds,
            double maxSeconds,
            double medianCpuSeconds,
            long medianInputBytes,
            long medianInputRows,
            long medianLanceFileReads,
            long medianLanceFileBytes,
            long medianIndexBytes,
            long medianIndexRowsSkipped,
            long medianOutputRows)
    {
        public VariantStats
        {
            requireNonNull(variant, "variant is null");
        }

        static VariantStats of(String variant, List<Sample> samples)
        {
            List<Double> seconds = samples.stream().map(Sample::seconds).sorted().toList();
            return new VariantStats(
                    variant,
                    median(seconds),
                    Measurements.percentile(seconds, 0.9),
                    seconds.getFirst(),
                    seconds.getLast(),
                    median(samples.stream().map(Sample::cpuSeconds).toList()),
                    Math.round(median(samples.stream().map(sample -> (double) sample.inputBytes()).toList())),
                    Math.round(median(samples.stream().map(sample -> (double) sample.inputRows()).toList())),
                    Math.round(median(samples.stream().map(sample -> (double) sample.lanceFileReads()).toList())),
                    Math.round(median(samples.stream().map(sample -> (double) sample.lanceFileBytes()).toList())),
                    Math.round(median(samples.stream().map(sample -> (double) sample.indexBytes()).toList())),
                    Math.round(median(samples.stream().map(sample -> (double) sample.indexRowsSkipped()).toList())),
                    Math.round(median(samples.stream().map(sample -> (double) sample.outputRows()).toList())));
        }
    }

    /**
     * @param sameRows whether the indexed and unindexed Lance variants and Iceberg returned the same rows (in any
     * order) for every key, warm-up included
     * @param indexToSelectOne indexed median over the median of {@code SELECT 1}
     * @param indexToIceberg indexed median over Iceberg's
     * @param unindexedToIndexed unindexed median over indexed: what the index saves
     */
    public record LookupResult(
            String name,
            String description,
            String sql,
            boolean goals,
            VariantStats indexed,
            VariantStats unindexed,
            VariantStats iceberg,
            boolean sameRows,
            double indexToSelectOne,
            double indexToIceberg,
            double unindexedToIndexed,
            boolean selectOneGoalMet,
            boolean icebergGoalMet)
    {
        public LookupResult
        {
            requireNonNull(name, "name is null");
            requireNonNull(description, "description is null");
            requireNonNull(sql, "sql is null");
            requireNonNull(indexed, "indexed is null");
            requireNonNull(unindexed, "unindexed is null");
            requireNonNull(iceberg, "iceberg is null");
        }

        public List<VariantStats> variants()
        {
            return List.of(indexed, unindexed, iceberg);
        }
    }

    /**
     * @param seed seed of the keys drawn for the lookups
     * @param selectOne {@code SELECT 1} on the same server, run in every round of every lookup
     * @param floors run in every round too: a scan of a five-row table on Lance and on Iceberg (what any query
     * reading a table costs on this server), and a scan of a table holding only the answer of one {@code l_partkey}
     * lookup in as many fragments (what returning those rows costs, with no index work at all)
     */
    public record Result(long seed, List<IndexBuild> builds, List<LookupResult> lookups, VariantStats selectOne, List<VariantStats> floors)
    {
        public Result
        {
            builds = List.copyOf(builds);
            lookups = List.copyOf(lookups);
            requireNonNull(selectOne, "selectOne is null");
            floors = List.copyOf(floors);
        }
    }

    private record Variant(String name, Session session) {}

    // a query run in every round of every lookup next to the variants, whose figures the ratios are read against
    private record Reference(String name, Session session, String sql) {}

    public static Result measure(BenchmarkEnvironment environment, BenchmarkOptions options)
    {
        DistributedQueryRunner runner = environment.runner();
        Session lance = session("lance", SCHEMA);
        runner.execute(session("lance"), "CREATE SCHEMA IF NOT EXISTS lance." + SCHEMA);
        dropCopies(runner, lance);
        try {
            List<IndexBuild> builds = buildIndexes(environment, options);
            List<Variant> variants = List.of(
                    new Variant(INDEXED, lance),
                    new Variant(UNINDEXED, Session.builder(lance).setCatalogSessionProperty("lance", USE_SCALAR_INDEX, "false").build()),
                    new Variant(ICEBERG, session("iceberg", BenchmarkEnvironment.SCHEMA)));
            Session iceberg = session("iceberg", BenchmarkEnvironment.SCHEMA);
            List<Reference> references = List.of(
                    new Reference(SELECT_ONE, lance, "SELECT 1"),
                    new Reference(LANCE_TINY_SCAN, lance, "SELECT * FROM " + TINY_TABLE),
                    new Reference(ICEBERG_TINY_SCAN, iceberg, "SELECT * FROM " + ICEBERG_TINY_TABLE),
                    new Reference(LANCE_ANSWER_SCAN, lance, "SELECT * FROM " + ANSWER_TABLE),
                    new Reference(ICEBERG_ANSWER_SCAN, iceberg, "SELECT * FROM " + ICEBERG_ANSWER_TABLE));
            Map<String, List<Sample>> referenceSamples = new LinkedHashMap<>();
            references.forEach(reference -> referenceSamples.put(reference.name(), new ArrayList<>()));
            List<Measured> lookups = new ArrayList<>();
            for (int i = 0; i < LOOKUPS.size(); i++) {
                lookups.add(measureLookup(runner, LOOKUPS.get(i), variants, new Random(options.seed() * 31 + i), options.runs(), references, referenceSamples));
            }
            List<VariantStats> referenceStats = references.stream().map(reference -> VariantStats.of(reference.name(), referenceSamples.get(reference.name()))).toList();
            VariantStats selectOneStats = referenceStats.getFirst();
            for (VariantStats reference : referenceStats) {
                System.out.printf("%-30s %.4fs (median of %s)%n", reference.variant(), reference.medianSeconds(), referenceSamples.get(reference.variant()).size());
            }
            List<LookupResult> results = lookups.stream().map(lookup -> lookup.result(selectOneStats)).toList();
            for (LookupResult result : results) {
                System.out.printf("%-14s index %.4fs  no index %.4fs  iceberg %.4fs  index/SELECT 1 %.2f  index/iceberg %.2f%s%n", result.name(),
                        result.indexed().medianSeconds(), result.unindexed().medianSeconds(), result.iceberg().medianSeconds(),
                        result.indexToSelectOne(), result.indexToIceberg(), result.sameRows() ? "" : "  RESULTS DIFFER");
            }
            return new Result(options.seed(), builds, results, selectOneStats, referenceStats.subList(1, referenceStats.size()));
        }
        finally {
            dropCopies(runner, lance);
            runner.execute(session("lance"), "DROP SCHEMA IF EXISTS lance." + SCHEMA);
        }
    }

    private static void dropCopies(QueryRunner runner, Session session)
    {
        for (String table : TABLES) {
            runner.execute(session, "DROP TABLE IF EXISTS " + table);
        }
        runner.execute(session, "DROP TABLE IF EXISTS " + TINY_TABLE);
        runner.execute(session, "DROP TABLE IF EXISTS " + ANSWER_TABLE);
        runner.execute(session("iceberg", BenchmarkEnvironment.SCHEMA), "DROP TABLE IF EXISTS " + ICEBERG_TINY_TABLE);
        runner.execute(session("iceberg", BenchmarkEnvironment.SCHEMA), "DROP TABLE IF EXISTS " + ICEBERG_ANSWER_TABLE);
    }

    private static List<IndexBuild> buildIndexes(BenchmarkEnvironment environment, BenchmarkOptions options)
    {
        QueryRunner runner = environment.runner();
        Session session = session("lance", SCHEMA);
        Map<String, Double> ctasSeconds = new LinkedHashMap<>();
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : TABLES) {
            long start = System.nanoTime();
            MaterializedResult created = runner.execute(session, "CREATE TABLE %s%s AS SELECT * FROM lance.%s.%s".formatted(table, options.lanceTableWithClause(), BenchmarkEnvironment.SCHEMA, table));
            ctasSeconds.put(table, (System.nanoTime() - start) / 1e9);
            rows.put(table, created.getUpdateCount().orElseThrow());
        }
        runner.execute(session, "CREATE TABLE %s%s AS SELECT * FROM tpch.tiny.region".formatted(TINY_TABLE, options.lanceTableWithClause()));
        runner.execute(session("iceberg", BenchmarkEnvironment.SCHEMA), "CREATE TABLE %s AS SELECT * FROM tpch.tiny.region".formatted(ICEBERG_TINY_TABLE));
        createLookupAnswer(runner, session, options);
        List<IndexBuild> builds = new ArrayList<>();
        for (IndexSpec index : INDEXES) {
            long start = System.nanoTime();
            // the copy is new, so is every index on it
            MaterializedResult metrics = runner.execute(session, "ALTER TABLE %s EXECUTE create_index(column => '%s', index_type => '%s', name => '%s')"
                    .formatted(index.table(), index.column(), index.type(), index.name()));
            double seconds = (System.nanoTime() - start) / 1e9;
            long dataBytes = TpchData.directoryBytes(environment.lanceTable(SCHEMA, index.table()).resolve("data"));
            IndexBuild build = new IndexBuild(index.table(), index.column(), index.type(), index.name(), rows.get(index.table()), dataBytes, ctasSeconds.get(index.table()), seconds,
                    metric(metrics, "rows_indexed"), metric(metrics, "rows_not_indexed"), metric(metrics, "fragments_covered"), metric(metrics, "index_size_bytes"), metric(metrics, "build_millis"));
            System.out.printf("index %s on %s.%s: %.3fs (CTAS of the table %.3fs), %,d bytes%n", index.name(), index.table(), index.column(), seconds, build.ctasSeconds(), build.indexSizeBytes());
            builds.add(build);
        }
        return builds;
    }

    /**
     * The rows of {@code l_partkey = k} for one key, one INSERT per fragment of the {@code lineitem} copy (split by
     * {@code l_orderkey}), so a scan of it has the lookup's rows, columns and splits and nothing to rule out; the same
     * on Iceberg, one data file per INSERT.
     */
    private static void createLookupAnswer(QueryRunner runner, Session session, BenchmarkOptions options)
    {
        Lookup lookup = LOOKUPS.getFirst();
        List<Long> keys = keyPool(runner, lookup);
        long key = keys.get(new Random(options.seed()).nextInt(keys.size()));
        long fragments = (long) runner.execute(session, "SELECT count(*) FROM \"%s$fragments\"".formatted(lookup.table())).getOnlyValue();
        runner.execute(session, "CREATE TABLE %s%s AS SELECT * FROM %s WITH NO DATA".formatted(ANSWER_TABLE, options.lanceTableWithClause(), lookup.table()));
        Session iceberg = session("iceberg", BenchmarkEnvironment.SCHEMA);
        runner.execute(iceberg, "CREATE TABLE %s AS SELECT * FROM %s WITH NO DATA".formatted(ICEBERG_ANSWER_TABLE, lookup.table()));
        for (long fragment = 0; fragment < fragments; fragment++) {
            String rows = "SELECT * FROM lance.%s.%s WHERE %s = %s AND l_orderkey %% %s = %s".formatted(SCHEMA, lookup.table(), lookup.column(), key, fragments, fragment);
            runner.execute(session, "INSERT INTO %s %s".formatted(ANSWER_TABLE, rows));
            runner.execute(iceberg, "INSERT INTO %s %s".formatted(ICEBERG_ANSWER_TABLE, rows));
        }
    }

    private static long metric(MaterializedResult metrics, String name)
    {
        return metrics.getMaterializedRows().stream()
                .filter(row -> row.getField(0).equals(name))
                .map(row -> ((Number) row.getField(1)).longValue())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("create_index returned no metric %s: %s".formatted(name, metrics.getMaterializedRows())));
    }

    /**
     * One warm-up round, then {@code runs} timed rounds; each round draws new keys and runs every variant and every
     * reference once, starting with a different one each round so no query always follows the same one.
     */
    private static Measured measureLookup(DistributedQueryRunner runner, Lookup lookup, List<Variant> variants, Random random, int runs, List<Reference> references, Map<String, List<Sample>> referenceSamples)
    {
        KeyDraw keys = lookup.keys() == 0 ? null : new KeyDraw(keyPool(runner, lookup), random);
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        variants.forEach(variant -> samples.put(variant.name(), new ArrayList<>()));
        boolean same = true;
        for (int round = 0; round <= runs; round++) {
            String sql = keys == null ? lookup.sql() : lookup.sql().formatted(keys.next(lookup.keys()));
            Map<String, MaterializedResult> answers = new LinkedHashMap<>();
            int queries = variants.size() + references.size();
            for (int i = 0; i < queries; i++) {
                int which = (round + i) % queries;
                if (which >= variants.size()) {
                    Reference reference = references.get(which - variants.size());
                    Sample sample = timed(runner, reference.session(), reference.sql()).sample();
                    if (round > 0) {
                        referenceSamples.get(reference.name()).add(sample);
                    }
                    continue;
                }
                Variant variant = variants.get(which);
                Timed timed = timed(runner, variant.session(), sql);
                answers.put(variant.name(), timed.rows());
                if (round > 0) {
                    samples.get(variant.name()).add(timed.sample());
                }
            }
            MaterializedResult expected = answers.get(ICEBERG);
            for (MaterializedResult answer : answers.values()) {
                same &= sameRowsInAnyOrder(answer, expected);
            }
        }
        return new Measured(lookup, VariantStats.of(INDEXED, samples.get(INDEXED)), VariantStats.of(UNINDEXED, samples.get(UNINDEXED)), VariantStats.of(ICEBERG, samples.get(ICEBERG)), same);
    }

    // a lookup's figures until the median of SELECT 1, which its ratios divide by, is known (SELECT 1 runs in every lookup's rounds)
    private record Measured(Lookup lookup, VariantStats indexed, VariantStats unindexed, VariantStats iceberg, boolean sameRows)
    {
        LookupResult result(VariantStats selectOne)
        {
            double toSelectOne = indexed.medianSeconds() / selectOne.medianSeconds();
            double toIceberg = indexed.medianSeconds() / iceberg.medianSeconds();
            return new LookupResult(lookup.name(), lookup.description(), lookup.sql(), lookup.goals(), indexed, unindexed, iceberg, sameRows,
                    toSelectOne, toIceberg, unindexed.medianSeconds() / indexed.medianSeconds(), toSelectOne <= SELECT_ONE_GOAL, toIceberg <= ICEBERG_GOAL);
        }
    }

    /**
     * The distinct values of the lookup's column, from the Iceberg copy (the same rows), in order so a seed always
     * draws the same keys.
     */
    private static List<Long> keyPool(QueryRunner runner, Lookup lookup)
    {
        return runner.execute(session("iceberg", BenchmarkEnvironment.SCHEMA), "SELECT DISTINCT %s FROM %s".formatted(lookup.column(), lookup.table()))
                .getMaterializedRows().stream()
                .map(row -> ((Number) row.getField(0)).longValue())
                .sorted()
                .toList();
    }

    /**
     * Keys drawn without replacement, so every run looks up keys no earlier run did (until the pool runs out).
     */
    private static final class KeyDraw
    {
        private final List<Long> pool;
        private final Random random;
        private final Set<Integer> used = new HashSet<>();

        KeyDraw(List<Long> pool, Random random)
        {
            if (pool.isEmpty()) {
                throw new IllegalStateException("no keys to look up");
            }
            this.pool = List.copyOf(pool);
            this.random = requireNonNull(random, "random is null");
        }

        String next(int count)
        {
            List<Long> keys = new ArrayList<>();
            while (keys.size() < Math.min(count, pool.size())) {
                if (used.size() == pool.size()) {
                    used.clear();
                }
                int index = random.nextInt(pool.size());
                if (used.add(index)) {
                    keys.add(pool.get(index));
                }
            }
            return keys.stream().map(String::valueOf).collect(Collectors.joining(", "));
        }
    }

    private record Timed(Sample sample, MaterializedResult rows) {}

    private static Timed timed(DistributedQueryRunner runner, Session session, String sql)
    {
        long start = System.nanoTime();
        MaterializedResultWithPlan result = runner.executeWithPlan(session, sql);
        double seconds = (System.nanoTime() - start) / 1e9;
        // the same place QueryTimings takes CPU time from
        QueryInfo info = runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId());
        QueryStats stats = info.getQueryStats();
        // planned (coalesced) reads and the reads past them: chunks of index-selected rows, shared page buffers missed
        long lanceFileReads = stats.getOperatorSummaries().stream().mapToLong(operator -> count(operator.getConnectorMetrics(), "coalescedReads") + count(operator.getConnectorMetrics(), "directReads")).sum();
        long lanceFileBytes = stats.getOperatorSummaries().stream().mapToLong(operator -> count(operator.getConnectorMetrics(), "coalescedReadBytes") + count(operator.getConnectorMetrics(), "directReadBytes")).sum();
        Sample sample = new Sample(seconds, stats.getTotalCpuTime().toMillis() / 1e3, stats.getPhysicalInputDataSize().toBytes(), stats.getPhysicalInputPositions(), lanceFileReads, lanceFileBytes,
                splitSourceCount(info, "scalarIndexBytesRead"), splitSourceCount(info, "scalarIndexRowsSkipped"), result.result().getRowCount());
        return new Timed(sample, result.result());
    }

    /**
     * The sum of a count the connectors' split sources reported, over every stage and scan; zero when none did.
     */
    private static long splitSourceCount(QueryInfo info, String name)
    {
        long total = 0;
        for (StageInfo stage : StagesInfo.getAllStages(info.getStages())) {
            for (Metrics metrics : stage.stageStats().getSplitSourceMetrics().values()) {
                total += count(metrics, name);
            }
        }
        return total;
    }

    private static long count(Metrics metrics, String name)
    {
        Metric<?> metric = metrics.getMetrics().get(name);
        return metric instanceof Count<?> count ? count.getTotal() : 0;
    }

    /**
     * The same rows as {@link QueryTimings#sameRows}, in any order ({@code SELECT *} lookups have none).
     */
    static boolean sameRowsInAnyOrder(MaterializedResult first, MaterializedResult second)
    {
        return QueryTimings.sameRows(sorted(first), sorted(second));
    }

    private static List<MaterializedRow> sorted(MaterializedResult result)
    {
        return result.getMaterializedRows().stream()
                .sorted(Comparator.comparing(MaterializedRow::toString))
                .toList();
    }
}
