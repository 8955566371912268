package io.lancetrino.benchmark;

import io.lancetrino.metadata.ArrowAllocators;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;
import static io.lancetrino.benchmark.Measurements.median;
import static java.util.Objects.requireNonNull;

/**
 * Exact nearest-neighbour top-10 in plain SQL ({@code ORDER BY <vector function> LIMIT 10}) over clustered 128-dim
 * float32 vectors: with the distance and top-N pushed into the scan ({@code vector_search = 'exact'}, the default)
 * against the engine doing it all ({@code 'off'}), and against the Lance SDK's flat search ({@code nearest} without an
 * index) on the same dataset, next to {@code SELECT 1}. A new query vector every round.
 */
public final class VectorSearchTimings
{
    static final String SCHEMA = "bench_search";
    static final String TABLE = "vectors128";
    public static final int DIMENSION = 128;
    private static final int CLUSTERS = 64;
    static final int ROWS_AT_SCALE_1 = 1_000_000;
    public static final int K = 10;
    public static final double PUSHDOWN_GOAL = 5;

    public static final String PUSHED = "lance, pushdown (vector_search = 'exact')";
    public static final String ENGINE = "lance, no pushdown (vector_search = 'off')";
    public static final String SDK = "Lance SDK flat nearest";

    private VectorSearchTimings() {}

    public record Search(String name, String function, String order, DistanceType sdkDistance) {}

    public static final List<Search> SEARCHES = List.of(
            new Search("euclidean", "euclidean_distance", "", DistanceType.L2),
            new Search("cosine", "cosine_distance", "", DistanceType.Cosine),
            new Search("dot", "dot_product", " DESC", DistanceType.Dot));

    public record Variant(String name, double medianSeconds, double p90Seconds)
    {
        public Variant
        {
            requireNonNull(name, "name is null");
        }

        static Variant of(String name, List<Double> seconds)
        {
            List<Double> sorted = seconds.stream().sorted().toList();
            return new Variant(name, median(sorted), Measurements.percentile(sorted, 0.9));
        }
    }

    /**
     * @param sameRows whether the pushdown returned the engine's rows and distances, value for value, every round
     * @param sdkSameIds whether the SDK's flat search returned the same ids (its float32 distances may order near-ties
     * differently, so this is reported, not required)
     */
    public record SearchResult(String name, String sql, Variant pushed, Variant engine, Variant sdk, boolean sameRows, boolean sdkSameIds, double speedup, boolean goalMet)
    {
        public SearchResult
        {
            requireNonNull(name, "name is null");
            requireNonNull(sql, "sql is null");
        }
    }

    public record Result(long rows, int dimension, double generationSeconds, List<SearchResult> searches, Variant selectOne)
    {
        public Result
        {
            searches = List.copyOf(searches);
        }
    }

    public static long rows(double scale)
    {
        return Math.max(1_000, Math.round(ROWS_AT_SCALE_1 * scale / 1_000) * 1_000);
    }

    public static Result measure(BenchmarkEnvironment environment, BenchmarkOptions options)
    {
        DistributedQueryRunner runner = environment.runner();
        Session pushed = session("lance", SCHEMA);
        Session engine = Session.builder(pushed).setCatalogSessionProperty("lance", "vector_search", "off").build();
        long rows = rows(options.scale());
        double generation = ensureGenerated(runner, pushed, TABLE, DIMENSION, rows);
        Path table = environment.lanceTable(SCHEMA, TABLE);
        Random random = new Random(options.seed());
        List<SearchResult> results = new ArrayList<>();
        List<Double> selectOne = new ArrayList<>();
        for (Search search : SEARCHES) {
            Map<String, List<Double>> seconds = new LinkedHashMap<>();
            List.of(PUSHED, ENGINE, SDK).forEach(name -> seconds.put(name, new ArrayList<>()));
            boolean same = true;
            boolean sdkSame = true;
            String template = "SELECT id, %s(v, %%s) AS d FROM %s ORDER BY d%s LIMIT %s".formatted(search.function(), TABLE, search.order(), K);
            for (int round = 0; round <= options.runs(); round++) {
                float[] query = queryVector(random);
                String sql = template.formatted(literal(query));
                long start = System.nanoTime();
                MaterializedResult pushedRows = runner.execute(pushed, sql);
                double pushedSeconds = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                MaterializedResult engineRows = runner.execute(engine, sql);
                double engineSeconds = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                List<Long> sdkIds = sdkNearest(table, query, search.sdkDistance());
                double sdkSeconds = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                runner.execute(pushed, "SELECT 1");
                double selectOneSeconds = (System.nanoTime() - start) / 1e9;
                same &= pushedRows.getMaterializedRows().equals(engineRows.getMaterializedRows());
                sdkSame &= sdkIds.stream().sorted().toList().equals(pushedRows.getMaterializedRows().stream().map(row -> (Long) row.getField(0)).sorted().toList());
                if (round > 0) {
                    seconds.get(PUSHED).add(pushedSeconds);
                    seconds.get(ENGINE).add(engineSeconds);
                    seconds.get(SDK).add(sdkSeconds);
                    selectOne.add(selectOneSeconds);
                }
            }
            Variant pushedStats = Variant.of(PUSHED, seconds.get(PUSHED));
            Variant engineStats = Variant.of(ENGINE, seconds.get(ENGINE));
            double speedup = engineStats.medianSeconds() / pushedStats.medianSeconds();
            results.add(new SearchResult(search.name(), template.formatted("<query>"), pushedStats, engineStats, Variant.of(SDK, seconds.get(SDK)), same, sdkSame, speedup, speedup >= PUSHDOWN_GOAL));
            System.out.printf("exact top-%s %-10s pushdown %.4fs  engine %.4fs  SDK flat %.4fs  speedup %.2f%s%n", K, search.name(), pushedStats.medianSeconds(), engineStats.medianSeconds(),
                    median(seconds.get(SDK)), speedup, same ? "" : "  RESULTS DIFFER");
        }
        return new Result(rows, DIMENSION, generation, results, Variant.of("SELECT 1", selectOne));
    }

