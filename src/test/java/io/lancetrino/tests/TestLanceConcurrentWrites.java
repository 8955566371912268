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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

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

        // on the same fragment: the one that commits second either rebases on nothing it touched or fails cleanly
        for (int attempt = 0; attempt < 3; attempt++) {
            long before = (long) computeScalar("SELECT count(*) FROM deletes");
            int first = 4 + attempt;
            int second = 9 - attempt;
            List<Throwable> conflicts = ConcurrentStatements.failuresOf(getQueryRunner(), List.of("DELETE FROM deletes WHERE id = " + first, "DELETE FROM deletes WHERE id = " + second));
            long after = (long) computeScalar("SELECT count(*) FROM deletes");
            assertThat(after).as("attempt %s, conflicts %s, versions %s, fragments %s", attempt, conflicts, computeActual("SELECT version, operation, rows, deleted_rows FROM \"deletes$versions\"").getMaterializedRows(),
                    computeActual("SELECT * FROM \"deletes$fragments\"").getMaterializedRows()).isEqualTo(before - 2 + conflicts.size());
            // a delete that reported success is applied; one that failed changed nothing
            assertThat((long) computeScalar("SELECT count(*) FROM deletes WHERE id IN (%s, %s)".formatted(first, second))).isEqualTo(conflicts.size());
            for (Throwable conflict : conflicts) {
                assertThat(conflict).hasMessageMatching("(?s).*changed the same fragments as this delete; re-run the statement.*");
            }
        }
        // whatever happened, the table reads consistently and the SDK agrees
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(warehouse.resolve("c/deletes.lance").toString(), allocator)) {
            assertThat(dataset.countRows()).isEqualTo((long) computeScalar("SELECT count(*) FROM deletes"));
        }
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
