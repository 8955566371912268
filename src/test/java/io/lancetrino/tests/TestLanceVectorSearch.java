package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exact nearest-neighbour queries in plain SQL: with {@code vector_search = 'exact'} (the default) the distance and
 * the top-N reach the scan, and every answer equals the engine's own with the pushdown off, value for value.
 */
final class TestLanceVectorSearch
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "search";
    private static final int DIMENSION = 8;
    private static final List<String> ORDERINGS = List.of("euclidean_distance(%s, %s)", "cosine_distance(%s, %s)", "dot_product(%s, %s) DESC", "cosine_similarity(%s, %s) DESC");

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-vector-search");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testPushedNearestRowsEqualTheEnginesAnswer()
    {
        createDocs("docs");
        Random random = new Random(3);
        for (String ordering : ORDERINGS) {
            for (String column : List.of("embedding", "embedding_double")) {
                for (String filter : List.of("", "WHERE cat = 'c1'", "WHERE id BETWEEN 100 AND 700 AND cat <> 'c2'")) {
                    String query = queryVector(random);
                    String function = ordering.formatted(column, query);
                    assertSameAnswer("SELECT id, %s FROM docs %s ORDER BY %s, id LIMIT 10".formatted(function.replace(" DESC", ""), filter, function));
                    // without a tie-breaker, tied rows may differ: the distances may not
                    String swapped = function.replace("(" + column, "(" + query + ", " + column).replace(", " + query + ")", ")");
                    assertSameDistances("SELECT %s FROM docs %s ORDER BY %s LIMIT 7".formatted(swapped.replace(" DESC", ""), filter, swapped));
                }
            }
        }
        // k larger than the table, k of one, a projection without ORDER BY
        assertSameAnswer("SELECT id FROM docs ORDER BY euclidean_distance(embedding, %s), id LIMIT 5000".formatted(queryVector(random)));
        assertSameAnswer("SELECT id FROM docs ORDER BY cosine_distance(embedding, %s), id LIMIT 1".formatted(queryVector(random)));
        assertSameAnswer("SELECT id, dot_product(embedding, %s) FROM docs WHERE id < 50".formatted(queryVector(random)));
    }

    @Test
    void testThePlanChangesOnlyWithThePushdown()
    {
        createDocs("plans");
        String sql = "SELECT id FROM plans ORDER BY cosine_distance(embedding, %s) LIMIT 10".formatted(queryVector(new Random(1)));
        assertThat(explain(getSession(), sql)).contains("nearest 10 per split by cosine_distance_embedding");
        assertThat(explain(vectorSearch("off"), sql)).doesNotContain("nearest");
        // each split returned only its nearest rows
        String analyzed = (String) computeActual("EXPLAIN ANALYZE VERBOSE " + sql).getOnlyValue();
        assertThat(analyzed).contains("vectorRowsCompared").contains("vectorRowsReturned");
    }

    @Test
    void testVersionsBranchesAndClones()
    {
        createDocs("history");
        long version = (long) computeScalar("SELECT max(version) FROM \"history$versions\"");
        assertUpdate("CREATE BRANCH exp IN TABLE history");
        computeActual("INSERT INTO history @ exp SELECT id + 10000, embedding, embedding_double, 'exp' FROM history WHERE id < 300");
        computeActual("DELETE FROM history WHERE id % 3 = 0");
        assertUpdate("CALL lance.system.shallow_clone('search', 'history', 'search', 'history_clone', NULL)");
        computeActual("INSERT INTO history_clone SELECT id + 20000, embedding, embedding_double, 'clone' FROM history WHERE id < 100");
        Random random = new Random(5);
        for (String relation : List.of("history", "history FOR VERSION AS OF " + version, "history FOR VERSION AS OF 'exp'", "history_clone")) {
            assertSameAnswer("SELECT id, cat FROM %s ORDER BY euclidean_distance(embedding, %s), id LIMIT 12".formatted(relation, queryVector(random)));
        }
    }

    @Test
    void testErrorsAreTheEnginesErrors()
    {
        createDocs("errors");
        String tooShort = "SELECT id FROM errors ORDER BY euclidean_distance(embedding, ARRAY[1e0, 2e0]) LIMIT 3";
        assertTrinoExceptionThrownBy(() -> computeActual(tooShort))
                .hasErrorCode(INVALID_FUNCTION_ARGUMENT)
                .hasMessage("The arguments must have the same length: column embedding holds a vector of 8 elements, the query vector has 2");
        assertTrinoExceptionThrownBy(() -> computeActual(vectorSearch("off"), tooShort))
                .hasErrorCode(INVALID_FUNCTION_ARGUMENT)
                .hasMessage("The arguments must have the same length");
        String zero = "SELECT id FROM errors ORDER BY cosine_distance(embedding, %s) LIMIT 3".formatted(IntStream.range(0, DIMENSION).mapToObj(_ -> "0e0").collect(Collectors.joining(", ", "ARRAY[", "]")));
        for (Session session : List.of(getSession(), vectorSearch("off"))) {
            assertTrinoExceptionThrownBy(() -> computeActual(session, zero))
                    .hasErrorCode(INVALID_FUNCTION_ARGUMENT)
                    .hasMessage("Vector magnitude cannot be zero");
        }
    }

    private void assertSameAnswer(String sql)
    {
        MaterializedResult pushed = computeActual(sql);
        MaterializedResult engine = computeActual(vectorSearch("off"), sql);
        assertThat(pushed.getMaterializedRows()).as(sql).isEqualTo(engine.getMaterializedRows());
        assertThat(explain(getSession(), sql)).as(sql).containsAnyOf("nearest", "cosine_distance_", "euclidean_distance_", "dot_product_", "cosine_similarity_");
    }

    private void assertSameDistances(String sql)
    {
        List<Object> pushed = computeActual(sql).getOnlyColumn().toList();
        assertThat(pushed).as(sql).isEqualTo(computeActual(vectorSearch("off"), sql).getOnlyColumn().toList());
        assertThat(explain(getSession(), sql)).as(sql).contains("nearest 7 per split");
    }

    private String explain(Session session, String sql)
    {
        return (String) computeActual(session, "EXPLAIN " + sql).getOnlyValue();
    }

    private Session vectorSearch(String mode)
    {
        return Session.builder(getSession()).setCatalogSessionProperty("lance", "vector_search", mode).build();
    }

    private static String queryVector(Random random)
    {
        return IntStream.range(0, DIMENSION).mapToObj(_ -> "%se0".formatted(random.nextInt(21) - 10)).collect(Collectors.joining(", ", "ARRAY[", "]"));
    }

    /**
     * 1,000 rows in five fragments, a real and a double vector per row (some NULL, some with NULL elements, some
     * tied), then deletions.
     */
    private void createDocs(String name)
    {
        assertUpdate("CREATE TABLE %s (id bigint, embedding array(real) WITH (dimension = %s), embedding_double array(double) WITH (dimension = %s), cat varchar) WITH (max_rows_per_file = 200)"
                .formatted(name, DIMENSION, DIMENSION));
        String vector = IntStream.range(0, DIMENSION)
                .mapToObj(i -> "CAST(((x * %s + %s) %% 17) - 8 + (x %% 5) * 0.25 AS real)".formatted(7 + i, i * 3))
                .collect(Collectors.joining(", ", "ARRAY[", "]"));
        assertUpdate("""
                INSERT INTO %s
                SELECT x,
                       CASE WHEN x %% 97 = 5 THEN NULL WHEN x %% 89 = 3 THEN ARRAY[NULL, 1, 2, 3, 4, 5, 6, 7] WHEN x %% 50 = 1 THEN ARRAY[REAL '1', 1, 1, 1, 1, 1, 1, 1] ELSE %s END,
                       CASE WHEN x %% 101 = 7 THEN NULL ELSE CAST(%s AS array(double)) END,
                       'c' || CAST(x %% 4 AS varchar)
                FROM UNNEST(sequence(0, 999)) AS t(x)""".formatted(name, vector, vector), 1000);
        assertUpdate("DELETE FROM %s WHERE id %% 13 = 6".formatted(name), 77);
    }
}