    /**
     * {@code rows} vectors around {@value #CLUSTERS} centers, the same for the same row count: component i of row x
     * is its center's {@code 4 sin(131 c + 7 i)} plus an offset in (-0.5, 0.5) hashed from row and component.
     */
    static double ensureGenerated(DistributedQueryRunner runner, Session session, String table, int dimension, long rows)
    {
        if (generated(runner, session, table, rows)) {
            return 0;
        }
        long start = System.nanoTime();
        runner.execute(session, "CREATE TABLE %s (id bigint, v array(real) WITH (dimension = %s)) WITH (max_rows_per_file = 250000)".formatted(table, dimension));
        runner.execute(session, """
                INSERT INTO %s
                SELECT id, transform(sequence(0, %s), i -> CAST(4 * sin(CAST((id %% %s) * 131 + i * 7 AS double)) + (from_big_endian_64(xxhash64(to_big_endian_64(id * %s + i))) %% 1000000) / 2e6 AS real))
                FROM (SELECT a * 1000 + b AS id FROM UNNEST(sequence(0, %s)) AS x(a) CROSS JOIN UNNEST(sequence(0, 999)) AS y(b))
                """.formatted(table, dimension - 1, CLUSTERS, dimension, rows / 1000 - 1));
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * Whether the generated table exists with {@code rows} rows; a table of another size is dropped, to be written
     * again. Creates the schema.
     */
    static boolean generated(DistributedQueryRunner runner, Session session, String table, long rows)
    {
        runner.execute(session("lance"), "CREATE SCHEMA IF NOT EXISTS lance." + SCHEMA);
        if (runner.execute(session, "SHOW TABLES LIKE '%s'".formatted(table)).getRowCount() > 0) {
            if ((long) runner.execute(session, "SELECT count(*) FROM " + table).getOnlyValue() == rows) {
                return true;
            }
            runner.execute(session, "DROP TABLE " + table);
        }
        return false;
    }

    // near a random center, as a query for similar rows would be
    private static float[] queryVector(Random random)
    {
        return queryVector(random, DIMENSION);
    }

    static float[] queryVector(Random random, int dimension)
    {
        int center = random.nextInt(CLUSTERS);
        float[] query = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            query[i] = (float) (4 * Math.sin(center * 131 + i * 7) + random.nextGaussian() * 0.5);
        }
        return query;
    }

    static String literal(float[] query)
    {
        return IntStream.range(0, query.length).mapToObj(i -> Double.toString(query[i]))
                .map(value -> value.contains("E") ? value : value + "E0")
                .collect(Collectors.joining(", ", "ARRAY[", "]"));
    }

    private static List<Long> sdkNearest(Path table, float[] query, DistanceType distance)
    {
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open().allocator(allocator).uri(table.toString()).build()) {
            return nearestIds(dataset, new Query.Builder().setColumn("v").setKey(query).setK(K).setDistanceType(distance).setUseIndex(false).build());
        }
    }

    /** The ids of the rows the SDK's {@code nearest} returns, in its order. */
    static List<Long> nearestIds(Dataset dataset, Query query)
    {
        List<Long> ids = new ArrayList<>();
        try (LanceScanner scanner = dataset.newScan(new ScanOptions.Builder().columns(List.of("id")).nearest(query).build());
                ArrowReader reader = scanner.scanBatches()) {
            while (reader.loadNextBatch()) {
                BigIntVector id = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
                for (int i = 0; i < id.getValueCount(); i++) {
                    ids.add(id.get(i));
                }
            }
        }
        catch (Exception e) {
            throw new RuntimeException("SDK nearest on " + dataset.uri(), e);
        }
        return ids;
    }
}
