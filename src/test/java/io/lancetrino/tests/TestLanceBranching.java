package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's branch SQL on Lance tables: create (from a branch, a version, a tag; or replace), show, drop, fast-forward,
 * and INSERT, DELETE, UPDATE and MERGE on {@code t @ branch}, each leaving the other branches as they were.
 */
final class TestLanceBranching
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-branching");
        Files.createDirectories(warehouse.resolve("lab"));
        return LanceQueryRunner.builder(warehouse).withSchema("lab").build();
    }

    private void createTable(String name)
    {
        assertUpdate("CREATE TABLE " + name + " (id bigint, v varchar)");
        assertUpdate("INSERT INTO " + name + " SELECT x, 'a' FROM UNNEST(sequence(1, 10)) AS t(x)", 10);
        assertUpdate("INSERT INTO " + name + " SELECT x, 'b' FROM UNNEST(sequence(11, 20)) AS t(x)", 10);
    }

    @Test
    void testBranchWritesLeaveMainAlone()
    {
        createTable("writes");
        assertUpdate("CREATE BRANCH dev IN TABLE writes");
        assertThat(computeActual("SHOW BRANCHES IN TABLE writes").getOnlyColumnAsSet()).containsExactlyInAnyOrder("main", "dev");
        assertUpdate("INSERT INTO writes @ dev VALUES (100, 'dev')", 1);
        assertUpdate("DELETE FROM writes @ dev WHERE id <= 5", 5);
        assertUpdate("UPDATE writes @ dev SET v = 'updated' WHERE id = 6", 1);
        assertUpdate("MERGE INTO writes @ dev t USING (VALUES (7, 'merged'), (200, 'new')) s(id, v) ON t.id = s.id "
                + "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)", 2);
        assertQuery("SELECT count(*), sum(id) FROM writes FOR VERSION AS OF 'dev'", "VALUES (17, 495)");
        assertQuery("SELECT v FROM writes FOR VERSION AS OF 'dev' WHERE id IN (6, 7) ORDER BY id", "VALUES 'updated', 'merged'");
        assertQuery("SELECT count(*), sum(id) FROM writes", "VALUES (20, 210)");
        assertUpdate("INSERT INTO writes @ main VALUES (300, 'main')", 1);
        assertQuery("SELECT count(*) FROM writes", "VALUES 21");
        assertQuery("SELECT count(*) FROM writes FOR VERSION AS OF 'dev'", "VALUES 17");
        assertThat(Files.isDirectory(warehouse.resolve("lab/writes.lance/tree/dev/data"))).isTrue();
        // the engine does not route schema changes to a branch
        assertQueryFails("ALTER TABLE writes @ dev ADD COLUMN score double", ".*mismatched input '@'.*");
    }

    @Test
    void testCreateBranchFromVersionTagAndBranch()
    {
        createTable("sources");
        assertUpdate("CALL lance.system.create_tag('lab', 'sources', 'gold', '2')");
        assertUpdate("CREATE BRANCH fix WITH (from_version = 2) IN TABLE sources");
        assertUpdate("CREATE BRANCH fromtag WITH (from_tag = 'gold') IN TABLE sources");
        assertUpdate("CREATE BRANCH \"feat/x\" IN TABLE sources FROM fix");
        assertQuery("SELECT count(*) FROM sources FOR VERSION AS OF 'fix'", "VALUES 10");
        assertQuery("SELECT count(*) FROM sources FOR VERSION AS OF 'fromtag'", "VALUES 10");
        assertQuery("SELECT count(*) FROM sources FOR VERSION AS OF 'feat/x'", "VALUES 10");
        assertUpdate("INSERT INTO sources @ \"feat/x\" VALUES (500, 'x')", 1);
        assertQuery("SELECT count(*) FROM sources FOR VERSION AS OF 'feat/x'", "VALUES 11");
        assertQuery("SELECT count(*) FROM sources FOR VERSION AS OF 'fix'", "VALUES 10");
        assertQuery("SELECT name, parent_branch, parent_version FROM \"sources$refs\" WHERE type = 'BRANCH' AND name <> 'main' ORDER BY name",
                "VALUES ('feat/x', 'fix', 2), ('fix', 'main', 2), ('fromtag', 'main', 2)");
        assertQueryFails("DROP BRANCH fix IN TABLE sources", ".*Cannot drop branch 'fix' of table lab.sources: branches \\['feat/x'] were made from it.*");
        assertUpdate("DROP BRANCH \"feat/x\" IN TABLE sources");
        assertUpdate("DROP BRANCH fix IN TABLE sources");
        assertThat(Files.exists(warehouse.resolve("lab/sources.lance/tree/fix"))).isFalse();
        assertThat(computeActual("SHOW BRANCHES IN TABLE sources").getOnlyColumnAsSet()).containsExactlyInAnyOrder("main", "fromtag");
    }

    @Test
    void testFastForwardAndMerge()
    {
        createTable("flow");
        assertUpdate("CREATE BRANCH dev IN TABLE flow");
        assertUpdate("INSERT INTO flow @ dev VALUES (21, 'dev')", 1);
        assertUpdate("DELETE FROM flow @ dev WHERE id = 1", 1);
        assertUpdate("ALTER BRANCH main IN TABLE flow FAST FORWARD TO dev");
        assertQuery("SELECT count(*), sum(id) FROM flow", "VALUES (20, 230)");
        assertThat(query("SELECT * FROM flow")).matches("SELECT * FROM flow FOR VERSION AS OF 'dev'");

        assertUpdate("INSERT INTO flow @ dev VALUES (22, 'dev')", 1);
        assertUpdate("INSERT INTO flow VALUES (23, 'main')", 1);
        assertUpdate("DELETE FROM flow WHERE id = 2", 1);
        assertQueryFails("ALTER BRANCH main IN TABLE flow FAST FORWARD TO dev", ".*'main' is not an ancestor of 'dev'.*");
        MaterializedResult dryRun = computeActual("ALTER TABLE flow EXECUTE merge_branch(source => 'dev', dry_run => true)");
        assertThat(metric(dryRun, "rows_added")).isEqualTo(1);
        assertThat(metric(dryRun, "fast_forward")).isEqualTo(0);
        assertQuery("SELECT count(*) FROM flow", "VALUES 20");
        MaterializedResult merged = computeActual("ALTER TABLE flow EXECUTE merge_branch(source => 'dev')");
        assertThat(metric(merged, "fragments_added")).isEqualTo(1);
        assertQuery("SELECT count(*), min(id), max(id), sum(id) FROM flow", "VALUES (21, 3, 23, 273)");
        assertQuery("SELECT count(*) FROM flow FOR VERSION AS OF 'dev'", "VALUES 21");
        assertQuery("SELECT statement, merged_from, merge_base FROM \"flow$transactions\" WHERE merged_from IS NOT NULL ORDER BY version",
                "VALUES ('FAST FORWARD', 'branch:dev@5', 'main@3'), ('MERGE BRANCH', 'branch:dev@6', 'dev@5')");
        // merging again brings nothing new
        MaterializedResult again = computeActual("ALTER TABLE flow EXECUTE merge_branch(source => 'dev')");
        assertThat(metric(again, "rows_added")).isEqualTo(0);
        assertQuery("SELECT count(*) FROM flow", "VALUES 21");
    }

    static long metric(MaterializedResult result, String name)
    {
        return result.getMaterializedRows().stream()
                .filter(row -> row.getField(0).equals(name))
                .map(row -> (Long) row.getField(1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + result));
    }
}
