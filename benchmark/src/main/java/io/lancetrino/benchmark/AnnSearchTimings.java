package io.lancetrino.benchmark;

import io.lancetrino.metadata.ArrowAllocators;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.vector.HnswBuildParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.PQBuildParams;
import org.lance.index.vector.SQBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;
import static java.util.Objects.requireNonNull;

/**
 * Approximate top-10 through Lance's vector indexes: Trino ({@code ORDER BY euclidean_distance(v, q) LIMIT 10} with
 * {@code vector_search = 'approximate'}) against the Lance SDK's {@code nearest} on the same index with the same
 * parameters (its dataset kept open, as an application would), next to {@code SELECT 1}; recall@10 of both against
 * the exact top 10 (the SDK's flat search), over a sweep of {@code nprobes} and refine factors. Also the index build:
 * {@code create_index} through Trino against the SDK building the same index on a copy of the table.
 */
public final class AnnSearchTimings
{
    public static final int K = 10;
    static final String INDEX = "v_idx";

    private AnnSearchTimings() {}

    /** A vector table, its index and the settings swept. */
    record Workload(String table, int dimension, long rowsAtScale1, String indexType, List<Setting> sweep)
    {
        long rows(double scale)
        {
            return Math.max(2_000, Math.round(rowsAtScale1 * scale / 1_000) * 1_000);
        }
    }

    /** Search parameters; 0 leaves one unset. */
    public record Setting(int nprobes, int refineFactor)
    {
        String describe()
        {
            return "nprobes %s%s".formatted(nprobes, refineFactor == 0 ? "" : ", refine %s".formatted(refineFactor));
        }
    }

    public record Latency(double p50Seconds, double p99Seconds)
    {
        static Latency of(List<Double> seconds)
        {
            return new Latency(Measurements.percentile(seconds, 0.5), Measurements.percentile(seconds, 0.99));
        }
    }

    /**
     * @param sameRows whether Trino returned the SDK's ids for every query
     * @param goalMet whether Trino's p50 is at most the SDK's p50 plus the p50 of {@code SELECT 1}
     */
    /**
     * @param literal {@code SELECT cardinality(<the query vector>)}: what parsing and planning the query vector's
     * literal alone costs the engine
     */
    public record Point(Setting setting, double trinoRecall, double sdkRecall, Latency trino, Latency sdk, Latency selectOne, Latency literal, boolean sameRows, boolean goalMet) {}

    public record Build(String indexType, String options, double trinoSeconds, double sdkSeconds) {}

    /**
     * @param highRecall the fastest setting (by Trino's p50) with recall of at least 0.95 for both, if any
     */
    /**
     * @param answerScan reading a table that holds only a top 10 (ten rows, one fragment): what any query that scans
     * a Lance table costs the engine, with no search at all
     */
    public record WorkloadResult(String table, long rows, int dimension, int queries, double generationSeconds, Build build, Point defaults, Optional<Point> highRecall, List<Point> sweep, Latency answerScan)
    {
        public WorkloadResult
        {
            requireNonNull(table, "table is null");
            sweep = List.copyOf(sweep);
        }
    }

    public record Result(List<WorkloadResult> vectors, TextSearchTimings.Result text)
    {
        public Result
        {
            vectors = List.copyOf(vectors);
            requireNonNull(text, "text is null");
        }
    }

    static final List<Workload> WORKLOADS = List.of(
            new Workload("ann128", 128, 1_000_000, "ivf_pq", List.of(
                    new Setting(5, 0), new Setting(10, 0), new Setting(20, 0), new Setting(40, 0), new Setting(80, 0),
                    new Setting(5, 10), new Setting(10, 10), new Setting(20, 10), new Setting(40, 10), new Setting(80, 10))),
            new Workload("ann768", 768, 100_000, "ivf_hnsw_sq", List.of(
                    new Setting(5, 0), new Setting(10, 0), new Setting(20, 0), new Setting(40, 0),
                    new Setting(5, 5), new Setting(10, 5), new Setting(20, 5), new Setting(40, 5))));

    static final Setting DEFAULTS = new Setting(20, 0);
    private static final int WARM_UP_QUERIES = 10;

    public static List<WorkloadResult> measure(BenchmarkEnvironment environment, BenchmarkOptions options, int queries)
    {
        List<WorkloadResult> results = new ArrayList<>();
        for (Workload workload : WORKLOADS) {
            results.add(measure(environment, options, workload, queries));
        }
        return results;
    }

