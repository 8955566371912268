package io.lancetrino.tests;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.lancetrino.tests.TestLanceErrors.copyDirectory;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code TABLE(lance.system.table_changes(...))}: inserts, deletes and updates (a delete and an insert) per version,
 * none for compactions and schema changes, along a branch's lineage, from and to tags, the errors; and a seeded random
 * history checked against a model of the rows each version holds ({@code -Dlance.changes.iterations=N} for N
 * histories, {@code -Dlance.changes.seed=S} to replay one).
 */
final class TestLanceTableChanges
        extends AbstractTestQueryFramework
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-table-changes");
        Files.createDirectories(warehouse.resolve("lab"));
        // versions the Lance SDK wrote: main v1 empty, v2 1,000 trips (tag baseline), v3 +500, v4 deletes fares under 5,
        // v5 +250; branch experiment from v3 with 100 more
        Path trips = DemoWarehouse.create(warehouse);
        // and a copy the Lance SDK restored to version 3 in a version 6
        Path restored = warehouse.resolve("demo").resolve("restored.lance");
        copyDirectory(trips, restored);
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(restored.toAbsolutePath().toString(), allocator);
                Dataset version3 = dataset.checkoutVersion(3)) {
            version3.restore();
        }
        return LanceQueryRunner.builder(warehouse).withSchema("lab").build();
    }

    private long head(String table)
    {
        return (long) computeScalar("SELECT max(version) FROM \"%s$versions\"".formatted(table));
    }

    private static String changes(String table, String arguments)
    {
        return "SELECT * FROM TABLE(lance.system.table_changes(schema_name => 'lab', table_name => '%s', %s))".formatted(table, arguments);
    }

    /** The rows as {@code id|v|type|version} strings, sorted. */
    private List<String> changeRows(String table, String columns, String arguments)
    {
        return computeActual("SELECT %s, _change_type, _change_version FROM TABLE(lance.system.table_changes(schema_name => 'lab', table_name => '%s', %s))"
                .formatted(columns, table, arguments))
                .getMaterializedRows().stream()
                .map(row -> row.getFields().stream().map(String::valueOf).collect(Collectors.joining("|")))
                .sorted()
                .toList();
    }

    @Test
    void testInsertDeleteUpdate()
    {
        assertUpdate("CREATE TABLE evts (id bigint, v varchar)");
        long created = head("evts");
        assertUpdate("INSERT INTO evts VALUES (1, 'a'), (2, 'a'), (3, 'a')", 3);
        long inserted = head("evts");
        assertUpdate("DELETE FROM evts WHERE id = 2", 1);
        long deleted = head("evts");
        assertUpdate("UPDATE evts SET v = 'b' WHERE id = 3", 1);
        long updated = head("evts");
        assertThat(List.of(created, inserted, deleted, updated)).doesNotHaveDuplicates().isSorted();

        assertThat(changeRows("evts", "id, v", "start_version => " + created)).containsExactly(
                "1|a|insert|" + inserted,
                "2|a|delete|" + deleted,
                "2|a|insert|" + inserted,
                "3|a|delete|" + updated,
                "3|a|insert|" + inserted,
                "3|b|insert|" + updated);
        // start exclusive, end inclusive
        assertThat(changeRows("evts", "id, v", "start_version => %s, end_version => %s".formatted(inserted, deleted))).containsExactly("2|a|delete|" + deleted);
        assertThat(changeRows("evts", "id, v", "start_version => %s, end_version => %s".formatted(deleted, deleted))).isEmpty();
        assertThat(changeRows("evts", "id, v", "start_ref => '%s', end_ref => 'main@%s'".formatted(deleted, updated))).containsExactly("3|a|delete|" + updated, "3|b|insert|" + updated);

        // the columns, and the commit time of the version
        assertThat(computeActual(changes("evts", "start_version => " + created)).getColumnNames())
                .containsExactly("id", "v", "_change_type", "_change_version", "_change_timestamp");
        assertQuery("SELECT DISTINCT c._change_version, c._change_timestamp = v.committed_at FROM TABLE(lance.system.table_changes('lab', 'evts', %s)) c JOIN \"evts$versions\" v ON v.version = c._change_version".formatted(created),
                "VALUES (%s, true), (%s, true), (%s, true)".formatted(inserted, deleted, updated));
        assertQuery("SELECT count(*) FROM TABLE(lance.system.table_changes('lab', 'evts', %s)) WHERE _change_type = 'delete'".formatted(created), "VALUES 2");

        // MERGE: updated rows are deleted and inserted, new rows inserted, deleted rows deleted
        assertUpdate("MERGE INTO evts t USING (VALUES (1, 'm'), (3, NULL), (4, 'new')) s(id, v) ON t.id = s.id "
                + "WHEN MATCHED AND s.v IS NULL THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)", 3);
        long merged = head("evts");
        assertThat(changeRows("evts", "id, v", "start_version => " + updated)).containsExactly(
                "1|a|delete|" + merged,
                "1|m|insert|" + merged,
                "3|b|delete|" + merged,
                "4|new|insert|" + merged);
    }

    /**
     * A restore brings back the rows deletions removed (their deletion vector goes) and removes the fragments added
     * since.
     */
    @Test
    void testRestoreTheLanceSdkWrote()
    {
        assertQuery("SELECT max(version), max_by(operation, version) FROM demo.\"restored$versions\"", "VALUES (6, 'restore')");
        assertThat(query("SELECT trip_id, fare FROM TABLE(lance.system.table_changes('demo', 'restored', 5, 6)) WHERE _change_type = 'insert'"))
                .matches("SELECT trip_id, fare FROM demo.trips FOR VERSION AS OF 3 WHERE fare < 5");
        assertThat(query("SELECT trip_id, fare FROM TABLE(lance.system.table_changes('demo', 'restored', 5, 6)) WHERE _change_type = 'delete'"))
                .matches("SELECT trip_id, fare FROM demo.trips FOR VERSION AS OF 5 EXCEPT SELECT trip_id, fare FROM demo.trips FOR VERSION AS OF 4");
        assertQuery("SELECT count(*) FROM TABLE(lance.system.table_changes('demo', 'restored', 5, 6)) WHERE _change_version <> 6", "VALUES 0");
    }

    @Test
    void testVersionsTheLanceSdkWrote()
    {
        long deletedByV4 = (long) computeScalar("SELECT count(*) FROM demo.trips FOR VERSION AS OF 3 WHERE fare < 5");
        assertThat(deletedByV4).isPositive();
        assertQuery("SELECT _change_type, _change_version, count(*) FROM TABLE(lance.system.table_changes('demo', 'trips', 2, 5)) GROUP BY 1, 2",
                "VALUES ('insert', 3, 500), ('delete', 4, %s), ('insert', 5, 250)".formatted(deletedByV4));
        assertThat(query("SELECT trip_id, fare FROM TABLE(lance.system.table_changes('demo', 'trips', 3, 4)) WHERE _change_type = 'delete'"))
                .matches("SELECT trip_id, fare FROM demo.trips FOR VERSION AS OF 3 WHERE fare < 5");
        assertThat(query("SELECT * FROM TABLE(lance.system.table_changes('demo', 'trips', 4, 5))"))
                .matches("SELECT t.*, CAST('insert' AS varchar), BIGINT '5', v.committed_at FROM demo.trips t, demo.\"trips$versions\" v WHERE v.version = 5 EXCEPT SELECT t.*, CAST('insert' AS varchar), BIGINT '5', v.committed_at FROM demo.trips FOR VERSION AS OF 4 t, demo.\"trips$versions\" v WHERE v.version = 5");
        assertQuery("SELECT _change_type, _change_version, count(*) FROM TABLE(lance.system.table_changes(schema_name => 'demo', table_name => 'trips', start_ref => 'baseline', end_ref => 'experiment')) GROUP BY 1, 2",
                "VALUES ('insert', 3, 500), ('insert', 4, 100)");
    }

    @Test
    void testStartBeforeTheFirstVersion()
    {
        assertUpdate("CREATE TABLE created AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) t(id, v)", 2);
        assertThat(head("created")).isEqualTo(1);
        // version 0 is the empty table before version 1
        assertThat(changeRows("created", "id, v", "start_version => 0")).containsExactly("1|x|insert|1", "2|y|insert|1");
        assertThat(changeRows("created", "id, v", "start_ref => '0', end_version => 1")).containsExactly("1|x|insert|1", "2|y|insert|1");
        assertThat(changeRows("created", "id, v", "start_version => 1")).isEmpty();
    }

    @Test
    void testOptimizeAndSchemaChangesChangeNoRows()
    {
        assertUpdate("CREATE TABLE compacted (id bigint, v varchar)");
        for (int i = 0; i < 4; i++) {
            assertUpdate("INSERT INTO compacted VALUES (%s, 'x'), (%s, 'y')".formatted(2 * i, 2 * i + 1), 2);
        }
        assertUpdate("DELETE FROM compacted WHERE id = 0", 1);
        long beforeOptimize = head("compacted");
        computeActual("ALTER TABLE compacted EXECUTE optimize");
        long optimized = head("compacted");
        assertThat(optimized).isGreaterThan(beforeOptimize);
        assertQuery("SELECT operation FROM \"compacted$versions\" WHERE version = " + optimized, "VALUES 'rewrite'");
        assertThat(changeRows("compacted", "id, v", "start_version => " + beforeOptimize)).isEmpty();

        assertUpdate("ALTER TABLE compacted ADD COLUMN score double");
        long added = head("compacted");
        assertThat(added).isGreaterThan(optimized);
        assertThat(changeRows("compacted", "id, v", "start_version => " + optimized)).isEmpty();
        assertUpdate("INSERT INTO compacted VALUES (100, 'z', 1.5)", 1);
        long insertedWithScore = head("compacted");
        // the end version's columns: rows of versions before the column read it as NULL
        assertThat(changeRows("compacted", "id, score", "start_version => " + (beforeOptimize - 1)))
                .containsExactly("0|null|delete|" + beforeOptimize, "100|1.5|insert|" + insertedWithScore);
        // ending before the column exists: no such column
        assertThat(computeActual(changes("compacted", "start_version => %s, end_version => %s".formatted(beforeOptimize - 1, optimized))).getColumnNames())
                .containsExactly("id", "v", "_change_type", "_change_version", "_change_timestamp");
    }

    @Test
    void testReplacedTableReadsReusedFieldIdsAsNull()
    {
        assertUpdate("CREATE TABLE replaced (id bigint, v varchar)");
        assertUpdate("INSERT INTO replaced VALUES (1, 'a')", 1);
        long inserted = head("replaced");
        // the new schema reuses field ids 0 and 1 for columns of other types
        assertUpdate("CREATE OR REPLACE TABLE replaced (name varchar, id bigint)");
        long replacedVersion = head("replaced");
        assertUpdate("INSERT INTO replaced VALUES ('x', 7)", 1);
        long insertedAgain = head("replaced");
        assertThat(changeRows("replaced", "name, id", "start_version => " + inserted))
                .containsExactly("null|null|delete|" + replacedVersion, "x|7|insert|" + insertedAgain);
    }

    @Test
    void testBranchLineageAndTags()
    {
        assertUpdate("CREATE TABLE lined (id bigint, v varchar)");
        assertUpdate("INSERT INTO lined VALUES (1, 'main')", 1);
        long first = head("lined");
        assertUpdate("CALL lance.system.create_tag('lab', 'lined', 'gold', '%s')".formatted(first));
        assertUpdate("INSERT INTO lined VALUES (2, 'main')", 1);
        long fork = head("lined");
        assertUpdate("CREATE BRANCH dev IN TABLE lined");
        assertUpdate("INSERT INTO lined @ dev VALUES (10, 'dev')", 1);
        assertUpdate("DELETE FROM lined @ dev WHERE id = 1", 1);
        assertUpdate("INSERT INTO lined @ main VALUES (3, 'main after fork')", 1);
        long mainHead = head("lined");
        long devHead = (long) computeScalar("SELECT max(version) FROM \"lined@dev$versions\"");

        // main's changes up to the fork, then dev's; not main's after the fork
        List<String> dev = changeRows("lined", "id, v", "start_ref => 'gold', end_ref => 'dev'");
        assertThat(dev).hasSize(3).contains("2|main|insert|" + fork, "10|dev|insert|" + (fork + 1), "1|main|delete|" + devHead);
        assertThat(changeRows("lined", "id, v", "start_version => %s, end_ref => 'dev'".formatted(first))).isEqualTo(dev);
        assertThat(changeRows("lined", "id, v", "start_version => %s, end_ref => 'dev'".formatted(fork))).hasSize(2);
        // a start on the branch: the end is the branch's head
        assertThat(changeRows("lined", "id, v", "start_ref => 'dev@%s'".formatted(fork + 1))).containsExactly("1|main|delete|" + devHead);
        assertThat(changeRows("lined", "id, v", "start_ref => 'tag:gold'")).containsExactly("2|main|insert|" + fork, "3|main after fork|insert|" + mainHead);

        // a start version number is the version of that number on the end's lineage
        assertThat(changeRows("lined", "id, v", "start_version => %s, end_ref => 'dev'".formatted(mainHead))).containsExactly("1|main|delete|" + devHead);
        // main after the fork is not on dev's lineage
        assertQueryFails(changes("lined", "start_ref => 'main@%s', end_ref => 'dev'".formatted(mainHead)),
                ".*table_changes of table lab.lined: start main version %s is not an ancestor of end branch 'dev' version %s.*".formatted(mainHead, devHead));
        assertQueryFails(changes("lined", "start_ref => 'main', end_ref => 'dev'"),
                ".*start main version %s is not an ancestor of end branch 'dev' version %s.*".formatted(mainHead, devHead));
    }

    @Test
    void testErrors()
    {
        assertUpdate("CREATE TABLE wrong (id bigint)");
        assertUpdate("INSERT INTO wrong VALUES 1", 1);
        long head = head("wrong");
        assertQueryFails(changes("missing", "start_version => 1"), ".*Table 'lab.missing' (does not exist|not found).*");
        assertQueryFails(changes("wrong", "start_version => 99"), ".*start version 99 is after end main version %s.*".formatted(head));
        assertQueryFails(changes("wrong", "start_version => -1"), ".*Table lab.wrong has no version -1 on main; versions are 1 to %s.*".formatted(head));
        assertQueryFails(changes("wrong", "start_version => 1, end_version => 99"), ".*Table lab.wrong has no version 99 on main.*");
        assertQueryFails(changes("wrong", "start_ref => 'nope'"), ".*Table lab.wrong has no tag or branch 'nope'.*");
        assertQueryFails(changes("wrong", "start_version => 1, end_ref => 'branch:nope'"), ".*Table lab.wrong has no branch 'nope'.*");
        assertQueryFails(changes("wrong", "start_version => %s, end_version => 1".formatted(head)), ".*start version %s is after end main version 1.*".formatted(head));
        assertQueryFails(changes("wrong", "end_version => 1"), ".*give exactly one of start_version and start_ref.*");
        assertQueryFails(changes("wrong", "start_version => 1, start_ref => 'main'"), ".*give exactly one of start_version and start_ref.*");
        assertQueryFails(changes("wrong", "start_version => 1, end_version => 1, end_ref => 'main'"), ".*give at most one of end_version and end_ref.*");
        assertUpdate("CREATE TABLE clash (id bigint, _change_type varchar)");
        assertQueryFails(changes("clash", "start_version => 0"), ".*table_changes of table lab.clash: its column _change_type has the name of a change column.*");
    }

    /**
     * Random INSERT, DELETE, UPDATE and optimize statements over a table with a unique id; a model keeps the rows of
     * every version, and {@code table_changes} between random pairs of versions must be the per-version differences.
     */
    @Test
    void testRandomHistoriesMatchModel()
    {
        int iterations = Integer.getInteger("lance.changes.iterations", 1);
        long baseSeed = Long.getLong("lance.changes.seed", System.nanoTime());
        for (int iteration = 0; iteration < iterations; iteration++) {
            long seed = baseSeed + iteration;
            try {
                randomHistory("model_" + iteration + "_" + Long.toUnsignedString(seed, 36), new Random(seed), iterations > 1 ? 30 : 8);
            }
            catch (AssertionError | RuntimeException e) {
                throw new AssertionError("table_changes differs from the model with seed %s (-Dlance.changes.seed=%s)".formatted(seed, seed), e);
            }
        }
    }

    private void randomHistory(String table, Random random, int statements)
    {
        assertUpdate("CREATE TABLE %s (id bigint, v bigint, tag varchar)".formatted(table));
        // version -> id -> "v|tag"
        TreeMap<Long, Map<Long, String>> model = new TreeMap<>();
        Map<Long, String> rows = new HashMap<>();
        // version 0: the empty table before version 1
        model.put(0L, Map.of());
        model.put(head(table), Map.copyOf(rows));
        long nextId = 0;
        long before = head(table);
        // after a first INSERT, every kind of statement once in random order, then random ones
        List<Integer> firstKinds = new ArrayList<>(List.of(0, 1, 2, 3));
        Collections.shuffle(firstKinds, random);
        for (int statement = 0; statement < statements; statement++) {
            int kind = statement == 0 ? 0 : statement <= firstKinds.size() ? firstKinds.get(statement - 1) : random.nextInt(4);
            if (rows.isEmpty()) {
                kind = 0;
            }
            switch (kind) {
                case 0 -> {
                    int count = 1 + random.nextInt(6);
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        long id = nextId++;
                        long v = random.nextInt(1000);
                        String tag = "t" + statement;
                        values.add("(%s, %s, '%s')".formatted(id, v, tag));
                        rows.put(id, v + "|" + tag);
                    }
                    assertUpdate("INSERT INTO %s VALUES %s".formatted(table, String.join(", ", values)), count);
                }
                case 1, 2 -> {
                    List<Long> chosen = choose(random, rows);
                    String ids = chosen.stream().map(String::valueOf).collect(Collectors.joining(", "));
                    if (kind == 1) {
                        assertUpdate("DELETE FROM %s WHERE id IN (%s)".formatted(table, ids), chosen.size());
                        chosen.forEach(rows::remove);
                    }
                    else {
                        String tag = "u" + statement;
                        assertUpdate("UPDATE %s SET v = v + 1, tag = '%s' WHERE id IN (%s)".formatted(table, tag, ids), chosen.size());
                        for (long id : chosen) {
                            long v = Long.parseLong(rows.get(id).split("\\|")[0]);
                            rows.put(id, (v + 1) + "|" + tag);
                        }
                    }
                }
                default -> computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));
            }
            long after = head(table);
            if (after == before) {
                // an optimize with nothing to do commits no version
                assertThat(kind).isEqualTo(3);
                continue;
            }
            assertThat(after).isEqualTo(before + 1);
            model.put(after, Map.copyOf(rows));
            before = after;
        }
        List<Long> versions = new ArrayList<>(model.keySet());
        for (int pair = 0; pair < Math.max(4, statements / 2); pair++) {
            // the whole history first, then random pairs
            long start = pair == 0 ? versions.getFirst() : versions.get(random.nextInt(versions.size()));
            // version 0 (the empty table) can only start a range: it is no version to end one at
            long end = pair == 0 ? versions.getLast() : versions.get(1 + random.nextInt(versions.size() - 1));
            if (start > end) {
                long swap = start;
                start = end;
                end = swap;
            }
            List<String> expected = new ArrayList<>();
            for (Map.Entry<Long, Map<Long, String>> version : model.subMap(start, false, end, true).entrySet()) {
                Map<Long, String> previous = model.lowerEntry(version.getKey()).getValue();
                Map<Long, String> current = version.getValue();
                previous.forEach((id, value) -> {
                    if (!value.equals(current.get(id))) {
                        expected.add("%s|%s|delete|%s".formatted(id, value, version.getKey()));
                    }
                });
                current.forEach((id, value) -> {
                    if (!value.equals(previous.get(id))) {
                        expected.add("%s|%s|insert|%s".formatted(id, value, version.getKey()));
                    }
                });
            }
            List<String> actual = changeRows(table, "id, v, tag", "start_version => %s, end_version => %s".formatted(start, end));
            assertThat(actual).as("changes of %s after version %s through %s", table, start, end).isEqualTo(expected.stream().sorted().toList());
        }
        // and the whole history against the rows the table holds
        List<MaterializedRow> live = computeActual("SELECT id FROM " + table).getMaterializedRows();
        assertThat(live).hasSize(rows.size());
    }

    private static List<Long> choose(Random random, Map<Long, String> rows)
    {
        List<Long> ids = new ArrayList<>(new TreeMap<>(rows).keySet());
        int count = 1 + random.nextInt(Math.min(4, ids.size()));
        List<Long> chosen = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            chosen.add(ids.remove(random.nextInt(ids.size())));
        }
        return chosen;
    }
}
