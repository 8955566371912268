package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.lance.Dataset;
import org.lance.Ref;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.ipc.FullTextQuery;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.testing.TestingAccessControlManager.TestingPrivilegeType.SELECT_COLUMN;
import static io.trino.testing.TestingAccessControlManager.privilege;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Searches through Lance's indexes, run by the Lance SDK: {@code vector_search = 'approximate'} and the
 * {@code vector_search} and {@code text_search} table functions return what the SDK's own {@code nearest} and
 * {@code fullTextQuery} return on the same version with the same parameters, over unindexed fragments, deletions,
 * branches and clones.
 */
@TestInstance(PER_CLASS)
final class TestLanceIndexSearch
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "search";
    private static final int DIMENSION = 16;
    private static final List<String> WORDS = List.of("apple", "banana", "cherry", "date", "elder", "fig", "grape", "honey", "iris", "jade", "kiwi", "lemon");

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-index-search");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    /**
     * {@code docs}: 2,400 clustered vectors in six fragments with an IVF_PQ (l2) index on {@code embedding}, an
     * IVF_HNSW_SQ (cosine) index on {@code embedding2} and an inverted index with positions on {@code body}; then
     * 400 unindexed rows and deletions.
     */
    @BeforeAll
    void createDocs()
    {
        assertUpdate("CREATE TABLE docs (id bigint, embedding array(real) WITH (dimension = %1$s), embedding2 array(real) WITH (dimension = %1$s), cat varchar, body varchar) WITH (max_rows_per_file = 400)"
                .formatted(DIMENSION));
        insertDocs("docs", 0, 2400);
        computeActual("ALTER TABLE docs EXECUTE create_index(column => 'embedding', index_type => 'ivf_pq', options => '{\"num_partitions\": 8, \"num_sub_vectors\": 4, \"distance_type\": \"l2\"}')");
        computeActual("ALTER TABLE docs EXECUTE create_index(column => 'embedding2', index_type => 'ivf_hnsw_sq', options => '{\"num_partitions\": 4, \"distance_type\": \"cosine\"}')");
        computeActual("ALTER TABLE docs EXECUTE create_index(column => 'body', index_type => 'inverted', options => '{\"with_position\": true}')");
        insertDocs("docs", 2400, 2800);
        assertUpdate("DELETE FROM docs WHERE id % 11 = 3", 255);
    }

    private void insertDocs(String table, int from, int to)
    {
        assertUpdate("""
                INSERT INTO %s
                SELECT x, %s, %s, 'c' || CAST(x %% 4 AS varchar),
                       array_join(transform(sequence(1, 4 + x %% 9), i -> element_at(%s, 1 + ((x * 7 + i * i * 5 + i * x) %% %s))), ' ')
                FROM UNNEST(sequence(%s, %s)) AS t(x)""".formatted(table, vector(7), vector(3), sqlWords(), WORDS.size(), from, to - 1), to - from);
    }

    /** Eight clusters, a centre per {@code x % 8} and a spread per row. */
    private static String vector(int salt)
    {
        return IntStream.range(0, DIMENSION)
                .mapToObj(i -> "CAST((((x %% 8) * %s + %s) %% 13) * 3 + ((x * %s + x * x * %s) %% 997) / 300e0 AS real)".formatted(i + salt, i, 31 + i, salt))
                .collect(Collectors.joining(", ", "ARRAY[", "]"));
    }

    private static String sqlWords()
    {
        return WORDS.stream().map(word -> "'" + word + "'").collect(Collectors.joining(", ", "ARRAY[", "]"));
    }

    @Test
    void testApproximateOrderByReturnsTheSdksNearestRows()
    {
        Random random = new Random(11);
        Session approximate = vectorSearch("approximate");
        for (int round = 0; round < 4; round++) {
            float[] query = queryVector(random);
            String l2 = "SELECT id FROM docs ORDER BY euclidean_distance(embedding, %s) LIMIT 10".formatted(sql(query));
            assertThat(explain(approximate, l2)).contains("nearest 10 by l2 embedding through index embedding_idx nprobes 20");
            assertThat(ids(approximate, l2)).isEqualTo(sdkNearest(Ref.ofMain(), "embedding", query, 10, DistanceType.L2, 20, Optional.empty(), Optional.empty()));

            String cosine = "SELECT id FROM docs ORDER BY cosine_similarity(embedding2, %s) DESC LIMIT 10".formatted(sql(query));
            assertThat(explain(approximate, cosine)).contains("through index embedding2_idx");
            assertThat(ids(approximate, cosine)).isEqualTo(sdkNearest(Ref.ofMain(), "embedding2", query, 10, DistanceType.Cosine, 20, Optional.empty(), Optional.empty()));

            // the filter is applied before the top k: ten rows of the category come back
            String filtered = "SELECT id, cat FROM docs WHERE cat = 'c2' AND id > 100 ORDER BY euclidean_distance(embedding, %s) LIMIT 10".formatted(sql(query));
            assertThat(explain(approximate, filtered)).contains("prefilter");
            List<MaterializedRow> rows = computeActual(approximate, filtered).getMaterializedRows();
            assertThat(rows).hasSize(10).allMatch(row -> row.getField(1).equals("c2"));
            assertThat(rows.stream().map(row -> (Long) row.getField(0)).collect(Collectors.toSet()))
                    .isEqualTo(sdkNearest(Ref.ofMain(), "embedding", query, 10, DistanceType.L2, 20, Optional.empty(), Optional.of("cat = 'c2' AND id > 100")));
        }
    }

    @Test
    void testApproximateDistancesAreExactAndParametersReachTheIndex()
    {
        Random random = new Random(12);
        float[] query = queryVector(random);
        // the distance the query selects is Trino's own, computed from the vectors the search returns
        String sql = "SELECT id, euclidean_distance(embedding, %s) d FROM docs ORDER BY d LIMIT 10".formatted(sql(query));
        List<MaterializedRow> approximate = computeActual(vectorSearch("approximate"), sql).getMaterializedRows();
        List<MaterializedRow> exact = computeActual(vectorSearch("off"), "SELECT id, euclidean_distance(embedding, %s) d FROM docs WHERE id IN (%s)"
                .formatted(sql(query), approximate.stream().map(row -> row.getField(0).toString()).collect(Collectors.joining(", ")))).getMaterializedRows();
        assertThat(Set.copyOf(approximate)).isEqualTo(Set.copyOf(exact));
        // ordered by the distance alone, the scan returns the rows in order and the engine keeps no top-N of its own
        assertThat(approximate.stream().map(row -> (Double) row.getField(1)).toList()).isSorted();
        assertThat(explain(vectorSearch("approximate"), sql)).doesNotContain("TopN");
        String similarity = "SELECT id, cosine_similarity(embedding2, %s) s FROM docs ORDER BY s DESC LIMIT 10".formatted(sql(query));
        List<Double> similarities = computeActual(vectorSearch("approximate"), similarity).getMaterializedRows().stream().map(row -> (Double) row.getField(1)).toList();
        assertThat(similarities).hasSize(10).isSortedAccordingTo(Comparator.reverseOrder());
        // a second sort key leaves the final order to the engine
        assertThat(explain(vectorSearch("approximate"), "SELECT id FROM docs ORDER BY euclidean_distance(embedding, %s), id LIMIT 10".formatted(sql(query)))).contains("TopN", "through index");

        // every partition probed and every candidate re-ranked: the exact answer
        Session thorough = Session.builder(vectorSearch("approximate"))
                .setCatalogSessionProperty("lance", "vector_nprobes", "8")
                .setCatalogSessionProperty("lance", "vector_refine_factor", "300")
                .build();
        String ordered = "SELECT id FROM docs ORDER BY euclidean_distance(embedding, %s) LIMIT 10".formatted(sql(query));
        assertThat(explain(thorough, ordered)).contains("nprobes 8 refine_factor 300");
        // rows of equal vectors tie, so distances are compared
        String distances = "SELECT euclidean_distance(embedding, %s) d FROM docs ORDER BY d LIMIT 10".formatted(sql(query));
        assertThat(computeActual(thorough, distances).getOnlyColumn().toList()).isEqualTo(computeActual(distances).getOnlyColumn().toList());
        assertThat(ids(thorough, ordered)).isEqualTo(sdkNearest(Ref.ofMain(), "embedding", query, 10, DistanceType.L2, 8, Optional.of(300), Optional.empty()));
        // EXPLAIN ANALYZE VERBOSE: the index, the partitions probed, the rows re-ranked and the SDK's own counts
        String analyzed = (String) computeActual(thorough, "EXPLAIN ANALYZE VERBOSE " + ordered).getOnlyValue();
        assertThat(analyzed).contains("vectorIndex:embedding_idx", "vectorNprobes", "vectorRowsRefined", "searchRowsFlat", "sdk:indexComparisons", "sdk:partitions_searched");

        // where the index does not apply, the exact pushdown does: farthest rows, another metric, a query of the wrong length
        assertThat(explain(vectorSearch("approximate"), "SELECT id FROM docs ORDER BY euclidean_distance(embedding, %s) DESC LIMIT 10".formatted(sql(query)))).contains("nearest 10 per split");
        assertThat(explain(vectorSearch("approximate"), "SELECT id FROM docs ORDER BY cosine_distance(embedding, %s) LIMIT 10".formatted(sql(query)))).contains("nearest 10 per split");
        assertThat(explain(getSession(), ordered)).contains("nearest 10 per split").doesNotContain("through index");
    }

    @Test
    void testVectorSearchFunctionReturnsTheSdksRowsAndDistances()
    {
        Random random = new Random(13);
        for (DistanceType distance : List.of(DistanceType.L2, DistanceType.Cosine, DistanceType.Dot)) {
            float[] query = queryVector(random);
            String name = distance.name().toLowerCase();
            // l2 through the IVF_PQ index (approximate distances), cosine and dot flat on embedding (exact)
            String sql = "SELECT id, _distance FROM TABLE(lance.system.vector_search('search', 'docs', 'embedding', %s, 12, '%s'))".formatted(sql(query), name);
            List<List<Object>> sdk = SdkScans.scan(dataset("docs"), Ref.ofMain(), new ScanOptions.Builder()
                    .columns(List.of("id"))
                    .nearest(new Query.Builder().setColumn("embedding").setKey(query).setK(12).setNprobes(20).setDistanceType(distance).setUseIndex(distance == DistanceType.L2).build())
                    .prefilter(true)
                    .build());
            List<MaterializedRow> rows = computeActual(sql).getMaterializedRows();
            assertThat(rows).hasSize(12);
            assertThat(rows.stream().map(row -> (Long) row.getField(0)).collect(Collectors.toSet()))
                    .isEqualTo(sdk.stream().map(row -> (Long) row.get(0)).collect(Collectors.toSet()));
            for (List<Object> expected : sdk) {
                double lanceDistance = (Float) expected.get(1);
                double trinoUnits = switch (distance) {
                    case L2 -> Math.sqrt(lanceDistance);
                    case Dot -> 1 - lanceDistance;
                    default -> lanceDistance;
                };
                MaterializedRow row = rows.stream().filter(candidate -> candidate.getField(0).equals(expected.get(0))).findFirst().orElseThrow();
                assertThat((Double) row.getField(1)).as("%s distance of row %s", name, expected.get(0)).isCloseTo(trinoUnits, within(1e-4 * Math.max(1, Math.abs(trinoUnits))));
            }
            if (distance != DistanceType.L2) {
                // flat search: the distances are Trino's functions', in float
                String function = distance == DistanceType.Cosine ? "cosine_distance" : "dot_product";
                String order = distance == DistanceType.Cosine ? "" : " DESC";
                List<Object> exact = computeActual("SELECT %s(embedding, %s) d FROM docs ORDER BY d%s LIMIT 12".formatted(function, sql(query), order)).getOnlyColumn().toList();
                List<Object> searched = computeActual(sql).getMaterializedRows().stream().map(row -> row.getField(1)).sorted(distance == DistanceType.Cosine ? Comparator.comparing(value -> (Double) value) : Comparator.comparing(value -> -(Double) value)).toList();
                for (int i = 0; i < exact.size(); i++) {
                    assertThat((Double) searched.get(i)).isCloseTo((Double) exact.get(i), within(1e-3 * Math.max(1, Math.abs((Double) exact.get(i)))));
                }
            }
        }
        // a filter and every column of the table
        float[] query = queryVector(random);
        List<MaterializedRow> filtered = computeActual("SELECT id, cat, body FROM TABLE(lance.system.vector_search(schema_name => 'search', table_name => 'docs', column => 'embedding', query => %s, k => 5, filter => 'cat = ''c1''', nprobes => 8, refine_factor => 4))"
                .formatted(sql(query))).getMaterializedRows();
        assertThat(filtered).hasSize(5).allMatch(row -> row.getField(1).equals("c1") && row.getField(2) != null);
        assertThat(filtered.stream().map(row -> (Long) row.getField(0)).collect(Collectors.toSet()))
                .isEqualTo(sdkNearest(Ref.ofMain(), "embedding", query, 5, DistanceType.L2, 8, Optional.of(4), Optional.of("cat = 'c1'")));
    }

    @Test
    void testSearchesFollowVersionsBranchesAndClones()
    {
        assertUpdate("CREATE TABLE lineage (id bigint, embedding array(real) WITH (dimension = %1$s), embedding2 array(real) WITH (dimension = %1$s), cat varchar, body varchar) WITH (max_rows_per_file = 500)"
                .formatted(DIMENSION));
        insertDocs("lineage", 0, 1500);
        computeActual("ALTER TABLE lineage EXECUTE create_index(column => 'embedding', index_type => 'ivf_flat', options => '{\"num_partitions\": 4}')");
        computeActual("ALTER TABLE lineage EXECUTE create_index(column => 'body', index_type => 'inverted')");
        long indexed = (long) computeScalar("SELECT max(version) FROM \"lineage$versions\"");
        assertUpdate("CREATE BRANCH exp IN TABLE lineage");
        insertDocs("lineage @ exp", 5000, 5600);
        assertUpdate("DELETE FROM lineage WHERE id % 5 = 0", 300);
        assertUpdate("CALL lance.system.shallow_clone('search', 'lineage', 'search', 'lineage_clone', NULL)");
        insertDocs("lineage_clone", 9000, 9300);

        Random random = new Random(14);
        record Target(String table, String version, Ref ref) {}
        for (Target target : List.of(
                new Target("lineage", "NULL", Ref.ofMain()),
                new Target("lineage", "'" + indexed + "'", Ref.ofMain(indexed)),
                new Target("lineage", "'exp'", Ref.ofBranch("exp")),
                new Target("lineage_clone", "NULL", Ref.ofMain()))) {
            float[] query = queryVector(random);
            String vectors = "SELECT id FROM TABLE(lance.system.vector_search(schema_name => 'search', table_name => '%s', column => 'embedding', query => %s, k => 10, version => %s))".formatted(target.table(), sql(query), target.version());
            assertThat(computeActual(vectors).getOnlyColumnAsSet()).as(vectors)
                    .isEqualTo(Set.copyOf(sdkNearest(dataset(target.table()), target.ref(), "embedding", query, 10, DistanceType.L2, 20, Optional.empty(), Optional.empty())));
            String text = "SELECT id, _score FROM TABLE(lance.system.text_search(schema_name => 'search', table_name => '%s', query => 'cherry fig', k => 8, version => %s))".formatted(target.table(), target.version());
            assertThat(Set.copyOf(computeActual(text).getMaterializedRows())).as(text)
                    .isEqualTo(Set.copyOf(sdkText(dataset(target.table()), target.ref(), FullTextQuery.match("cherry fig", "body"), 8)));
        }
        // the pushdown on the branch searches the branch's rows, the index included
        float[] query = queryVector(random);
        String onBranch = "SELECT id FROM lineage FOR VERSION AS OF 'exp' ORDER BY euclidean_distance(embedding, %s) LIMIT 10".formatted(sql(query));
        assertThat(explain(vectorSearch("approximate"), onBranch)).contains("through index embedding_idx");
        assertThat(Set.copyOf(ids(vectorSearch("approximate"), onBranch)))
                .isEqualTo(Set.copyOf(sdkNearest(dataset("lineage"), Ref.ofBranch("exp"), "embedding", query, 10, DistanceType.L2, 20, Optional.empty(), Optional.empty())));
    }

    @Test
    void testTextSearchReturnsTheSdksRowsAndScores()
    {
        for (String query : List.of("cherry", "apple banana", "kiwi lemon grape")) {
            String sql = "SELECT id, _score FROM TABLE(lance.system.text_search(schema_name => 'search', table_name => 'docs', query => '%s', k => 15))".formatted(query);
            assertThat(explain(getSession(), sql)).contains("by match [body] of index body_idx");
            assertThat(Set.copyOf(computeActual(sql).getMaterializedRows())).as(query)
                    .isEqualTo(Set.copyOf(sdkText(dataset("docs"), Ref.ofMain(), FullTextQuery.match(query, "body"), 15)));
        }
        String phrase = "SELECT id, _score FROM TABLE(lance.system.text_search('search', 'docs', '\"fig grape\"', ARRAY['body'], 20))";
        List<MaterializedRow> phraseRows = computeActual(phrase).getMaterializedRows();
        assertThat(Set.copyOf(phraseRows)).isEqualTo(Set.copyOf(sdkText(dataset("docs"), Ref.ofMain(), FullTextQuery.phrase("fig grape", "body"), 20)));
        assertThat(phraseRows).isNotEmpty();
        for (MaterializedRow row : phraseRows) {
            assertThat((String) computeScalar("SELECT body FROM docs WHERE id = " + row.getField(0))).contains("fig grape");
        }
        // a filter first, every column of the table
        List<MaterializedRow> filtered = computeActual("SELECT id, cat, _score FROM TABLE(lance.system.text_search(schema_name => 'search', table_name => 'docs', query => 'honey', k => 6, filter => 'cat = ''c3'''))").getMaterializedRows();
        assertThat(filtered).hasSize(6).allMatch(row -> row.getField(1).equals("c3"));
    }

    @Test
    void testTextSearchOverAnIndexTheSdkBuilt()
            throws Exception
    {
        assertUpdate("CREATE TABLE sdk_text (id bigint, embedding array(real) WITH (dimension = %1$s), embedding2 array(real) WITH (dimension = %1$s), cat varchar, body varchar) WITH (max_rows_per_file = 300)"
                .formatted(DIMENSION));
        insertDocs("sdk_text", 0, 900);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, dataset("sdk_text"))) {
            dataset.createIndex(List.of("body"), IndexType.INVERTED, Optional.of("body_fts"),
                    IndexParams.builder().setScalarIndexParams(new InvertedIndexParams.Builder().baseTokenizer("simple").language("English").withPosition(false).build()).build(), true);
        }
        insertDocs("sdk_text", 900, 1100);
        assertUpdate("DELETE FROM sdk_text WHERE id % 7 = 2", 157);
        for (String query : List.of("date", "elder iris")) {
            String sql = "SELECT id, _score FROM TABLE(lance.system.text_search(schema_name => 'search', table_name => 'sdk_text', query => '%s', k => 12))".formatted(query);
            assertThat(explain(getSession(), sql)).contains("index body_fts");
            assertThat(Set.copyOf(computeActual(sql).getMaterializedRows()))
                    .isEqualTo(Set.copyOf(sdkText(dataset("sdk_text"), Ref.ofMain(), FullTextQuery.match(query, "body"), 12)));
        }
        assertTrinoExceptionThrownBy(() -> computeActual("SELECT * FROM TABLE(lance.system.text_search('search', 'sdk_text', '\"date fig\"'))"))
                .hasErrorCode(INVALID_FUNCTION_ARGUMENT)
                .hasMessageContaining("a phrase query on column body of table search.sdk_text@")
                .hasMessageContaining("needs an inverted index with positions");
    }

    @Test
    void testErrorsNameTheArgument()
    {
        String query = sql(queryVector(new Random(1)));
        assertInvalid("SELECT * FROM TABLE(lance.system.vector_search('search', 'docs', 'embedding', ARRAY[1e0, 2e0]))",
                "vector_search: query has 2 elements, but column embedding of table search.docs@");
        assertInvalid("SELECT * FROM TABLE(lance.system.vector_search('search', 'docs', 'cat', %s))".formatted(query),
                "vector_search: column cat of table search.docs@");
        assertInvalid("SELECT * FROM TABLE(lance.system.vector_search('search', 'docs', 'nothing', %s))".formatted(query),
                "vector_search: column: table search.docs has no column nothing");
        assertInvalid("SELECT * FROM TABLE(lance.system.vector_search('search', 'docs', 'embedding', %s, 0))".formatted(query),
                "vector_search: k must be between 1 and 2147483647: 0");
        assertInvalid("SELECT * FROM TABLE(lance.system.vector_search('search', 'docs', 'embedding', %s, 5, 'manhattan'))".formatted(query),
                "vector_search: distance must be one of [l2, cosine, dot]: 'manhattan'");
        assertInvalid("SELECT * FROM TABLE(lance.system.vector_search(schema_name => 'search', table_name => 'docs', column => 'embedding', query => %s, nprobes => -1))".formatted(query),
                "vector_search: nprobes must be between 1 and 2147483647: -1");
        assertInvalid("SELECT * FROM TABLE(lance.system.text_search('search', 'docs', '  ?! '))",
                "text_search: query has no word to search for: '  ?! '");
        assertInvalid("SELECT * FROM TABLE(lance.system.text_search('search', 'docs', 'apple', ARRAY['id']))",
                "text_search: column id of table search.docs@");
        assertInvalid("SELECT * FROM TABLE(lance.system.text_search(schema_name => 'search', table_name => 'docs', query => 'apple', k => -3))",
                "text_search: k must be between 1 and 2147483647: -3");
        assertTrinoExceptionThrownBy(() -> computeActual("SELECT * FROM TABLE(lance.system.vector_search(schema_name => 'search', table_name => 'docs', column => 'embedding', query => %s, filter => 'no_such_column > 3'))".formatted(query)))
                .hasMessageContaining("Table search.docs@")
                .hasMessageContaining("no_such_column");
    }

    @Test
    void testAccessControlCoversTheSearchedTable()
    {
        String query = sql(queryVector(new Random(2)));
        assertAccessDenied("SELECT id FROM TABLE(lance.system.vector_search('search', 'docs', 'embedding', %s))".formatted(query),
                "Cannot select from columns .* in table or view lance.search.docs", privilege("docs.body", SELECT_COLUMN));
        assertAccessDenied("SELECT id FROM TABLE(lance.system.text_search('search', 'docs', 'apple'))",
                "Cannot select from columns .* in table or view lance.search.docs", privilege("docs.embedding", SELECT_COLUMN));
    }

    private void assertInvalid(String sql, String message)
    {
        assertTrinoExceptionThrownBy(() -> computeActual(sql))
                .hasErrorCode(INVALID_FUNCTION_ARGUMENT)
                .hasMessageContaining(message);
    }

    private Set<Long> sdkNearest(Ref ref, String column, float[] query, int k, DistanceType distance, int nprobes, Optional<Integer> refineFactor, Optional<String> filter)
    {
        return Set.copyOf(sdkNearest(dataset("docs"), ref, column, query, k, distance, nprobes, refineFactor, filter));
    }

    private static List<Long> sdkNearest(Path dataset, Ref ref, String column, float[] query, int k, DistanceType distance, int nprobes, Optional<Integer> refineFactor, Optional<String> filter)
    {
        Query.Builder nearest = new Query.Builder().setColumn(column).setKey(query).setK(k).setNprobes(nprobes).setDistanceType(distance);
        refineFactor.ifPresent(nearest::setRefineFactor);
        ScanOptions.Builder options = new ScanOptions.Builder().columns(List.of("id")).nearest(nearest.build()).prefilter(true);
        filter.ifPresent(options::filter);
        return SdkScans.scan(dataset, ref, options.build()).stream().map(row -> (Long) row.get(0)).toList();
    }

    /** The SDK's best rows as (id, score) rows, the score widened to double as the table function returns it. */
    private static List<MaterializedRow> sdkText(Path dataset, Ref ref, FullTextQuery query, int k)
    {
        ScanOptions options = new ScanOptions.Builder().columns(List.of("id")).fullTextQuery(query).limit(k).prefilter(true).build();
        List<MaterializedRow> rows = new ArrayList<>();
        for (List<Object> row : SdkScans.scan(dataset, ref, options)) {
            rows.add(new MaterializedRow(List.of(row.get(0), (double) (Float) row.get(1))));
        }
        return rows;
    }

    private Set<Long> ids(Session session, String sql)
    {
        Set<Long> ids = new HashSet<>();
        computeActual(session, sql).getMaterializedRows().forEach(row -> ids.add((Long) row.getField(0)));
        return ids;
    }

    private Path dataset(String table)
    {
        return warehouse.resolve(SCHEMA).resolve(table + ".lance");
    }

    private String explain(Session session, String sql)
    {
        return (String) computeActual(session, "EXPLAIN " + sql).getOnlyValue();
    }

    private Session vectorSearch(String mode)
    {
        return Session.builder(getSession()).setCatalogSessionProperty("lance", "vector_search", mode).build();
    }

    private static float[] queryVector(Random random)
    {
        float[] query = new float[DIMENSION];
        for (int i = 0; i < DIMENSION; i++) {
            query[i] = random.nextInt(40) - 2 + random.nextInt(4) / 4f;
        }
        return query;
    }

    private static String sql(float[] query)
    {
        // quarters print exactly, as double literals
        return IntStream.range(0, query.length).mapToObj(i -> Double.toString(query[i]) + "e0").collect(Collectors.joining(", ", "ARRAY[", "]"));
    }
}
