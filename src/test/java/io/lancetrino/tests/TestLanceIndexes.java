package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.index.IndexDescription;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;

import static io.lancetrino.split.LanceErrorCode.LANCE_ALREADY_EXISTS;
import static io.lancetrino.split.LanceErrorCode.LANCE_INDEX_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.BRANCH_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index lifecycle from SQL ({@code create_index}, {@code drop_index}, {@code optimize_indexes},
 * {@code "t$indexes"}) on the Lance SDK's own index files, and every write of this connector keeping the indexes of
 * any engine true: after each, the SDK's indexed answers equal its flat scans.
 */
final class TestLanceIndexes
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "lab";
    private static final List<String> FILTERS = List.of("id = 17", "id IN (3, 250, 999, 1500)", "id BETWEEN 100 AND 140", "cat = 'c3'", "cat IN ('c0', 'c6')", "cat IS NULL");

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-indexes");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testLifecycleOfScalarIndexes()
    {
        createItems("items");
        MaterializedResult created = computeActual("ALTER TABLE items EXECUTE create_index(column => 'id', index_type => 'btree')");
        assertThat(metric(created, "rows_indexed")).isEqualTo(1000);
        assertThat(metric(created, "rows_not_indexed")).isZero();
        assertThat(metric(created, "fragments_covered")).isEqualTo(4);
        assertThat(metric(created, "index_size_bytes")).isPositive();
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'cat', index_type => 'BITMAP', name => 'cat_bitmap')");
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'tags', index_type => 'label_list')");
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'body', index_type => 'ngram', name => 'body_ngram')");
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'body', index_type => 'inverted', options => '{\"with_position\": true, \"stem\": false}')");
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'score', index_type => 'zonemap', options => '{\"rows_per_zone\": 128}')");

        assertQuery("SELECT name, index_type, columns, segments, fragments_covered, rows_covered, rows_not_covered, size_bytes > 0, created_at IS NOT NULL FROM \"items$indexes\"",
                """
                VALUES ('id_idx', 'btree', ARRAY['id'], 1, 4, 1000, 0, true, true),
                       ('cat_bitmap', 'bitmap', ARRAY['cat'], 1, 4, 1000, 0, true, true),
                       ('tags_idx', 'label_list', ARRAY['tags'], 1, 4, 1000, 0, true, true),
                       ('body_ngram', 'ngram', ARRAY['body'], 1, 4, 1000, 0, true, true),
                       ('body_idx', 'inverted', ARRAY['body'], 1, 4, 1000, 0, true, true),
                       ('score_idx', 'zonemap', ARRAY['score'], 1, 4, 1000, 0, true, true)
                """);
        // the SDK describes and uses what was built here
        Path table = warehouse.resolve(SCHEMA).resolve("items.lance");
        assertThat(sdkIndexes(table)).containsEntry("id_idx", "BTREE").containsEntry("cat_bitmap", "BITMAP").containsEntry("body_idx", "INVERTED");
        assertSdkIndexedEqualsFlat(table, FILTERS);
        long version = latestVersion("items");

        // rows written since the index was built are uncovered until optimize_indexes
        assertUpdate("INSERT INTO items SELECT id, cat, tags, body, score FROM items WHERE id < 50", 50);
        assertQuery("SELECT rows_covered, rows_not_covered FROM \"items$indexes\" WHERE name = 'id_idx'", "VALUES (1000, 50)");
        MaterializedResult optimized = computeActual("ALTER TABLE items EXECUTE optimize_indexes(name => 'id_idx')");
        assertThat(metric(optimized, "rows_indexed")).isEqualTo(1050);
        assertQuery("SELECT rows_covered, rows_not_covered FROM \"items$indexes\" WHERE name = 'id_idx'", "VALUES (1050, 0)");
        assertQuery("SELECT rows_not_covered FROM \"items$indexes\" WHERE name = 'cat_bitmap'", "VALUES 50");
        assertSdkIndexedEqualsFlat(table, FILTERS);

        MaterializedResult dropped = computeActual("ALTER TABLE items EXECUTE drop_index(name => 'cat_bitmap')");
        assertThat(metric(dropped, "segments_dropped")).isEqualTo(1);
        assertQuery("SELECT count(*) FROM \"items$indexes\" WHERE name = 'cat_bitmap'", "VALUES 0");
        assertQuery("SELECT statement FROM \"items$transactions\" ORDER BY version DESC LIMIT 1", "VALUES 'DROP INDEX'");
        assertThat(sdkIndexes(table)).doesNotContainKey("cat_bitmap");
        // an older version still lists it
        assertQuery("SELECT index_type FROM \"items@%s$indexes\" WHERE name = 'cat_bitmap'".formatted(version), "VALUES 'bitmap'");
        assertSdkIndexedEqualsFlat(table, FILTERS);

        // replace rebuilds under the same name
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'cat', index_type => 'bitmap', name => 'cat_idx')");
        computeActual("ALTER TABLE items EXECUTE create_index(column => 'cat', index_type => 'btree', name => 'cat_idx', replace => true)");
        assertQuery("SELECT index_type, columns FROM \"items$indexes\" WHERE name = 'cat_idx'", "VALUES ('btree', ARRAY['cat'])");
        // Lance replaces an index only over the same columns
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE items EXECUTE create_index(column => 'score', index_type => 'btree', name => 'cat_idx', replace => true)"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.items: index cat_idx indexes other columns than score; drop it first or choose another name");
    }

    @Test
    void testBadArgumentsChangeNothing()
    {
        createItems("bad_args");
        computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'id', index_type => 'btree')");
        long version = latestVersion("bad_args");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'id', index_type => 'hash')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.bad_args: unknown index_type 'hash'; allowed: btree, bitmap, label_list, ngram, zonemap, inverted, ivf_flat, ivf_pq, ivf_sq, ivf_hnsw_sq");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'nope', index_type => 'btree')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.bad_args: column 'nope' does not exist");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'tags', index_type => 'btree')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.bad_args: a btree index cannot index column tags of Lance type list; it indexes numbers, varchar, date or timestamp");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'id', index_type => 'ivf_pq')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessageContaining("a ivf_pq index cannot index column id of Lance type int64; it indexes a vector");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'cat', index_type => 'bitmap', options => '{\"zone_size\": 10}')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.bad_args: option 'zone_size' does not apply to a bitmap index; it takes no options");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'score', index_type => 'zonemap', options => '{\"rows_per_zone\": -1}')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.bad_args: option rows_per_zone must be a positive integer, not -1");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'cat', index_type => 'bitmap', options => '[1]')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.bad_args: options must be a JSON object, not [1]");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'id', index_type => 'btree')"))
                .hasErrorCode(LANCE_ALREADY_EXISTS)
                .hasMessageStartingWith("Index id_idx already exists on table lab.bad_args main version %s".formatted(version));
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE create_index(column => 'id', index_type => 'btree', branch => 'nope')"))
                .hasErrorCode(BRANCH_NOT_FOUND);
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE drop_index(name => 'other_idx')"))
                .hasErrorCode(LANCE_INDEX_NOT_FOUND)
                .hasMessage("Index other_idx does not exist on table lab.bad_args main version %s; its indexes: [id_idx]".formatted(version));
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE optimize_indexes(name => 'other_idx')"))
                .hasErrorCode(LANCE_INDEX_NOT_FOUND);
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE bad_args EXECUTE drop_index"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT);
        assertThat(latestVersion("bad_args")).isEqualTo(version);
    }

    /**
     * Lance removes the indexes of a dropped column; one left behind makes every other engine fail every filtered scan
     * ("Index referenced a field with id N which did not exist in the schema").
     */
    @Test
    void testDroppedColumnTakesItsIndexesForEveryEngine()
    {
        createItems("dropped");
        Path table = warehouse.resolve(SCHEMA).resolve("dropped.lance");
        sdkCreateIndex(table, "cat", IndexType.BITMAP, "cat_idx");
        sdkCreateIndex(table, "id", IndexType.BTREE, "id_idx");

        assertUpdate("ALTER TABLE dropped DROP COLUMN cat");

        assertQuery("SELECT name FROM \"dropped$indexes\"", "VALUES 'id_idx'");
        assertThat(sdkIndexes(table)).containsOnlyKeys("id_idx");
        assertSdkIndexedEqualsFlat(table, List.of("id = 17", "id > 900", "score < 10"));
        // a column added under the old name is not indexed by the old index
        assertUpdate("ALTER TABLE dropped ADD COLUMN cat varchar");
        assertSdkIndexedEqualsFlat(table, List.of("cat IS NULL", "id = 4"));
    }

    @Test
    void testWritesKeepEveryIndexTrue()
    {
        createItems("written");
        Path table = warehouse.resolve(SCHEMA).resolve("written.lance");
        sdkCreateIndex(table, "id", IndexType.BTREE, "id_idx");
        sdkCreateIndex(table, "cat", IndexType.BITMAP, "cat_idx");
        sdkCreateIndex(table, "score", IndexType.ZONEMAP, "score_idx");
        sdkCreateIndex(table, "tags", IndexType.LABEL_LIST, "tags_idx");
        sdkCreateIndex(table, "body", IndexType.NGRAM, "body_idx");
        Random random = new Random(7);
        for (int step = 0; step < 6; step++) {
            int pivot = random.nextInt(1000);
            switch (step % 6) {
                case 0 -> getQueryRunner().execute("DELETE FROM written WHERE id %% 7 = %s".formatted(pivot % 7));
                case 1 -> getQueryRunner().execute("UPDATE written SET cat = 'c9', id = id + 2000 WHERE id BETWEEN %s AND %s".formatted(pivot, pivot + 40));
                case 2 -> assertUpdate("INSERT INTO written VALUES (%s, 'c3', NULL, 'new', 1.5)".formatted(5000 + pivot), 1);
                case 3 -> getQueryRunner().execute("""
                        MERGE INTO written t USING (VALUES (17, 'c5'), (%s, 'c6')) AS s(id, cat) ON t.id = s.id
                        WHEN MATCHED THEN UPDATE SET cat = s.cat WHEN NOT MATCHED THEN INSERT (id, cat) VALUES (s.id, s.cat)""".formatted(9000 + pivot));
                case 4 -> computeActual("ALTER TABLE written EXECUTE optimize(target_rows_per_fragment => 600)");
                default -> computeActual("ALTER TABLE written EXECUTE optimize_indexes(name => 'cat_idx')");
            }
            assertSdkIndexedEqualsFlat(table, List.of("id = 17", "id IN (3, 250, 999, 2120, 5000)", "id BETWEEN 100 AND 600", "cat = 'c3'", "cat IN ('c5', 'c9')", "cat IS NULL",
                    "score < 40", "score BETWEEN 100 AND 101", "array_has_any(tags, ['t1', 't7'])", "array_has_all(tags, ['t2', 't0'])", "contains(body, 'word3 ')"));
        }
    }

    @Test
    void testBranchesHaveTheirOwnIndexes()
    {
        createItems("branched");
        computeActual("ALTER TABLE branched EXECUTE create_index(column => 'id', index_type => 'btree')");
        assertUpdate("CREATE BRANCH dev IN TABLE branched");
        assertUpdate("INSERT INTO branched @ dev VALUES (7000, 'c1', NULL, 'x', 0.5)", 1);
        computeActual("ALTER TABLE branched EXECUTE create_index(column => 'cat', index_type => 'bitmap', branch => 'dev')");
        assertQuery("SELECT name, rows_not_covered FROM \"branched@dev$indexes\"", "VALUES ('id_idx', 1), ('cat_idx', 0)");
        assertQuery("SELECT name FROM \"branched$indexes\"", "VALUES 'id_idx'");
        computeActual("ALTER TABLE branched EXECUTE optimize_indexes(name => 'id_idx', branch => 'dev')");
        assertQuery("SELECT rows_not_covered FROM \"branched@dev$indexes\" WHERE name = 'id_idx'", "VALUES 0");
        computeActual("ALTER TABLE branched EXECUTE drop_index(name => 'cat_idx', branch => 'dev')");
        assertQuery("SELECT name FROM \"branched@dev$indexes\"", "VALUES 'id_idx'");
        assertQuery("SELECT count(*) FROM branched FOR VERSION AS OF 'dev' WHERE id = 7000", "VALUES 1");
        Path branch = warehouse.resolve(SCHEMA).resolve("branched.lance").resolve("tree").resolve("dev");
        assertSdkIndexedEqualsFlat(branch, List.of("id = 7000", "id < 30"));
    }

    @Test
    void testVectorIndexesBuild()
    {
        Path table = vectors("vectors", 600, 16);
        computeActual("ALTER TABLE vectors EXECUTE create_index(column => 'vec', index_type => 'ivf_pq', options => '{\"num_partitions\": 4, \"num_sub_vectors\": 4, \"distance_type\": \"cosine\", \"max_iters\": 10}')");
        computeActual("ALTER TABLE vectors EXECUTE create_index(column => 'vec', index_type => 'ivf_hnsw_sq', name => 'vec_hnsw', options => '{\"num_partitions\": 2, \"m\": 8, \"ef_construction\": 50}')");
        computeActual("ALTER TABLE vectors EXECUTE create_index(column => 'vec', index_type => 'ivf_flat', name => 'vec_flat', options => '{\"num_partitions\": 2}')");
        assertQuery("SELECT name, index_type, rows_covered FROM \"vectors$indexes\"",
                "VALUES ('vec_idx', 'ivf_pq', 600), ('vec_hnsw', 'ivf_hnsw_sq', 600), ('vec_flat', 'ivf_flat', 600)");
        assertThat(sdkIndexes(table)).containsEntry("vec_idx", "IVFPQ").containsEntry("vec_hnsw", "IVFHNSWSQ");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE vectors EXECUTE create_index(column => 'vec', index_type => 'ivf_pq', name => 'x', options => '{\"distance_type\": \"hamming\"}')"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("create_index on table lab.vectors: option distance_type must be one of 'l2', 'cosine', 'dot', not \"hamming\"");
    }

    /**
     * Optimize never moves the rows an index covers, so every index of every kind stays listed and answers for all of
     * them, in this connector and in the SDK; the fragments no index covers are compacted.
     */
    @Test
    void testEveryIndexSurvivesOptimize()
    {
        assertUpdate("CREATE TABLE survivors (id bigint, cat varchar, tags array(varchar), body varchar, vec array(real) WITH (dimension = 8)) WITH (max_rows_per_file = 250)");
        assertUpdate(LanceQueryRunner.oneWriter(getSession()), """
                INSERT INTO survivors
                SELECT x, 'c' || CAST(x % 7 AS varchar), ARRAY['t' || CAST(x % 3 AS varchar), 't' || CAST(x % 5 AS varchar)],
                       'word' || CAST(x % 13 AS varchar) || ' common text',
                       transform(sequence(1, 8), i -> CAST((x % 4) * 10 + ((x * i) % 17) / 10e0 AS real))
                FROM UNNEST(sequence(0, 999)) AS t(x)""", 1000);
        Path table = warehouse.resolve(SCHEMA).resolve("survivors.lance");
        sdkCreateIndex(table, "id", IndexType.BTREE, "id_idx");
        sdkCreateIndex(table, "cat", IndexType.BITMAP, "cat_idx");
        sdkCreateIndex(table, "tags", IndexType.LABEL_LIST, "tags_idx");
        computeActual("ALTER TABLE survivors EXECUTE create_index(column => 'body', index_type => 'inverted', name => 'body_idx')");
        computeActual("ALTER TABLE survivors EXECUTE create_index(column => 'vec', index_type => 'ivf_pq', name => 'vec_idx', options => '{\"num_partitions\": 4, \"num_sub_vectors\": 2}')");
        assertUpdate("DELETE FROM survivors WHERE id % 9 = 4", 111);
        for (int id = 2000; id < 2003; id++) {
            assertUpdate("INSERT INTO survivors VALUES (%s, 'c1', ARRAY['t1'], 'word5 late', ARRAY[21, 20, 22, 21, 20, 21, 22, %s])".formatted(id, id - 1980), 1);
        }
        List<String> filters = List.of("id = 17", "id IN (3, 250, 999, 2000)", "id BETWEEN 100 AND 600", "cat = 'c3'", "cat IN ('c5', 'c1')",
                "array_has_any(tags, ['t1', 't4'])", "array_has_all(tags, ['t2', 't0'])");
        Map<String, List<Long>> before = sdkAnswers(table, filters);
        String textSearch = "SELECT id FROM TABLE(lance.system.text_search(schema_name => '%s', table_name => 'survivors', query => 'word5', k => 1000))".formatted(SCHEMA);
        MaterializedResult textBefore = computeActual(textSearch);
        List<Long> nearestBefore = sdkNearestIds(table, true);
        MaterializedResult indexedFragments = computeActual("SELECT id FROM \"survivors$fragments\" WHERE physical_rows = 250");

        MaterializedResult optimized = computeActual("ALTER TABLE survivors EXECUTE optimize");

        // the three late fragments became one; the indexed ones kept their ids and rows
        assertThat(metric(optimized, "fragments_rewritten")).isEqualTo(3);
        assertQuery("SELECT count(*) FROM \"survivors$fragments\"", "VALUES 5");
        assertThat(computeActual("SELECT id FROM \"survivors$fragments\" WHERE physical_rows = 250").getMaterializedRows()).isEqualTo(indexedFragments.getMaterializedRows());
        assertQuery("SELECT name, rows_covered, rows_not_covered FROM \"survivors$indexes\"",
                "VALUES ('id_idx', 889, 3), ('cat_idx', 889, 3), ('tags_idx', 889, 3), ('body_idx', 889, 3), ('vec_idx', 889, 3)");
        assertThat(sdkIndexes(table)).containsOnlyKeys("id_idx", "cat_idx", "tags_idx", "body_idx", "vec_idx");
        assertThat(sdkAnswers(table, filters)).isEqualTo(before);
        assertSdkIndexedEqualsFlat(table, filters);
        assertThat(sdkNearestIds(table, true)).isEqualTo(nearestBefore).isEqualTo(sdkNearestIds(table, false));
        assertThat(computeActual(textSearch).getMaterializedRows()).containsExactlyInAnyOrderElementsOf(textBefore.getMaterializedRows())
                .hasSize(((Long) computeScalar("SELECT count(*) FROM survivors WHERE body LIKE 'word5 %'")).intValue());
        assertThat((String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT * FROM survivors WHERE id = 17").getOnlyValue()).contains("scalarIndex:id_idx");
        assertSameAnswers("SELECT id FROM survivors WHERE id BETWEEN 100 AND 600 OR id > 1999",
                "SELECT x FROM UNNEST(sequence(100, 600)) t(x) WHERE x % 9 <> 4 UNION ALL VALUES 2000, 2001, 2002");
    }

    /**
     * The SDK's compaction with {@code defer_index_remap} leaves its indexes as they were built and records where the rows
     * went in its fragment reuse index: reads here follow the record, and writes keep what it says true.
     */
    @Test
    void testIndexesAreFollowedThroughTheSdksDeferredCompaction()
    {
        createItems("deferred");
        Path table = warehouse.resolve(SCHEMA).resolve("deferred.lance");
        sdkCreateIndex(table, "id", IndexType.BTREE, "id_idx");
        sdkCreateIndex(table, "cat", IndexType.BITMAP, "cat_idx");
        assertUpdate("DELETE FROM deferred WHERE id % 9 = 4", 111);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            dataset.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(2000).withDeferIndexRemap(true).build());
        }
        assertQuery("SELECT count(*) FROM \"deferred$fragments\"", "VALUES 1");
        // the indexes name fragments that are gone, and cover the one they became
        assertQuery("SELECT name, rows_covered, rows_not_covered FROM \"deferred$indexes\"", "VALUES ('id_idx', 889, 0), ('cat_idx', 889, 0)");
        assertThat((String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT * FROM deferred WHERE id = 17").getOnlyValue()).contains("scalarIndex:id_idx");
        Session withoutIndex = Session.builder(getSession()).setCatalogSessionProperty("lance", "use_scalar_index", "false").build();
        for (String predicate : List.of("id = 17", "id IN (3, 250, 999)", "id BETWEEN 100 AND 600", "cat = 'c3'", "cat IN ('c5', 'c1') AND id < 300")) {
            String query = "SELECT id, cat FROM deferred WHERE " + predicate;
            assertThat(computeActual(query).getMaterializedRows()).as(predicate)
                    .containsExactlyInAnyOrderElementsOf(computeActual(withoutIndex, query).getMaterializedRows())
                    .isNotEmpty();
        }

        // an UPDATE deletes the row where the record puts it and writes it anew, where no index covers it
        assertUpdate("UPDATE deferred SET cat = 'c9' WHERE id = 17", 1);
        assertQuery("SELECT name, rows_covered, rows_not_covered FROM \"deferred$indexes\"", "VALUES ('id_idx', 888, 1), ('cat_idx', 888, 1)");
        assertSdkIndexedEqualsFlat(table, List.of("cat = 'c9'", "cat = 'c3'", "id = 17"));
        assertQuery("SELECT id FROM deferred WHERE cat = 'c9'", "VALUES 17");
        // optimize leaves what an index covers as it is, and keeps the record every other index follows
        assertUpdate("INSERT INTO deferred VALUES (5000, 'c3', NULL, 'new', 1.5)", 1);
        assertUpdate("INSERT INTO deferred VALUES (5001, 'c3', NULL, 'new', 1.5)", 1);
        MaterializedResult optimized = computeActual("ALTER TABLE deferred EXECUTE optimize");
        assertThat(metric(optimized, "fragments_rewritten")).isEqualTo(3);
        assertQuery("SELECT name, rows_covered, rows_not_covered FROM \"deferred$indexes\"", "VALUES ('id_idx', 888, 3), ('cat_idx', 888, 3)");
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            assertThat(dataset.listIndexes()).containsExactlyInAnyOrder("id_idx", "cat_idx", "__lance_frag_reuse");
        }
        assertSdkIndexedEqualsFlat(table, List.of("cat = 'c9'", "cat = 'c3'", "id = 17", "id > 4000"));
        assertQuery("SELECT count(*) FROM deferred WHERE cat = 'c3' AND id > 4000", "VALUES 2");
    }

    /** Both queries, run by Trino, return the same rows, and some. */
    private void assertSameAnswers(String actual, String expected)
    {
        assertThat(computeActual(actual).getMaterializedRows()).containsExactlyInAnyOrderElementsOf(computeActual(expected).getMaterializedRows()).isNotEmpty();
    }

    private void assertSameRowsAsItems(String... predicates)
    {
        for (String predicate : predicates) {
            assertSameAnswers("SELECT id FROM survivors WHERE " + predicate, "SELECT id FROM (%s) WHERE %s".formatted(itemsValues(), predicate.replace("contains(tags, 't4')", "tag_b = 't4'")));
        }
    }

    /** The first 1,000 rows of {@code survivors} less its deletions, plus its two late rows, as (id, cat, tag_b). */
    private static String itemsValues()
    {
        return """
                SELECT x AS id, 'c' || CAST(x % 7 AS varchar) AS cat, 't' || CAST(x % 5 AS varchar) AS tag_b FROM UNNEST(sequence(0, 999)) t(x) WHERE x % 9 <> 4
                UNION ALL VALUES (2000, 'c1', 't1'), (2001, 'c2', 't2')""";
    }

    private static Map<String, List<Long>> sdkAnswers(Path table, List<String> filters)
    {
        Map<String, List<Long>> answers = new java.util.LinkedHashMap<>();
        filters.forEach(filter -> answers.put(filter, sdkIds(table, filter, true)));
        return answers;
    }

    /** The SDK's ten nearest rows to one query, from its index (every partition probed, re-ranked exactly) or flat. */
    private static List<Long> sdkNearestIds(Path table, boolean useIndex)
    {
        float[] query = {21, 20, 22, 21, 20, 21, 22, 20};
        org.lance.ipc.Query nearest = new org.lance.ipc.Query.Builder().setColumn("vec").setKey(query).setK(10).setNprobes(4).setRefineFactor(200).setUseIndex(useIndex).build();
        return SdkScans.scan(table, org.lance.Ref.ofMain(), new org.lance.ipc.ScanOptions.Builder().columns(List.of("id")).nearest(nearest).build()).stream()
                .map(row -> (Long) row.get(0))
                .sorted()
                .toList();
    }

    private void createItems(String name)
    {
        assertUpdate("CREATE TABLE %s (id bigint, cat varchar, tags array(varchar), body varchar, score double) WITH (max_rows_per_file = 250)".formatted(name));
        // one writer, so the fragments are 4 of 250 rows each
        Session oneWriter = LanceQueryRunner.oneWriter(getSession());
        assertUpdate(oneWriter, """
                INSERT INTO %s
                SELECT x, IF(x %% 11 = 0, NULL, 'c' || CAST(x %% 7 AS varchar)), ARRAY['t' || CAST(x %% 3 AS varchar), 't' || CAST(x %% 5 AS varchar)],
                       'word' || CAST(x %% 13 AS varchar) || ' common text ' || CAST(x AS varchar), x * 0.25
                FROM UNNEST(sequence(0, 999)) AS t(x)""".formatted(name), 1000);
        assertQuery("SELECT count(*) FROM \"%s$fragments\"".formatted(name), "VALUES 4");
    }

    private Path vectors(String name, int rows, int dimension)
    {
        Field vec = new Field("vec", FieldType.nullable(new ArrowType.FixedSizeList(dimension)),
                List.of(Field.nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
        Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)), vec));
        Random random = new Random(11);
        List<List<Object>> values = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            List<Object> vector = new ArrayList<>();
            for (int i = 0; i < dimension; i++) {
                vector.add(random.nextFloat() + (row % 4));
            }
            values.add(List.of((long) row, vector));
        }
        return LanceFixtures.table(warehouse.resolve(SCHEMA), name, schema, values, "2.1", 300);
    }

    private static void sdkCreateIndex(Path table, String column, IndexType type, String name)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            dataset.createIndex(List.of(column), type, Optional.of(name),
                    IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create(type.name().toLowerCase(java.util.Locale.ROOT))).build(), true);
        }
    }

    private static Map<String, String> sdkIndexes(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.describeIndices().stream().collect(Collectors.toMap(IndexDescription::getName, description -> description.getIndexType().toUpperCase(java.util.Locale.ROOT).replace("_", "")));
        }
    }

    /** The SDK with its indexes answers each filter exactly as its flat scan does. */
    private static void assertSdkIndexedEqualsFlat(Path table, List<String> filters)
    {
        for (String filter : filters) {
            assertThat(sdkIds(table, filter, true)).as("SDK answer to %s with its indexes", filter).isEqualTo(sdkIds(table, filter, false));
        }
    }

    private static List<Long> sdkIds(Path table, String filter, boolean useIndex)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return SdkScans.idsMatching(dataset, filter, useIndex);
        }
        catch (Exception e) {
            throw new RuntimeException("SDK scan of %s with filter %s (index use %s) failed: %s".formatted(table, filter, useIndex, e.getMessage()), e);
        }
    }

    private long latestVersion(String table)
    {
        return (long) computeScalar("SELECT max(version) FROM \"%s$versions\"".formatted(table));
    }

    private static long metric(MaterializedResult result, String name)
    {
        return TestLanceBranching.metric(result, name);
    }
}
