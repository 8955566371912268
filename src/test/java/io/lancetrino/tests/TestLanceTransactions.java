package io.lancetrino.tests;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.spi.type.ArrayType;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code "t$transactions"}: one row per version with the transaction's operation, the query, user and statement kind our
 * commits record, and the actions derived from the manifests; for tables the connector wrote and tables the Lance SDK
 * wrote.
 */
final class TestLanceTransactions
        extends AbstractTestQueryFramework
{
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern ADDED_FRAGMENT = Pattern.compile("added fragment \\d+ \\((\\d+) rows?\\)");
    private static final Pattern REMOVED_FRAGMENT = Pattern.compile("removed fragment \\d+ \\((\\d+) rows?\\)");

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-transactions");
        return LanceQueryRunner.builder(warehouse).withSchema("w").build();
    }

    /**
     * What one version's row says.
     */
    private record Entry(long version, String operation, Long readVersion, String transactionId, String queryId, String user, String statement, List<String> actions) {}

    @Test
    void testColumns()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE columns_only (id bigint)");
        MaterializedResult result = computeActual("SELECT * FROM \"columns_only$transactions\"");
        assertThat(result.getColumnNames()).containsExactly("version", "committed_at", "operation", "read_version", "transaction_id", "query_id", "user", "statement", "actions", "merged_from", "merge_base");
        assertThat(result.getTypes()).containsExactly(BIGINT, TIMESTAMP_TZ_MILLIS, VARCHAR, BIGINT, VARCHAR, VARCHAR, VARCHAR, VARCHAR, new ArrayType(VARCHAR), VARCHAR, VARCHAR);
        // committed_at is the version's commit time, as in $versions
        assertQuery("SELECT t.committed_at = v.committed_at FROM \"columns_only$transactions\" t JOIN \"columns_only$versions\" v USING (version)", "VALUES true");
    }

    @Test
    void testEveryStatementKind()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        List<String> queryIds = new ArrayList<>();
        queryIds.add(run("CREATE TABLE t (id bigint NOT NULL, name varchar)"));
        queryIds.add(run("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f')"));
        queryIds.add(run("DELETE FROM t WHERE id = 1"));
        queryIds.add(run("UPDATE t SET name = 'B' WHERE id = 2"));
        queryIds.add(run("MERGE INTO t USING (VALUES (3, 'C'), (10, 'j')) s(id, name) ON t.id = s.id " +
                "WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name)"));
        // the MERGE shapes that look most like UPDATE and DELETE to a connector
        queryIds.add(run("MERGE INTO t USING (VALUES 4) s(id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = 'D'"));
        queryIds.add(run("MERGE INTO t USING (VALUES 5) s(id) ON t.id = s.id WHEN MATCHED THEN DELETE"));
        queryIds.add(run("MERGE INTO t USING (VALUES 11) s(id) ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'k')"));
        queryIds.add(run("MERGE INTO t USING (VALUES 6) s(id) ON t.id = s.id WHEN MATCHED AND s.id > 100 THEN DELETE WHEN MATCHED THEN UPDATE SET name = 'F'"));
        queryIds.add(run("ALTER TABLE t ADD COLUMN score double"));
        queryIds.add(run("ALTER TABLE t RENAME COLUMN name TO label"));
        queryIds.add(run("ALTER TABLE t DROP COLUMN score"));
        queryIds.add(run("COMMENT ON COLUMN t.label IS 'the label'"));
        queryIds.add(run("COMMENT ON TABLE t IS 'people'"));
        queryIds.add(run("TRUNCATE TABLE t"));

        Map<Long, Entry> entries = entries("t");
        assertThat(entries.keySet()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L);
        for (Entry entry : entries.values()) {
            assertThat(entry.queryId()).isEqualTo(queryIds.get((int) entry.version() - 1));
            assertThat(entry.user()).isEqualTo(getSession().getUser()).isEqualTo("user");
            assertThat(entry.transactionId()).matches(UUID);
            assertThat(entry.readVersion()).isEqualTo(entry.version() - 1);
        }
        assertThat(entries.values().stream().map(Entry::statement).toList()).containsExactly(
                "CREATE TABLE",
                "INSERT",
                "DELETE",
                "UPDATE",
                "MERGE",
                "MERGE",
                "MERGE",
                "MERGE",
                "MERGE",
                "ADD COLUMN",
                "RENAME COLUMN",
                "DROP COLUMN",
                "COMMENT ON COLUMN",
                "COMMENT ON TABLE",
                "TRUNCATE");
        assertThat(entries.values().stream().map(Entry::operation).toList()).containsExactly(
                "overwrite", "append", "delete", "update", "update", "update", "delete", "update", "update",
                "project", "project", "project", "project", "update_config", "delete");

        assertThat(entries.get(1L).actions()).containsExactly(
                "added column id (id 0)",
                "added column name (id 1)",
                "table metadata lance-trino.compression set to auto",
                "table metadata lance-trino.max-rows-per-file set to 1048576");
        assertThat(entries.get(2L).actions()).containsExactly("added fragment 0 (6 rows)");
        assertThat(entries.get(3L).actions()).containsExactly("deleted 1 row in fragment 0 (now 1 of 6 deleted)");
        // an update deletes the old row and appends the new one
        assertRowChange(entries.get(4L), "deleted 1 row in fragment 0 (now 2 of 6 deleted)", 1);
        assertRowChange(entries.get(5L), "deleted 1 row in fragment 0 (now 3 of 6 deleted)", 2);
        assertRowChange(entries.get(6L), "deleted 1 row in fragment 0 (now 4 of 6 deleted)", 1);
        assertThat(entries.get(7L).actions()).containsExactly("deleted 1 row in fragment 0 (now 5 of 6 deleted)");
        assertRowChange(entries.get(8L), null, 1);
        // the last row of fragment 0 goes: the fragment goes with it
        assertRowChange(entries.get(9L), "removed fragment 0 (1 row)", 1);
        assertThat(entries.get(10L).actions()).containsExactly("added column score (id 2)");
        assertThat(entries.get(11L).actions()).containsExactly("renamed column name to label (id 1)");
        assertThat(entries.get(12L).actions()).containsExactly("dropped column score (id 2)");
        assertThat(entries.get(13L).actions()).containsExactly("comment of column label set to 'the label' (id 1)");
        assertThat(entries.get(14L).actions()).containsExactly("table metadata comment set to people");
        long removedRows = 0;
        for (String action : entries.get(15L).actions()) {
            Matcher matcher = REMOVED_FRAGMENT.matcher(action);
            assertThat(matcher.matches()).as(action).isTrue();
            removedRows += Long.parseLong(matcher.group(1));
        }
        assertThat(removedRows).isEqualTo(computeScalar("SELECT count(*) FROM t FOR VERSION AS OF 14"));
        assertQuery("SELECT count(*) FROM t", "VALUES 0");
    }

    @Test
    void testCreateTableAsAndInsertSelect()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        String create = run("CREATE TABLE nations AS SELECT nationkey, name FROM tpch.tiny.nation");
        String insert = run("INSERT INTO nations SELECT nationkey + 100, name FROM tpch.tiny.nation");
        Map<Long, Entry> entries = entries("nations");
        assertThat(entries.get(1L).statement()).isEqualTo("CREATE TABLE AS");
        assertThat(entries.get(1L).queryId()).isEqualTo(create);
        assertThat(entries.get(1L).actions()).startsWith("added column nationkey (id 0)", "added column name (id 1)");
        assertThat(addedRows(entries.get(1L).actions())).isEqualTo(25);
        assertThat(entries.get(2L).statement()).isEqualTo("INSERT");
        assertThat(entries.get(2L).queryId()).isEqualTo(insert);
        assertThat(addedRows(entries.get(2L).actions())).isEqualTo(25);
        assertThat(entries.get(2L).actions()).allMatch(action -> ADDED_FRAGMENT.matcher(action).matches());

        run("CREATE OR REPLACE TABLE nations AS SELECT 42 AS answer");
        Entry replaced = entries("nations").get(3L);
        assertThat(replaced.statement()).isEqualTo("CREATE OR REPLACE TABLE AS");
        assertThat(replaced.operation()).isEqualTo("overwrite");
        // a replaced schema is dropped and added, never renamed, even where field ids repeat
        assertThat(replaced.actions()).contains("added column answer (id 0)", "dropped column nationkey (id 0)", "dropped column name (id 1)", "added fragment 0 (1 row)");
        assertThat(replaced.actions()).anyMatch(action -> action.startsWith("removed fragment"));
    }

    @Test
    void testSdkWrittenTable()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        // version 1 creates ids 0..9, 2 appends 10..19, 3 deletes id < 5, 4 appends 20..24
        Path table = LanceFixtures.versionsAndTags(warehouse.resolve("w"), "sdk");
        Map<Long, Entry> entries = entries("sdk");
        assertThat(entries.keySet()).containsExactly(1L, 2L, 3L, 4L);
        for (Entry entry : entries.values()) {
            assertThat(entry.statement()).isNull();
            assertThat(entry.queryId()).isNull();
            assertThat(entry.user()).isNull();
            assertThat(entry.transactionId()).matches(UUID);
        }
        assertThat(entries.values().stream().map(Entry::operation).toList()).containsExactly("overwrite", "append", "delete", "append");
        assertThat(entries.get(1L).readVersion()).isEqualTo(0);
        assertThat(entries.get(1L).actions()).containsExactly("added column id (id 0)", "added column name (id 1)", "added fragment 0 (10 rows)");
        assertThat(entries.get(2L).actions()).containsExactly("added fragment 1 (10 rows)");
        assertThat(entries.get(3L).actions()).containsExactly("deleted 5 rows in fragment 0 (now 5 of 10 deleted)");
        assertThat(entries.get(4L).actions()).containsExactly("added fragment 2 (5 rows)");

        // a version without any transaction, as an engine that skips them may write: still listed with its actions
        LanceTable lance = new LanceTable(new LocalTableFileSystem(), table.toString(), "sdk", ManifestCache.disabled());
        Manifest latest = lance.snapshot(Optional.empty(), 4).manifest().toBuilder()
                .setVersion(5)
                .clearTransactionFile()
                .putConfig("lance.auto_cleanup.interval", "20")
                .build();
        Files.write(table.resolve("_versions").resolve(ManifestNaming.V2.fileName(5)), ManifestFile.serialize(latest, Optional.empty(), Optional.empty()));
        assertThat(entries("sdk").get(5L)).isEqualTo(new Entry(5, null, null, null, null, null, null, List.of("config lance.auto_cleanup.interval set to 20")));

        // the SDK continues on our commits, and ours show beside its own
        String delete = run("DELETE FROM sdk WHERE id = 20");
        Entry ours = entries("sdk").get(6L);
        assertThat(ours.queryId()).isEqualTo(delete);
        assertThat(ours.statement()).isEqualTo("DELETE");
        assertThat(ours.actions()).containsExactly("deleted 1 row in fragment 2 (now 1 of 5 deleted)");
    }

    @Test
    void testBranchHistory()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        // main 1..3; dev from main 2: dev 2 (clone), 3 appends 100..104, 4 appends 105..109
        Path table = LanceFixtures.branches(warehouse.resolve("w"), "branched");
        Map<Long, Entry> dev = entries("branched@dev");
        assertThat(dev.keySet()).containsExactly(2L, 3L, 4L);
        assertThat(dev.get(2L).operation()).isEqualTo("clone");
        // the first version of a branch is compared with the version it was created from
        assertThat(dev.get(2L).actions()).containsExactly("added base path 0 (%s)".formatted(table));
        assertThat(dev.get(3L).actions()).containsExactly("added fragment 2 (5 rows)");
        assertThat(dev.get(4L).actions()).containsExactly("added fragment 3 (5 rows)");
        // a tag shows the history of its branch up to the tagged version
        assertThat(entries("branched@devtag").keySet()).containsExactly(2L, 3L);
        assertThat(entries("branched").keySet()).containsExactly(1L, 2L, 3L);

        // a shallow clone starts at its source's version number: nothing before it to compare with
        LanceFixtures.shallowClone(warehouse.resolve("w"), "clone_source", "cloned");
        Map<Long, Entry> cloned = entries("cloned");
        assertThat(cloned.keySet()).containsExactly(3L, 4L);
        assertThat(cloned.get(3L).operation()).isEqualTo("clone");
        assertThat(cloned.get(3L).actions()).isNull();
        assertThat(cloned.get(4L).actions()).containsExactly("added fragment 2 (5 rows)");
    }

    @Test
    void testWritesNeedAutocommit()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE autocommit (id bigint)");
        URI baseUrl = getDistributedQueryRunner().getCoordinator().getBaseUrl();
        String url = "jdbc:trino://%s:%s/lance/w".formatted(baseUrl.getHost(), baseUrl.getPort());
        try (Connection connection = DriverManager.getConnection(url, "user", null);
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            // reads are fine in a transaction, the first write is not
            try (var result = statement.executeQuery("SELECT count(*) FROM autocommit")) {
                assertThat(result.next()).isTrue();
            }
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO autocommit VALUES 1"))
                    .hasMessageContaining("Catalog only supports writes using autocommit: lance");
        }
        assertQuery("SELECT count(*) FROM \"autocommit$transactions\"", "VALUES 1");
    }

    /**
     * Runs a statement and returns its query id.
     */
    private String run(String sql)
    {
        return getDistributedQueryRunner().executeWithPlan(getSession(), sql).queryId().toString();
    }

    private Map<Long, Entry> entries(String table)
    {
        Map<Long, Entry> entries = new LinkedHashMap<>();
        for (MaterializedRow row : computeActual("SELECT version, operation, read_version, transaction_id, query_id, \"user\", statement, actions FROM \"%s$transactions\" ORDER BY version".formatted(table)).getMaterializedRows()) {
            @SuppressWarnings("unchecked")
            List<String> actions = (List<String>) row.getField(7);
            entries.put((Long) row.getField(0), new Entry(
                    (Long) row.getField(0),
                    (String) row.getField(1),
                    (Long) row.getField(2),
                    (String) row.getField(3),
                    (String) row.getField(4),
                    (String) row.getField(5),
                    (String) row.getField(6),
                    actions));
        }
        return entries;
    }

    /**
     * A row change: one deletion action (unless null), then fragments appended holding the new rows.
     */
    private static void assertRowChange(Entry entry, String deletion, long newRows)
    {
        List<String> actions = entry.actions();
        if (deletion != null) {
            assertThat(actions.getFirst()).isEqualTo(deletion);
            actions = actions.subList(1, actions.size());
        }
        assertThat(actions).allMatch(action -> ADDED_FRAGMENT.matcher(action).matches());
        assertThat(addedRows(actions)).isEqualTo(newRows);
    }

    private static long addedRows(List<String> actions)
    {
        long rows = 0;
        for (String action : actions) {
            Matcher matcher = ADDED_FRAGMENT.matcher(action);
            if (matcher.matches()) {
                rows += Long.parseLong(matcher.group(1));
            }
        }
        return rows;
    }
}
