package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tags, shallow and deep clones and merge conflicts through the CALL and table procedures, and the errors of every
 * ref operation: each names the table and ref at fault and leaves the data as it was.
 */
final class TestLanceRefProcedures
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-ref-procedures");
        Files.createDirectories(warehouse.resolve("prod"));
        Files.createDirectories(warehouse.resolve("lab"));
        return LanceQueryRunner.builder(warehouse).withSchema("prod").build();
    }

    private void createTable(String name)
    {
        assertUpdate("CREATE TABLE " + name + " (id bigint, v varchar)");
        assertUpdate("INSERT INTO " + name + " SELECT x, 'a' FROM UNNEST(sequence(1, 10)) AS t(x)", 10);
        assertUpdate("INSERT INTO " + name + " SELECT x, 'b' FROM UNNEST(sequence(11, 20)) AS t(x)", 10);
    }

    @Test
    void testTags()
    {
        createTable("tagged");
        assertUpdate("CALL lance.system.create_tag('prod', 'tagged', 'gold', '2')");
        assertUpdate("CALL lance.system.create_tag(schema_name => 'prod', table_name => 'tagged', tag => 'latest')");
        assertUpdate("CREATE BRANCH dev IN TABLE tagged");
        assertUpdate("INSERT INTO tagged @ dev VALUES (21, 'dev')", 1);
        assertUpdate("CALL lance.system.create_tag('prod', 'tagged', 'devtag', 'dev')");
        assertQuery("SELECT name, branch, version FROM \"tagged$refs\" WHERE type = 'TAG' ORDER BY name",
                "VALUES ('devtag', 'dev', 4), ('gold', 'main', 2), ('latest', 'main', 3)");
        assertQuery("SELECT count(*) FROM tagged FOR VERSION AS OF 'gold'", "VALUES 10");
        assertQuery("SELECT count(*) FROM tagged FOR VERSION AS OF 'devtag'", "VALUES 21");
        // a tag of a tag names the same version
        assertUpdate("CALL lance.system.create_tag('prod', 'tagged', 'gold2', 'gold')");
        assertQuery("SELECT count(*) FROM tagged FOR VERSION AS OF 'gold2'", "VALUES 10");

        assertUpdate("CALL lance.system.move_tag('prod', 'tagged', 'gold', 'dev@3')");
        assertQuery("SELECT branch, version FROM \"tagged$refs\" WHERE name = 'gold'", "VALUES ('dev', 3)");
        assertQueryFails("DROP BRANCH dev IN TABLE tagged", ".*Cannot drop branch 'dev' of table prod.tagged: tags \\['devtag', 'gold'] point into it.*");
        assertUpdate("CALL lance.system.drop_tag('prod', 'tagged', 'gold')");
        assertUpdate("CALL lance.system.drop_tag('prod', 'tagged', 'devtag')");
        assertUpdate("DROP BRANCH dev IN TABLE tagged");
        assertQuery("SELECT name FROM \"tagged$refs\" ORDER BY name", "VALUES 'gold2', 'latest', 'main'");

        assertQueryFails("CALL lance.system.create_tag('prod', 'tagged', 'latest', '1')", ".*Tag 'latest' already exists in table prod.tagged \\(it points to main version 3\\).*");
        assertQueryFails("CALL lance.system.create_tag('prod', 'tagged', 'old', '99')", ".*Table prod.tagged has no version 99 on main; versions are 1 to 3.*");
        assertQueryFails("CALL lance.system.create_tag('prod', 'tagged', 'x', 'nobranch')", ".*Table prod.tagged has no tag or branch 'nobranch'.*");
        assertQueryFails("CALL lance.system.create_tag('prod', 'tagged', 'bad/name', '1')", ".*Invalid tag name 'bad/name' for table prod.tagged.*");
        assertQueryFails("CALL lance.system.create_tag('prod', 'tagged', '', '1')", ".*Argument TAG is empty.*");
        assertQueryFails("CALL lance.system.create_tag('prod', 'tagged', NULL, '1')", ".*Argument TAG must be given.*");
        assertQueryFails("CALL lance.system.drop_tag('prod', 'tagged', 'missing')", ".*Table prod.tagged has no tag 'missing'.*");
        assertQueryFails("CALL lance.system.move_tag('prod', 'tagged', 'missing', '1')", ".*Table prod.tagged has no tag 'missing'.*");
        assertQueryFails("CALL lance.system.create_tag('prod', 'nosuchtable', 'x', '1')", ".*Table 'prod.nosuchtable' not found.*");
    }

    @Test
    void testBranchErrors()
    {
        createTable("errors");
        assertUpdate("CREATE BRANCH dev IN TABLE errors");
        assertQueryFails("CREATE BRANCH dev IN TABLE errors", ".*Branch 'dev' already exists.*");
        assertUpdate("CREATE BRANCH IF NOT EXISTS dev IN TABLE errors");
        assertUpdate("INSERT INTO errors @ dev VALUES (21, 'dev')", 1);
        // OR REPLACE starts the branch again from where it is told
        assertUpdate("CREATE OR REPLACE BRANCH dev WITH (from_version = 2) IN TABLE errors");
        assertQuery("SELECT count(*) FROM errors FOR VERSION AS OF 'dev'", "VALUES 10");
        assertQueryFails("INSERT INTO errors @ nope VALUES (1, 'x')", ".*Branch 'nope' does not exist.*");
        assertQueryFails("CREATE BRANCH \"a..b\" IN TABLE errors", ".*Invalid branch name 'a..b' for table prod.errors.*");
        assertQueryFails("CREATE BRANCH \"x.lock\" IN TABLE errors", ".*Invalid branch name 'x.lock' for table prod.errors.*");
        assertQueryFails("CREATE BRANCH fix WITH (from_version = 42) IN TABLE errors", ".*Table prod.errors has no main version 42; versions are 1 to 3.*");
        assertQueryFails("CREATE BRANCH fix WITH (from_tag = 'none') IN TABLE errors", ".*Table prod.errors has no tag 'none'.*");
        assertQueryFails("CREATE BRANCH fix WITH (from_tag = 'none', from_version = 1) IN TABLE errors", ".*from_tag names a version by itself.*");
        assertQueryFails("CREATE BRANCH fix IN TABLE errors FROM nope", ".*Branch 'nope' does not exist.*");
        assertQueryFails("DROP BRANCH nope IN TABLE errors", ".*Branch 'nope' does not exist.*");
        assertQueryFails("DROP BRANCH main IN TABLE errors", ".*The main branch of table prod.errors cannot be dropped.*");
        assertQueryFails("CALL lance.system.drop_branch('prod', 'errors', 'nope')", ".*Table prod.errors has no branch 'nope'.*");
        assertQueryFails("CALL lance.system.create_branch('prod', 'errors', 'dev', NULL)", ".*Branch 'dev' already exists in table prod.errors.*");
        assertUpdate("CALL lance.system.create_branch('prod', 'errors', 'hotfix', '1')");
        assertQuery("SELECT count(*) FROM errors FOR VERSION AS OF 'hotfix'", "VALUES 0");
        assertUpdate("CALL lance.system.drop_branch('prod', 'errors', 'hotfix')");
        assertQueryFails("ALTER TABLE errors EXECUTE merge_branch(source => 'nope')", ".*Table prod.errors has no tag or branch 'nope'.*");
        assertQueryFails("ALTER TABLE errors EXECUTE merge_branch(source => 'dev', target => 'nope')", ".*Branch 'nope' does not exist in table prod.errors.*");
        assertQueryFails("ALTER TABLE errors EXECUTE merge_branch(source => 'dev', on_conflict => 'maybe')", ".*on_conflict must be 'fail', 'source_wins' or 'target_wins', not 'maybe'.*");
        assertQueryFails("ALTER TABLE errors EXECUTE merge_branch()", ".*merge_branch on table prod.errors needs source.*");
        assertQueryFails("ALTER TABLE errors EXECUTE merge_branch(source => 'main', target => 'main')", ".*Cannot merge branch 'main' of table prod.errors into itself.*");
        assertQueryFails("ALTER TABLE errors EXECUTE merge_branch(source => 'dev', target => 'dev')", ".*Cannot merge branch 'dev' of table prod.errors into itself.*");
        // nothing above changed main
        assertQuery("SELECT count(*) FROM errors", "VALUES 20");
        assertQuery("SELECT count(*) FROM \"errors$versions\"", "VALUES 3");
    }

    @Test
    void testShallowCloneWritesOnlyMetadataAndMergesBack()
            throws IOException
    {
        createTable("source");
        assertUpdate("CALL lance.system.create_tag('prod', 'source', 'gold', '2')");
        assertUpdate("CALL lance.system.shallow_clone('prod', 'source', 'lab', 'exp', 'gold')");
        Path clone = warehouse.resolve("lab/exp.lance");
        assertThat(Files.exists(clone.resolve("data"))).isFalse();
        assertQuery("SELECT count(*) FROM lab.exp", "VALUES 10");
        assertQuery("SELECT operation FROM \"lab\".\"exp$versions\"", "VALUES 'clone'");
        assertQuery("SELECT count(*) FROM lab.\"exp$fragments\" WHERE base_path IS NOT NULL", "VALUES 1");
        // a pin records the clone under the source's _refs/clones, which Lance engines ignore
        try (Stream<Path> pins = Files.list(warehouse.resolve("prod/source.lance/_refs/clones"))) {
            assertThat(pins.count()).isEqualTo(1);
        }

        assertUpdate("INSERT INTO lab.exp VALUES (100, 'exp')", 1);
        assertUpdate("DELETE FROM lab.exp WHERE id = 1", 1);
        assertUpdate("ALTER TABLE lab.exp ADD COLUMN score double");
        assertUpdate("INSERT INTO lab.exp VALUES (101, 'exp', 0.5)", 1);
        // the source never changes
        assertQuery("SELECT count(*), sum(id) FROM source", "VALUES (20, 210)");
        assertThat(Files.exists(warehouse.resolve("prod/source.lance/data"))).isTrue();

        // a clone of the clone carries both base paths
        assertUpdate("CALL lance.system.shallow_clone('lab', 'exp', 'lab', 'exp2', NULL)");
        assertThat(query("SELECT count(*), sum(id) FROM lab.exp2")).matches("SELECT count(*), sum(id) FROM lab.exp");

        MaterializedResult merged = computeActual("ALTER TABLE source EXECUTE merge_branch(source => 'lab.exp')");
        assertThat(TestLanceBranching.metric(merged, "rows_added")).isEqualTo(2);
        assertThat(TestLanceBranching.metric(merged, "rows_deleted")).isEqualTo(1);
        // main moved since the clone was made from version 2, so this was a three-way merge
        assertThat(TestLanceBranching.metric(merged, "fast_forward")).isEqualTo(0);
        assertQuery("SELECT count(*), sum(id), count(score) FROM source", "VALUES (21, 410, 1)");
        assertQuery("SELECT statement FROM \"source$transactions\" ORDER BY version DESC LIMIT 1", "VALUES 'MERGE BRANCH'");

        assertQueryFails("CALL lance.system.shallow_clone('prod', 'source', 'lab', 'exp', NULL)", ".*Cannot clone prod.source into lab.exp: table lab.exp already exists.*");
        assertQueryFails("CALL lance.system.shallow_clone('prod', 'source', 'nowhere', 'exp', NULL)", ".*Schema nowhere not found.*");
        assertQueryFails("ALTER TABLE source EXECUTE merge_branch(source => 'lab.nosuch')", ".*Table 'lab.nosuch' not found.*");
    }

    @Test
    void testDeepCloneIsSelfContained()
    {
        createTable("deepsource");
        assertUpdate("DELETE FROM deepsource WHERE id = 3", 1);
        assertUpdate("CALL lance.system.deep_clone('prod', 'deepsource', 'lab', 'deep', NULL)");
        assertQuery("SELECT count(*) FROM lab.\"deep$fragments\" WHERE base_path IS NOT NULL", "VALUES 0");
        assertQuery("SELECT count(*), sum(id) FROM lab.deep", "VALUES (19, 207)");
        assertUpdate("DROP TABLE deepsource");
        assertQuery("SELECT count(*), sum(id) FROM lab.deep", "VALUES (19, 207)");
        assertUpdate("INSERT INTO lab.deep VALUES (30, 'x')", 1);
        assertQuery("SELECT count(*) FROM lab.deep", "VALUES 20");
        assertQueryFails("ALTER TABLE lab.deep EXECUTE merge_branch(source => 'lab.deep2')", ".*Table 'lab.deep2' not found.*");
    }

    @Test
    void testMergeConflictPolicies()
    {
        createTable("conflicts");
        for (String clone : new String[] {"c_fail", "c_source", "c_target"}) {
            assertUpdate("CALL lance.system.shallow_clone('prod', 'conflicts', 'lab', '%s', NULL)".formatted(clone));
            assertUpdate("ALTER TABLE lab.%s ADD COLUMN score varchar".formatted(clone));
            assertUpdate("INSERT INTO lab.%s VALUES (100, 'exp', 'high')".formatted(clone), 1);
        }
        assertUpdate("ALTER TABLE conflicts ADD COLUMN score bigint");
        assertUpdate("INSERT INTO conflicts VALUES (200, 'main', 7)", 1);
        long versions = (long) computeScalar("SELECT count(*) FROM \"conflicts$versions\"");

        assertQueryFails("ALTER TABLE conflicts EXECUTE merge_branch(source => 'lab.c_fail')",
                ".*Cannot merge table lab.c_fail into 'main' of table prod.conflicts \\(merge base main@3\\): 1 conflict, nothing was changed.*SCHEMA column 'score' was added on both sides with different types.*");
        MaterializedResult dryRun = computeActual("ALTER TABLE conflicts EXECUTE merge_branch(source => 'lab.c_fail', on_conflict => 'target_wins', dry_run => true)");
        assertThat(TestLanceBranching.metric(dryRun, "conflicts")).isEqualTo(1);
        assertThat(TestLanceBranching.metric(dryRun, "target_version")).isEqualTo(0);
        assertQuery("SELECT count(*) FROM \"conflicts$versions\"", "VALUES " + versions);

        computeActual("ALTER TABLE conflicts EXECUTE merge_branch(source => 'lab.c_target', on_conflict => 'target_wins')");
        // the target's column stays; the source's rows read it as NULL
        assertQuery("SELECT id, score FROM conflicts WHERE id >= 100 ORDER BY id", "VALUES (100, NULL), (200, 7)");
        assertThat(computeActual("DESCRIBE conflicts").getMaterializedRows().stream().filter(row -> row.getField(0).equals("score")).findFirst().orElseThrow().getField(1)).isEqualTo("bigint");

        computeActual("ALTER TABLE conflicts EXECUTE merge_branch(source => 'lab.c_source', on_conflict => 'source_wins')");
        assertThat(computeActual("DESCRIBE conflicts").getMaterializedRows().stream().filter(row -> row.getField(0).equals("score")).findFirst().orElseThrow().getField(1)).isEqualTo("varchar");
        // the source's column wins; the target's rows written with the other column read NULL
        assertQuery("SELECT id, score FROM conflicts WHERE id >= 100 ORDER BY id", "VALUES (100, NULL), (100, 'high'), (200, NULL)");
    }
}
