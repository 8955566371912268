package io.lancetrino.benchmark;

import io.lancetrino.metadata.ArrowAllocators;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.ipc.FullTextQuery;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;

/**
 * BM25 top-10 through an inverted index: Trino's {@code text_search} table function against the Lance SDK's
 * {@code fullTextQuery} on the same index (its dataset kept open), next to {@code SELECT 1}; and the index build
 * through Trino against the SDK building the same index on a copy of the table. The text: 200 to 399 words per row,
 * drawn from a vocabulary of 2,000 made-up words with a skewed (cubed uniform) frequency, as natural text is skewed.
 */
public final class TextSearchTimings
{
    static final String TABLE = "docs_text";
    static final int ROWS_AT_SCALE_1 = 50_000;
    private static final int VOCABULARY = 2_000;
    private static final List<String> SYLLABLES = List.of("ka", "lo", "mi", "ren", "sat", "vo", "qui", "del", "bra", "tun", "fe", "gor", "pal", "xe", "nu", "ri");
    static final String INDEX = "body_idx";

    private TextSearchTimings() {}

    public record Result(long rows, int queries, double generationSeconds, AnnSearchTimings.Build build, AnnSearchTimings.Latency trino, AnnSearchTimings.Latency sdk,
            AnnSearchTimings.Latency selectOne, AnnSearchTimings.Latency answerScan, boolean sameRows, boolean goalMet) {}

    static long rows(double scale)
    {
        return Math.max(1_000, Math.round(ROWS_AT_SCALE_1 * scale / 1_000) * 1_000);
    }

    static String word(int index)
    {
        return SYLLABLES.get(index % 16) + SYLLABLES.get((index / 16) % 16) + SYLLABLES.get((index / 256) % 16);
    }

