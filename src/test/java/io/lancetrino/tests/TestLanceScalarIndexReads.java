package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_INDEX;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scalar indexes answer pushed filters: the rows are always exactly those of a scan (use_scalar_index = false), for
 * indexes the Lance SDK made and those made here, over deletion files, unindexed fragments and later writes; the plan
 * shows which index answered and how many rows it let the scan skip; damaged index files fail naming the index.
 */
final class TestLanceScalarIndexReads
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "lab";
    private static final Schema TABLE_SCHEMA = new Schema(List.of(
            Field.nullable("id", new ArrowType.Int(64, true)),
            Field.nullable("k", new ArrowType.Int(32, true)),
            Field.nullable("cat", ArrowType.Utf8.INSTANCE),
            Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            Field.nullable("day", new ArrowType.Date(DateUnit.DAY))));

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-index-reads");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testSdkIndexesAnswerExactlyAsAScan()
    {
        for (String version : List.of("2.1", "2.2")) {
            String name = "sdk_" + version.replace('.', '_');
            Path table = sdkTable(name, version);
            long seed = Long.getLong("lance.index.seed", new Random().nextLong());
            Random random = new Random(seed);
            for (int i = 0; i < 12; i++) {
                assertSameAsScan(name, randomFilter(random), "seed " + seed + ", table " + name);
            }
            // a write after the index: its fragment is scanned, the rest still answered
            LanceFixtures.append(table, TABLE_SCHEMA, rows(30_000, 30_500, new Random(3)));
            getQueryRunner().execute("DELETE FROM %s WHERE id %% 97 = 0".formatted(name));
            for (int i = 0; i < 8; i++) {
                assertSameAsScan(name, randomFilter(random), "after writes, seed " + seed + ", table " + name);
            }
        }
    }

    @Test
    void testPlanShowsTheIndexAndTheRowsItSkipped()
    {
        sdkTable("explained", "2.2");
        String plan = (String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT * FROM explained WHERE id = 12345").getOnlyValue();
        assertThat(plan).contains("scalarIndex:id_idx").contains("scalarIndexRowsSkipped").contains("scalarIndexFragmentsSkipped");
        assertQuery("SELECT id, k FROM explained WHERE id = 12345", "VALUES (12345, %s)".formatted(12345 % 1000));
        // without the index nothing says so
        String scanned = (String) computeActual(withoutIndex(), "EXPLAIN ANALYZE VERBOSE SELECT * FROM explained WHERE id = 12345").getOnlyValue();
        assertThat(scanned).doesNotContain("scalarIndex:id_idx");
        // the index selected exactly the matching rows, so no predicate pass reads id before the other columns
        String lookup = "SELECT * FROM explained WHERE id = 12345";
        assertThat(ReaderMetrics.of((DistributedQueryRunner) getQueryRunner(), getSession(), lookup).javaPredicateColumns()).isZero();
        assertThat(ReaderMetrics.of((DistributedQueryRunner) getQueryRunner(), withoutIndex(), lookup).javaPredicateColumns()).isPositive();
        // a fragment that cannot match gets no split at all
        MaterializedResult none = computeActual("SELECT count(*) FROM explained WHERE cat = 'no such category'");
        assertThat(none.getOnlyValue()).isEqualTo(0L);
    }

    @Test
    void testIndexesMadeHereFollowWrites()
    {
        assertUpdate("CREATE TABLE made_here (id bigint, cat varchar, score double) WITH (max_rows_per_file = 3000)");
        assertUpdate("INSERT INTO made_here SELECT x, 'c' || CAST(x % 9 AS varchar), x / 7.0 FROM UNNEST(sequence(0, 9999)) t(x)", 10000);
        computeActual("ALTER TABLE made_here EXECUTE create_index(column => 'id', index_type => 'btree')");
        computeActual("ALTER TABLE made_here EXECUTE create_index(column => 'cat', index_type => 'bitmap')");
        List<String> filters = List.of("id = 4321", "id IN (1, 2, 9998, 20000)", "id BETWEEN 500 AND 900", "cat = 'c4'", "cat IN ('c1', 'c8') AND id < 3000", "cat IS NULL", "id > 9990 OR id < 3");
        filters.forEach(filter -> assertSameAsScan("made_here", filter, filter));
        assertUpdate("UPDATE made_here SET cat = 'c4', id = id + 100000 WHERE id BETWEEN 4000 AND 4400", 401);
        assertUpdate("DELETE FROM made_here WHERE id % 10 = 3", 1000);
        assertUpdate("INSERT INTO made_here VALUES (4321, 'c4', 0.0), (123456, NULL, 1.0)", 2);
        filters.forEach(filter -> assertSameAsScan("made_here", filter, "after writes: " + filter));
        computeActual("ALTER TABLE made_here EXECUTE optimize");
        filters.forEach(filter -> assertSameAsScan("made_here", filter, "after optimize: " + filter));
        computeActual("ALTER TABLE made_here EXECUTE optimize_indexes(name => 'id_idx')");
        filters.forEach(filter -> assertSameAsScan("made_here", filter, "after optimize_indexes: " + filter));
        assertThat((String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT * FROM made_here WHERE id = 4321").getOnlyValue()).contains("scalarIndex:id_idx");
    }

    @Test
    void testBranchesAndClonesUseTheIndexFilesTheyInherit()
    {
        sdkTable("origin", "2.2");
        assertUpdate("CREATE BRANCH dev IN TABLE origin");
        assertUpdate("INSERT INTO origin @ dev VALUES (50000, 1, 'c1', 1.0, DATE '2021-01-01')", 1);
        assertUpdate("CALL lance.system.shallow_clone('lab', 'origin', 'lab', 'origin_clone')");
        assertUpdate("DELETE FROM origin_clone WHERE id BETWEEN 100 AND 200", 93);
        for (String table : List.of("origin FOR VERSION AS OF 'dev'", "origin_clone")) {
            for (String filter : List.of("id = 150", "id = 12345", "id = 50000", "cat = 'c2' AND k < 100")) {
                assertSameAsScan(table, filter, table + ": " + filter);
            }
            assertThat((String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT * FROM %s WHERE id = 12345".formatted(table)).getOnlyValue())
                    .as(table).contains("scalarIndex:id_idx");
        }
    }

    @Test
    void testLabelListAnswersContainsAndOverlap()
    {
        assertUpdate("CREATE TABLE labelled (id bigint, tags array(varchar), codes array(bigint)) WITH (max_rows_per_file = 2000)");
        assertUpdate("""
                INSERT INTO labelled SELECT x, IF(x % 17 = 0, NULL, ARRAY['t' || CAST(x % 5 AS varchar), 'u' || CAST(x % 3 AS varchar)]), ARRAY[x % 7, x % 11]
                FROM UNNEST(sequence(0, 5999)) t(x)""", 6000);
        computeActual("ALTER TABLE labelled EXECUTE create_index(column => 'tags', index_type => 'label_list')");
        computeActual("ALTER TABLE labelled EXECUTE create_index(column => 'codes', index_type => 'label_list')");
        assertUpdate("INSERT INTO labelled VALUES (9000, ARRAY['t1', 'zz'], ARRAY[3]), (9001, ARRAY[NULL, 't2'], NULL)", 2);
        assertUpdate("DELETE FROM labelled WHERE id % 50 = 1", 121);
        for (String filter : List.of("contains(tags, 't1')", "contains(tags, 'u2') AND contains(tags, 't4')", "arrays_overlap(tags, ARRAY['t0', 'zz'])",
                "arrays_overlap(ARRAY['u1'], tags) AND id < 3000", "contains(codes, 3)", "arrays_overlap(codes, ARRAY[BIGINT '10', 20])", "contains(tags, 'none')")) {
            assertSameAsScan("labelled", filter, filter);
        }
        String plan = (String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT id FROM labelled WHERE contains(tags, 't1')").getOnlyValue();
        assertThat(plan).contains("scalarIndex:tags_idx");
    }

    @Test
    void testDamagedIndexFilesFailNamingTheIndex()
            throws IOException
    {
        Path table = sdkTable("damaged", "2.2");
        Path lookup = indexFile(table, "id_idx", "page_lookup.lance");
        byte[] bytes = Files.readAllBytes(lookup);
        Files.write(lookup, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        assertTrinoExceptionThrownBy(() -> computeActual("SELECT count(*) FROM damaged WHERE id = 6"))
                .hasErrorCode(LANCE_BAD_INDEX)
                .hasMessageContaining("cannot read index id_idx (btree)")
                .hasMessageContaining("use_scalar_index = false");
        // the escape hatch reads the data as it is
        assertThat(computeActual(withoutIndex(), "SELECT count(*) FROM damaged WHERE id = 6").getOnlyValue()).isEqualTo(1L);
        // a missing file, in a table whose index no query has read yet
        Path other = sdkTable("missing_file", "2.2");
        try (Stream<Path> files = Files.walk(other.resolve("_indices"))) {
            for (Path file : files.filter(file -> file.getFileName().toString().equals("page_lookup.lance")).toList()) {
                Files.delete(file);
            }
        }
        assertTrinoExceptionThrownBy(() -> computeActual("SELECT count(*) FROM missing_file WHERE id = 6"))
                .hasErrorCode(LANCE_BAD_INDEX)
                .hasMessageContaining("page_lookup.lance");
        // an index of another column is not touched
        assertSameAsScan("damaged", "cat = 'c3'", "another column's index");
    }

    @Test
    void testFormat20IndexFilesAreReadAround()
    {
        sdkTable("legacy", "2.0");
        for (String filter : List.of("id = 77", "cat = 'c2'", "k BETWEEN 10 AND 20")) {
            assertSameAsScan("legacy", filter, filter);
        }
        assertThat((String) computeActual("EXPLAIN ANALYZE VERBOSE SELECT * FROM legacy WHERE id = 77").getOnlyValue()).doesNotContain("scalarIndex:id_idx");
    }

    private void assertSameAsScan(String table, String filter, String context)
    {
        String sql = "SELECT * FROM %s WHERE %s".formatted(table, filter);
        MaterializedResult indexed = computeActual(sql);
        MaterializedResult scanned = computeActual(withoutIndex(), sql);
        assertThat(indexed.getMaterializedRows()).as(context).containsExactlyInAnyOrderElementsOf(scanned.getMaterializedRows());
    }

    private Session withoutIndex()
    {
        return Session.builder(getSession()).setCatalogSessionProperty(LanceQueryRunner.CATALOG, "use_scalar_index", "false").build();
    }

    private static String randomFilter(Random random)
    {
        int id = random.nextInt(26_000);
        return switch (random.nextInt(10)) {
            case 0 -> "id = " + id;
            case 1 -> "id IN (%s, %s, %s)".formatted(id, random.nextInt(26_000), id + 3);
            case 2 -> "id BETWEEN %s AND %s".formatted(id, id + random.nextInt(500));
            case 3 -> "k = %s AND id > %s".formatted(random.nextInt(1000), id);
            case 4 -> "cat = 'c%s'".formatted(random.nextInt(8));
            case 5 -> "cat IN ('c%s', 'c%s') AND k < %s".formatted(random.nextInt(7), random.nextInt(7), random.nextInt(1000));
            case 6 -> "cat IS NULL";
            case 7 -> "score > %s".formatted(random.nextInt(6000));
            case 8 -> "day = DATE '%s'".formatted(LocalDate.of(2020, 1, 1).plusDays(random.nextInt(400)));
            default -> "id < %s OR cat = 'c1'".formatted(id);
        };
    }

    /**
     * 24,000 rows in 3 fragments with SDK indexes of every scalar kind this connector reads (btree on id, k, day;
     * bitmap on cat; zonemap on score), then rows deleted ({@code id % 13 = 5}).
     */
    private Path sdkTable(String name, String storageVersion)
    {
        Path table = LanceFixtures.table(warehouse.resolve(SCHEMA), name, TABLE_SCHEMA, rows(0, 24_000, new Random(1)), storageVersion, 8000);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            index(dataset, "id", IndexType.BTREE, "id_idx");
            index(dataset, "k", IndexType.BTREE, "k_idx");
            index(dataset, "day", IndexType.BTREE, "day_idx");
            index(dataset, "cat", IndexType.BITMAP, "cat_idx");
            index(dataset, "score", IndexType.ZONEMAP, "score_idx");
            dataset.delete("id % 13 = 5");
        }
        catch (RuntimeException e) {
            throw new IllegalStateException("Cannot build the indexes of " + table, e);
        }
        return table;
    }

    private static Path indexFile(Path table, String indexName, String fileName)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.getIndexes().stream()
                    .filter(index -> index.name().equals(indexName))
                    .map(index -> table.resolve("_indices").resolve(index.uuid().toString()).resolve(fileName))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static void index(Dataset dataset, String column, IndexType type, String name)
    {
        dataset.createIndex(List.of(column), type, Optional.of(name),
                IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create(type.name().toLowerCase(Locale.ROOT))).build(), true);
    }

    /** Rows {@code [from, to)}, ids not in storage order within a fragment, so a point lookup cannot be found by position. */
    private static List<List<Object>> rows(int from, int to, Random random)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (int id = from; id < to; id++) {
            rows.add(java.util.Arrays.asList(
                    (long) id,
                    id % 1000,
                    id % 11 == 0 ? null : "c" + (id % 7),
                    id * 0.25 + random.nextInt(4),
                    LocalDate.of(2020, 1, 1).plusDays(id % 400)));
        }
        java.util.Collections.shuffle(rows, random);
        return rows;
    }
}