    private static WorkloadResult measure(BenchmarkEnvironment environment, BenchmarkOptions options, Workload workload, int queries)
    {
        DistributedQueryRunner runner = environment.runner();
        Session session = session("lance", VectorSearchTimings.SCHEMA);
        long rows = workload.rows(options.scale());
        double generation = ensureGenerated(runner, session, workload.table(), workload.dimension(), rows);
        Path table = environment.lanceTable(VectorSearchTimings.SCHEMA, workload.table());
        Build build = build(runner, session, table, workload, rows);

        Random random = new Random(options.seed() * 31 + workload.dimension());
        List<float[]> vectors = new ArrayList<>();
        List<Set<Long>> exact = new ArrayList<>();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open().allocator(allocator).uri(table.toString()).build()) {
            for (int i = 0; i < queries; i++) {
                float[] vector = queryVector(random, workload.dimension());
                vectors.add(vector);
                exact.add(new HashSet<>(nearest(dataset, vector, Optional.empty())));
            }
            // warm both sides up (the JIT, the index caches) with other queries, then time every setting on each query
            // in turn, so a drift of the machine over the run weighs on every setting alike
            List<float[]> warmUp = new ArrayList<>();
            for (int i = 0; i < WARM_UP_QUERIES; i++) {
                warmUp.add(queryVector(random, workload.dimension()));
            }
            List<Samples> samples = workload.sweep().stream().map(Samples::new).toList();
            for (float[] vector : warmUp) {
                for (Samples setting : samples) {
                    setting.run(runner, session, dataset, workload, vector, Optional.empty());
                }
            }
            for (int i = 0; i < vectors.size(); i++) {
                for (Samples setting : samples) {
                    setting.run(runner, session, dataset, workload, vectors.get(i), Optional.of(exact.get(i)));
                }
            }
            List<Point> sweep = samples.stream().map(setting -> setting.point(workload)).toList();
            Point defaults = sweep.stream().filter(point -> point.setting().equals(DEFAULTS)).findFirst().orElseThrow();
            Optional<Point> highRecall = sweep.stream()
                    .filter(point -> point.trinoRecall() >= 0.95 && point.sdkRecall() >= 0.95)
                    .min((a, b) -> Double.compare(a.trino().p50Seconds(), b.trino().p50Seconds()));
            return new WorkloadResult(workload.table(), rows, workload.dimension(), queries, generation, build, defaults, highRecall, sweep, answerScan(runner, session, workload.table(), queries));
        }
    }

    /** Drops the index a previous run built, so this run times a build from scratch. */
    static void dropIndex(DistributedQueryRunner runner, Session session, String table, String index)
    {
        if (runner.execute(session, "SELECT count(*) FROM \"%s$indexes\" WHERE name = '%s'".formatted(table, index)).getOnlyValue().equals(1L)) {
            runner.execute(session, "ALTER TABLE %s EXECUTE drop_index(name => '%s')".formatted(table, index));
        }
    }

    /** {@code SELECT id FROM} a ten-row copy of the table's first rows, as often as there are queries. */
    static Latency answerScan(DistributedQueryRunner runner, Session session, String table, int queries)
    {
        String answer = table + "_answer";
        runner.execute(session, "DROP TABLE IF EXISTS " + answer);
        runner.execute(session, "CREATE TABLE %s AS SELECT * FROM %s WHERE id < %s".formatted(answer, table, K));
        List<Double> seconds = new ArrayList<>();
        for (int i = -WARM_UP_QUERIES; i < queries; i++) {
            long start = System.nanoTime();
            runner.execute(session, "SELECT id FROM " + answer);
            if (i >= 0) {
                seconds.add((System.nanoTime() - start) / 1e9);
            }
        }
        runner.execute(session, "DROP TABLE " + answer);
        Latency latency = Latency.of(seconds);
        System.out.printf("answer scan %s: p50 %.4fs%n", answer, latency.p50Seconds());
        return latency;
    }

    /** What the queries of one setting measured so far. */
    private static final class Samples
    {
        private final Setting setting;
        private final List<Double> trinoSeconds = new ArrayList<>();
        private final List<Double> sdkSeconds = new ArrayList<>();
        private final List<Double> selectOneSeconds = new ArrayList<>();
        private final List<Double> literalSeconds = new ArrayList<>();
        private double trinoHits;
        private double sdkHits;
        private boolean same = true;

        Samples(Setting setting)
        {
            this.setting = requireNonNull(setting, "setting is null");
        }

        /** One query through Trino and the SDK, then the two baselines; counted when the exact answer is given. */
        void run(DistributedQueryRunner runner, Session session, Dataset dataset, Workload workload, float[] vector, Optional<Set<Long>> exact)
        {
            Session approximate = Session.builder(session)
                    .setCatalogSessionProperty("lance", "vector_search", "approximate")
                    .setCatalogSessionProperty("lance", "vector_nprobes", Integer.toString(setting.nprobes()))
                    .setCatalogSessionProperty("lance", "vector_refine_factor", Integer.toString(setting.refineFactor()))
                    .build();
            String literal = VectorSearchTimings.literal(vector);
            long start = System.nanoTime();
            List<Long> trino = runner.execute(approximate, "SELECT id FROM %s ORDER BY euclidean_distance(v, %s) LIMIT %s".formatted(workload.table(), literal, K))
                    .getOnlyColumn().map(Long.class::cast).toList();
            double trinoTime = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            List<Long> sdk = nearest(dataset, vector, Optional.of(setting));
            double sdkTime = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            runner.execute(session, "SELECT 1");
            double selectOneTime = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            runner.execute(session, "SELECT cardinality(%s)".formatted(literal));
            double literalTime = (System.nanoTime() - start) / 1e9;
            if (exact.isEmpty()) {
                return;
            }
            trinoSeconds.add(trinoTime);
            sdkSeconds.add(sdkTime);
            selectOneSeconds.add(selectOneTime);
            literalSeconds.add(literalTime);
            trinoHits += trino.stream().filter(exact.get()::contains).count();
            sdkHits += sdk.stream().filter(exact.get()::contains).count();
            same &= Set.copyOf(trino).equals(Set.copyOf(sdk));
        }

        Point point(Workload workload)
        {
            Latency trino = Latency.of(trinoSeconds);
            Latency sdk = Latency.of(sdkSeconds);
            Latency selectOne = Latency.of(selectOneSeconds);
            double answers = trinoSeconds.size() * (double) K;
            Point point = new Point(setting, trinoHits / answers, sdkHits / answers, trino, sdk, selectOne, Latency.of(literalSeconds), same,
                    trino.p50Seconds() <= sdk.p50Seconds() + selectOne.p50Seconds());
            System.out.printf("approximate top-%s %s %-20s recall trino %.3f sdk %.3f  p50 trino %.4fs sdk %.4fs SELECT 1 %.4fs literal %.4fs%s%n", K, workload.table(), setting.describe(),
                    point.trinoRecall(), point.sdkRecall(), trino.p50Seconds(), sdk.p50Seconds(), selectOne.p50Seconds(), point.literal().p50Seconds(), same ? "" : "  ROWS DIFFER");
            return point;
        }
    }

    // rows of a 4-dimension latent space, embedded in the vector's dimension: embeddings have few real degrees of
    // freedom, so near rows stay near (with isotropic noise in 128 dimensions every row of a cluster is about equally
    // far from a query, and no index finds "the" 10 nearest)
    private static final int LATENT = 4;
    private static final double NOISE = 0.02;

    private static String component(String latent, String i)
    {
        return "%1$s[1] * sin(%2$s * 0.7) + %1$s[2] * cos(%2$s * 1.3) + %1$s[3] * sin(%2$s * 2.9 + 1) + %1$s[4] * cos(%2$s * 0.37 + 2)".formatted(latent, i);
    }

    private static double component(double[] latent, int i)
    {
        return latent[0] * Math.sin(i * 0.7) + latent[1] * Math.cos(i * 1.3) + latent[2] * Math.sin(i * 2.9 + 1) + latent[3] * Math.cos(i * 0.37 + 2);
    }

    /**
     * {@code rows} vectors, the same for the same row count: a latent point uniform in [-1, 1]^4 hashed from the id,
     * embedded by fixed sines and cosines, plus a hashed offset of at most {@value #NOISE} per component.
     */
    static double ensureGenerated(DistributedQueryRunner runner, Session session, String table, int dimension, long rows)
    {
        if (VectorSearchTimings.generated(runner, session, table, rows)) {
            return 0;
        }
        long start = System.nanoTime();
        runner.execute(session, "CREATE TABLE %s (id bigint, v array(real) WITH (dimension = %s)) WITH (max_rows_per_file = 250000)".formatted(table, dimension));
        runner.execute(session, """
                INSERT INTO %1$s
                SELECT id, transform(sequence(0, %2$s), i -> CAST(%3$s + (from_big_endian_64(xxhash64(to_big_endian_64(id * %4$s + i + 7))) %% 1000000) / 1e6 * %5$s AS real))
                FROM (
                    SELECT id, transform(sequence(1, %6$s), j -> (from_big_endian_64(xxhash64(to_big_endian_64(id * %6$s + j))) %% 1000000) / 1e6) AS z
                    FROM (SELECT a * 1000 + b AS id FROM UNNEST(sequence(0, %7$s)) AS x(a) CROSS JOIN UNNEST(sequence(0, 999)) AS y(b)))
                """.formatted(table, dimension - 1, component("z", "i"), dimension, NOISE, LATENT, rows / 1000 - 1));
        return (System.nanoTime() - start) / 1e9;
    }

    /** A query near the latent space, as a query for similar rows is near the data. */
    private static float[] queryVector(Random random, int dimension)
    {
        double[] latent = new double[LATENT];
        for (int j = 0; j < LATENT; j++) {
            latent[j] = random.nextDouble() * 2 - 1;
        }
        float[] query = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            query[i] = (float) (component(latent, i) + random.nextGaussian() * NOISE);
        }
        return query;
    }

    /** The SDK's top 10 by L2: through the index with the setting's parameters, or flat (exact) without a setting. */
    private static List<Long> nearest(Dataset dataset, float[] vector, Optional<Setting> setting)
    {
        Query.Builder query = new Query.Builder().setColumn("v").setKey(vector).setK(K).setDistanceType(DistanceType.L2);
        setting.ifPresentOrElse(value -> {
            query.setNprobes(value.nprobes());
            if (value.refineFactor() > 0) {
                query.setRefineFactor(value.refineFactor());
            }
        }, () -> query.setUseIndex(false));
        return VectorSearchTimings.nearestIds(dataset, query.build());
    }

    /**
     * Builds the index through Trino's {@code create_index}, after the SDK has built the same index (same partitions,
     * sub-vectors, bits) on a copy of the table; the copy is removed afterwards.
     */
    private static Build build(DistributedQueryRunner runner, Session session, Path table, Workload workload, long rows)
    {
        int partitions = (int) Math.max(1, Math.min(Math.round(Math.sqrt(rows)), 4096));
        String options = workload.indexType().equals("ivf_pq")
                ? "{\"num_partitions\": %s, \"num_sub_vectors\": %s}".formatted(partitions, workload.dimension() / 16)
                : "{\"num_partitions\": %s}".formatted(partitions);
        dropIndex(runner, session, workload.table(), INDEX);
        double sdkSeconds = TableCopies.withCopy(table, copy -> {
            try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                    Dataset dataset = Dataset.open().allocator(allocator).uri(copy.toString()).build()) {
                IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(partitions).build();
                VectorIndexParams params = workload.indexType().equals("ivf_pq")
                        ? VectorIndexParams.withIvfPqParams(DistanceType.L2, ivf, new PQBuildParams.Builder().setNumSubVectors(workload.dimension() / 16).build())
                        : VectorIndexParams.withIvfHnswSqParams(DistanceType.L2, ivf, new HnswBuildParams.Builder().build(), new SQBuildParams.Builder().build());
                long start = System.nanoTime();
                dataset.createIndex(List.of("v"), workload.indexType().equals("ivf_pq") ? IndexType.IVF_PQ : IndexType.IVF_HNSW_SQ, Optional.of(INDEX),
                        IndexParams.builder().setVectorIndexParams(params).build(), true);
                return (System.nanoTime() - start) / 1e9;
            }
        });
        long start = System.nanoTime();
        runner.execute(session, "ALTER TABLE %s EXECUTE create_index(column => 'v', index_type => '%s', name => '%s', options => '%s')".formatted(workload.table(), workload.indexType(), INDEX, options));
        double trinoSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("index build %s %s: trino %.1fs, SDK %.1fs%n", workload.table(), workload.indexType(), trinoSeconds, sdkSeconds);
        return new Build(workload.indexType(), options, trinoSeconds, sdkSeconds);
    }
}