    public static Result measure(BenchmarkEnvironment environment, BenchmarkOptions options, int queries)
    {
        DistributedQueryRunner runner = environment.runner();
        Session session = session("lance", VectorSearchTimings.SCHEMA);
        long rows = rows(options.scale());
        double generation = ensureGenerated(runner, session, rows);
        Path table = environment.lanceTable(VectorSearchTimings.SCHEMA, TABLE);
        AnnSearchTimings.Build build = build(runner, session, table);

        Random random = new Random(options.seed() * 17 + 5);
        List<Double> trinoSeconds = new ArrayList<>();
        List<Double> sdkSeconds = new ArrayList<>();
        List<Double> selectOneSeconds = new ArrayList<>();
        boolean same = true;
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open().allocator(allocator).uri(table.toString()).build()) {
            for (int i = -1; i < queries; i++) {
                // one to three words of middling frequency
                String query = IntStream.range(0, 1 + random.nextInt(3)).mapToObj(_ -> word(20 + random.nextInt(480))).collect(Collectors.joining(" "));
                String sql = "SELECT id, _score FROM TABLE(lance.system.text_search(schema_name => '%s', table_name => '%s', query => '%s', k => %s))"
                        .formatted(VectorSearchTimings.SCHEMA, TABLE, query, AnnSearchTimings.K);
                long start = System.nanoTime();
                List<MaterializedRow> trino = runner.execute(session, sql).getMaterializedRows();
                double trinoTime = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                Set<List<Object>> sdk = search(dataset, query);
                double sdkTime = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                runner.execute(session, "SELECT 1");
                double selectOneTime = (System.nanoTime() - start) / 1e9;
                if (i < 0) {
                    continue;
                }
                trinoSeconds.add(trinoTime);
                sdkSeconds.add(sdkTime);
                selectOneSeconds.add(selectOneTime);
                same &= trino.stream().map(MaterializedRow::getFields).collect(Collectors.toSet()).equals(sdk);
            }
        }
        AnnSearchTimings.Latency trino = AnnSearchTimings.Latency.of(trinoSeconds);
        AnnSearchTimings.Latency sdk = AnnSearchTimings.Latency.of(sdkSeconds);
        AnnSearchTimings.Latency selectOne = AnnSearchTimings.Latency.of(selectOneSeconds);
        System.out.printf("text search top-%s: p50 trino %.4fs sdk %.4fs SELECT 1 %.4fs%s%n", AnnSearchTimings.K, trino.p50Seconds(), sdk.p50Seconds(), selectOne.p50Seconds(), same ? "" : "  ROWS DIFFER");
        return new Result(rows, queries, generation, build, trino, sdk, selectOne, AnnSearchTimings.answerScan(runner, session, TABLE, queries), same, trino.p50Seconds() <= sdk.p50Seconds() + selectOne.p50Seconds());
    }

    /** The SDK's best rows as (id, score widened to double), as the table function returns them. */
    private static Set<List<Object>> search(Dataset dataset, String query)
    {
        Set<List<Object>> rows = new HashSet<>();
        try (LanceScanner scanner = dataset.newScan(new ScanOptions.Builder().columns(List.of("id")).fullTextQuery(FullTextQuery.match(query, "body")).limit(AnnSearchTimings.K).build());
                ArrowReader reader = scanner.scanBatches()) {
            while (reader.loadNextBatch()) {
                BigIntVector id = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
                Float4Vector score = (Float4Vector) reader.getVectorSchemaRoot().getVector("_score");
                for (int i = 0; i < id.getValueCount(); i++) {
                    rows.add(List.of(id.get(i), (double) score.get(i)));
                }
            }
        }
        catch (Exception e) {
            throw new RuntimeException("SDK full-text search for " + query, e);
        }
        return rows;
    }

    private static double ensureGenerated(DistributedQueryRunner runner, Session session, long rows)
    {
        if (VectorSearchTimings.generated(runner, session, TABLE, rows)) {
            return 0;
        }
        String vocabulary = IntStream.range(0, VOCABULARY).mapToObj(index -> "'" + word(index) + "'").collect(Collectors.joining(", ", "ARRAY[", "]"));
        long start = System.nanoTime();
        runner.execute(session, "CREATE TABLE %s (id bigint, body varchar) WITH (max_rows_per_file = 25000)".formatted(TABLE));
        runner.execute(session, """
                INSERT INTO %1$s
                SELECT id, array_join(transform(sequence(1, 200 + id %% 200),
                        i -> element_at(%2$s, 1 + CAST(floor(%3$s * power(abs(from_big_endian_64(xxhash64(to_big_endian_64(id * 1000 + i))) %% 1000000) / 1e6, 3)) AS integer))), ' ')
                FROM (SELECT a * 1000 + b AS id FROM UNNEST(sequence(0, %4$s)) AS x(a) CROSS JOIN UNNEST(sequence(0, 999)) AS y(b))
                """.formatted(TABLE, vocabulary, VOCABULARY, rows / 1000 - 1));
        return (System.nanoTime() - start) / 1e9;
    }

    private static AnnSearchTimings.Build build(DistributedQueryRunner runner, Session session, Path table)
    {
        AnnSearchTimings.dropIndex(runner, session, TABLE, INDEX);
        double sdkSeconds = TableCopies.withCopy(table, copy -> {
            try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                    Dataset dataset = Dataset.open().allocator(allocator).uri(copy.toString()).build()) {
                long start = System.nanoTime();
                dataset.createIndex(List.of("body"), IndexType.INVERTED, Optional.of(INDEX),
                        IndexParams.builder().setScalarIndexParams(new InvertedIndexParams.Builder().baseTokenizer("simple").language("English").build()).build(), true);
                return (System.nanoTime() - start) / 1e9;
            }
        });
        long start = System.nanoTime();
        runner.execute(session, "ALTER TABLE %s EXECUTE create_index(column => 'body', index_type => 'inverted', name => '%s')".formatted(TABLE, INDEX));
        double trinoSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("index build %s inverted: trino %.1fs, SDK %.1fs%n", TABLE, trinoSeconds, sdkSeconds);
        return new AnnSearchTimings.Build("inverted", "{}", trinoSeconds, sdkSeconds);
    }
}
