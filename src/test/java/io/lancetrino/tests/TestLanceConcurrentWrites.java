package io.lancetrino.tests;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.tests.fixtures.ConcurrentStatements;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentOperation;
import org.lance.WriteParams;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Concurrent writers through SQL, and tables whose Lance features or settings this connector must respect.
 */
final class TestLanceConcurrentWrites
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-concurrency");
        QueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema("c").build();
        runner.execute("CREATE SCHEMA c");
        return runner;
    }

    @Test
    void testConcurrentInsertsAllLand()
            throws Exception
    {
        assertUpdate("CREATE TABLE appends (writer integer, n bigint)");
        ConcurrentStatements.runTogether(getQueryRunner(), IntStream.range(0, 8)
                .mapToObj(writer -> "INSERT INTO appends SELECT %s, n FROM UNNEST(sequence(1, %s)) AS t(n)".formatted(writer, 100 + writer))
                .toList());
        // every insert landed exactly once
        assertQuery("SELECT writer, count(*) FROM appends GROUP BY writer", "VALUES (0, 100), (1, 101), (2, 102), (3, 103), (4, 104), (5, 105), (6, 106), (7, 107)");
        assertQuery("SELECT count(*) FROM \"appends$versions\"", "VALUES 9");
    }

    @Test
    void testConcurrentDeletes()
            throws Exception
    {
        // two fragments: rows 1..10 and 11..20
        assertUpdate("CREATE TABLE deletes (id bigint) WITH (max_rows_per_file = 10)");
        assertUpdate("INSERT INTO deletes SELECT n FROM UNNEST(sequence(1, 20)) AS t(n)", 20);
        assertQuery("SELECT count(*) FROM \"deletes$fragments\"", "VALUES 2");

        // on different fragments both land, in any order
        List<Throwable> failures = ConcurrentStatements.failuresOf(getQueryRunner(), List.of("DELETE FROM deletes WHERE id = 3", "DELETE FROM deletes WHERE id = 15"));
        assertThat(failures).isEmpty();
        assertQuery("SELECT count(*) FROM deletes", "VALUES 18");

        // on the same fragment: the one that commits second unites its deletions with the first's, as Lance does
        for (int attempt = 0; attempt < 3; attempt++) {
            long before = (long) computeScalar("SELECT count(*) FROM deletes");
            int first = 4 + attempt;
            int second = 9 - attempt;
            ConcurrentStatements.runTogether(getQueryRunner(), List.of("DELETE FROM deletes WHERE id = " + first, "DELETE FROM deletes WHERE id = " + second));
            assertQuery("SELECT count(*) FROM deletes", "VALUES " + (before - 2));
            assertQuery("SELECT count(*) FROM deletes WHERE id IN (%s, %s)".formatted(first, second), "VALUES 0");
        }
        // on the same row: one of them deleted it, the other fails and changes nothing
        long before = (long) computeScalar("SELECT count(*) FROM deletes");
        List<Throwable> conflicts = ConcurrentStatements.failuresOf(getQueryRunner(), List.of("DELETE FROM deletes WHERE id IN (1, 2)", "DELETE FROM deletes WHERE id IN (2, 10)"));
        assertQuery("SELECT count(*) FROM deletes WHERE id IN (1, 2, 10)", "VALUES " + conflicts.size());
        assertQuery("SELECT count(*) FROM deletes", "VALUES " + (before - 3 + conflicts.size()));
        for (Throwable conflict : conflicts) {
            assertThat(conflict).hasMessageMatching("(?s).*main version \\d+ \\(delete\\) changed the same rows as this delete; re-run the statement.*");
        }
        // whatever happened, the table reads consistently and the SDK agrees
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(warehouse.resolve("c/deletes.lance").toString(), allocator)) {
            assertThat(dataset.countRows()).isEqualTo((long) computeScalar("SELECT count(*) FROM deletes"));
        }
    }

    @Test
    void testUserWritesNeverLoseToCompaction()
            throws Exception
    {
        assertUpdate("CREATE TABLE compacted (id bigint, v bigint) WITH (max_rows_per_file = 20)");
        int rounds = 6;
        for (int round = 0; round < rounds; round++) {
            long first = round * 60L;
            // three new small fragments, which the compaction rewrites together with the compacted rest
            assertUpdate("INSERT INTO compacted SELECT n, n FROM UNNEST(sequence(%s, %s)) AS t(n)".formatted(first, first + 59), 60);
            List<String> statements = new ArrayList<>(List.of(
                    "DELETE FROM compacted WHERE id = %s".formatted(first + 5),
                    "UPDATE compacted SET v = v + 1000000 WHERE id = %s".formatted(first + 25),
                    "MERGE INTO compacted t USING (VALUES %s) s(id) ON t.id = s.id WHEN MATCHED THEN DELETE".formatted(first + 45),
                    "ALTER TABLE compacted EXECUTE optimize"));
            if (round > 0) {
                statements.add("DELETE FROM compacted WHERE id = %s".formatted(first - 50));
            }
            for (Throwable failure : ConcurrentStatements.failuresOf(getQueryRunner(), statements)) {
                // only the compaction may give way, and only when user writes changed every group it rewrote
                assertThat(failure).hasMessageMatching("(?s).*changed the same fragments as this rewrite; re-run the statement.*");
            }
        }
        long deleted = 3L * rounds - 1;
        assertQuery("SELECT count(*), sum(v) - sum(id) FROM compacted", "VALUES (%s, %s)".formatted(60L * rounds - deleted, 1_000_000L * rounds));
        assertQuery("SELECT count(*) FROM compacted WHERE id %% 60 IN (5, 45) OR (id %% 60 = 10 AND id < %s)".formatted(60L * (rounds - 1)), "VALUES 0");
        // some user writes committed over a compaction made after they read the table, so they were rebased
        long rebased = (long) computeScalar("""
                SELECT count(*) FROM "compacted$transactions" w
                WHERE w.statement IN ('DELETE', 'UPDATE', 'MERGE')
                  AND EXISTS (SELECT 1 FROM "compacted$transactions" c WHERE c.statement = 'OPTIMIZE' AND c.version > w.read_version AND c.version < w.version)""");
        assertThat(rebased).isPositive();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(warehouse.resolve("c/compacted.lance").toString(), allocator)) {
            assertThat(dataset.countRows()).isEqualTo(60L * rounds - deleted);
            assertThat(dataset.countRows("v > 1000000")).isEqualTo(rounds);
        }
    }

    /**
     * A table with a primary key (declared by another Lance engine): concurrent MERGEs inserting the same new key never
     * both commit. Each statement either commits or fails with LANCE_DUPLICATE_KEY naming the key, and re-running it
     * finds the key.
     */
    @Test
    void testConcurrentUpsertsNeverDuplicateAKey()
            throws Exception
    {
        keyedTable("upserts");
        int refused = 0;
        for (int round = 0; round < 6; round++) {
            int base = 1000 + round * 10;
            // the two statements' new keys overlap in one key, base + 5
            List<Throwable> failures = ConcurrentStatements.failuresOf(getQueryRunner(), List.of(upsert("upserts", base, base + 6), upsert("upserts", base + 5, base + 10)));
            for (Throwable failure : failures) {
                assertThat(failure).hasMessageContaining("inserted keys such as id=%s, which this statement inserts too".formatted(base + 5));
                refused++;
            }
            assertThat(failures).hasSizeLessThan(2);
            assertNoDuplicateKeys("upserts");
        }
        // after a refusal, re-running finds the key: every key once
        getQueryRunner().execute(upsert("upserts", 1000, 1060));
        assertThat(computeActual("SELECT count(*), count(DISTINCT id) FROM upserts").getMaterializedRows().getFirst().getFields()).containsExactly(61L, 61L);
        assertThat(refused).as("rounds whose statements overlapped in time").isPositive();
    }

    /**
     * Against the Lance SDK's own merge_insert: this connector's filter is lance-core's, bit for bit, so each side sees
     * the other's inserted keys, whichever commits first.
     */
    @Test
    void testUpsertsAndTheSdksMergeInsertNeverDuplicateAKey()
            throws Exception
    {
        Path table = keyedTable("shared_upserts");
        Schema schema = keyedSchema();
        int sdkRefused = 0;
        int trinoRefused = 0;
        java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 8; round++) {
                int base = 5000 + round * 10;
                List<List<Object>> rows = IntStream.range(base, base + 4).mapToObj(id -> List.<Object>of((long) id, "sdk")).toList();
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.Future<?> sdk = executor.submit(() -> {
                    start.await();
                    return io.lancetrino.tests.fixtures.LanceFixtures.mergeInsert(table, schema, rows, List.of("id"));
                });
                java.util.concurrent.Future<?> trino = executor.submit(() -> {
                    start.await();
                    getQueryRunner().execute(upsert("shared_upserts", base + 3, base + 6));
                    return null;
                });
                try {
                    sdk.get();
                }
                catch (java.util.concurrent.ExecutionException e) {
                    // lance-core gives up at once (no retries asked for) on a conflict it may not rebase
                    assertThat(e.getCause()).hasMessageContaining("Too many concurrent writers");
                    sdkRefused++;
                }
                try {
                    trino.get();
                }
                catch (java.util.concurrent.ExecutionException e) {
                    // the SDK committed first
                    assertThat(e.getCause()).hasMessageContaining("inserted keys such as id=%s, which this statement inserts too".formatted(base + 3));
                    trinoRefused++;
                }
                assertNoDuplicateKeys("shared_upserts");
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(sdkRefused + trinoRefused).as("rounds whose writers overlapped in time").isPositive();
    }

    @Test
    void testPrimaryKeyDeclaredHereIsKeptByInserts()
    {
        assertUpdate("CREATE TABLE keyed (id bigint NOT NULL, k varchar NOT NULL, v double) WITH (primary_key = ARRAY['k', 'id'])");
        assertThat((String) computeScalar("SHOW CREATE TABLE keyed")).contains("primary_key = ARRAY['k','id']");
        Path table = warehouse.resolve("c").resolve("keyed.lance");
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(table.toString(), allocator)) {
            assertThat(dataset.getLanceSchema().getUnenforcedPrimaryKey()).extracting(org.lance.schema.LanceField::getName).containsExactly("k", "id");
        }
        assertUpdate("INSERT INTO keyed VALUES (1, 'a', 1.0)", 1);
        long before = (long) computeScalar("SELECT max(version) FROM \"keyed$versions\"");
        assertUpdate("INSERT INTO keyed VALUES (2, 'b', 2.0)", 1);

        // an upsert by the SDK that read the version before that INSERT: the same key is refused, another goes in
        Schema schema = new Schema(List.of(
                new Field("id", new FieldType(false, new ArrowType.Int(64, true), null), null),
                new Field("k", new FieldType(false, ArrowType.Utf8.INSTANCE, null), null),
                Field.nullable("v", new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE))));
        assertThatThrownBy(() -> io.lancetrino.tests.fixtures.LanceFixtures.mergeInsert(table, schema, List.of(List.of(2L, "b", 5.0)), List.of("k", "id"), java.util.OptionalLong.of(before)))
                .hasMessageContaining("Too many concurrent writers");
        io.lancetrino.tests.fixtures.LanceFixtures.mergeInsert(table, schema, List.of(List.of(3L, "c", 3.0)), List.of("k", "id"), java.util.OptionalLong.of(before));
        assertQuery("SELECT id, k, v FROM keyed", "VALUES (1, 'a', 1.0), (2, 'b', 2.0), (3, 'c', 3.0)");

        assertTrinoExceptionThrownBy(() -> computeActual("CREATE TABLE bad_key (id bigint, v double) WITH (primary_key = ARRAY['id'])"))
                .hasErrorCode(INVALID_TABLE_PROPERTY)
                .hasMessage("Table c.bad_key: primary_key: column id must be NOT NULL");
        assertTrinoExceptionThrownBy(() -> computeActual("CREATE TABLE bad_key (id bigint NOT NULL, v double NOT NULL) WITH (primary_key = ARRAY['v'])"))
                .hasErrorCode(INVALID_TABLE_PROPERTY)
                .hasMessage("Table c.bad_key: primary_key: column v is of Lance type double; a key column is bigint, integer, smallint, tinyint, varchar or varbinary");
        assertTrinoExceptionThrownBy(() -> computeActual("CREATE TABLE bad_key (id bigint NOT NULL) WITH (primary_key = ARRAY['id', 'nope'])"))
                .hasErrorCode(INVALID_TABLE_PROPERTY)
                .hasMessage("Table c.bad_key: primary_key: column nope is not a column of the table");
        assertQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'bad_key'", "VALUES 0");
    }

    private Path keyedTable(String name)
    {
        return io.lancetrino.tests.fixtures.LanceFixtures.table(warehouse.resolve("c"), name, keyedSchema(), List.of(List.of(1L, "seed")), "2.1", 100);
    }

    /** {@code id bigint NOT NULL} as the unenforced primary key, as LanceDB and lance-spark declare it, and {@code v varchar}. */
    private static Schema keyedSchema()
    {
        Field id = new Field("id", new FieldType(false, new ArrowType.Int(64, true), null, Map.of("lance-schema:unenforced-primary-key", "true")), null);
        return new Schema(List.of(id, Field.nullable("v", ArrowType.Utf8.INSTANCE)));
    }

    private static String upsert(String table, int from, int to)
    {
        return """
                MERGE INTO %s t USING (SELECT x AS id, 'trino' AS v FROM UNNEST(sequence(%s, %s)) AS u(x)) s ON t.id = s.id
                WHEN MATCHED THEN UPDATE SET v = s.v
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)""".formatted(table, from, to - 1);
    }

    private void assertNoDuplicateKeys(String table)
    {
        assertThat(computeActual("SELECT id FROM %s GROUP BY id HAVING count(*) > 1".formatted(table)).getMaterializedRows()).isEmpty();
    }

    @Test
    void testWriterFeatureFlagsAreRespected()
            throws Exception
    {
        String uri = warehouse.resolve("c/stable_ids.lance").toString();
        Schema schema = new Schema(List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
        WriteParams params = new WriteParams.Builder().withEnableStableRowIds(true).build();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            Dataset.create(allocator, uri, schema, params).close();
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                BigIntVector ids = (BigIntVector) root.getVector(0);
                ids.allocateNew(3);
                for (int i = 0; i < 3; i++) {
                    ids.set(i, i);
                }
                root.setRowCount(3);
                new FragmentOperation.Append(Fragment.create(uri, allocator, root, params)).commit(allocator, uri, Optional.of(1L), Map.of()).close();
            }
        }
        // reads are allowed, writes are refused with the flag named, and nothing changes
        assertQuery("SELECT count(*) FROM stable_ids", "VALUES 3");
        assertQueryFails("INSERT INTO stable_ids VALUES 7", ".*Table c.stable_ids main version 2 uses writer features this connector cannot maintain: STABLE_ROW_IDS \\(2\\); reads are still allowed");
        assertQueryFails("DELETE FROM stable_ids WHERE id = 1", ".*STABLE_ROW_IDS.*");
        assertQuery("SELECT count(*) FROM \"stable_ids$versions\"", "VALUES 2");
    }

    @Test
    void testExistingConfigIsKeptAndNewTablesHaveNone()
            throws Exception
    {
        assertUpdate("CREATE TABLE configured AS SELECT 1 AS id", 1);
        String uri = warehouse.resolve("c/configured.lance").toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(uri, allocator)) {
            // no lance.auto_cleanup.* keys: another writer must never clean up versions branches and clones need
            assertThat(dataset.getConfig()).isEmpty();
            dataset.updateConfig(Map.of("lance.auto_cleanup.interval", "20", "custom.key", "kept"));
        }
        assertUpdate("INSERT INTO configured VALUES 2", 1);
        assertUpdate("DELETE FROM configured WHERE id = 1", 1);
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.getConfig()).containsEntry("lance.auto_cleanup.interval", "20").containsEntry("custom.key", "kept");
            assertThat(dataset.countRows()).isEqualTo(1);
        }
    }
}
