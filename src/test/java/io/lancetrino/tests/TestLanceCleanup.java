package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.FileAges;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cleanup through {@code ALTER TABLE t EXECUTE cleanup(...)} and {@code CALL lance.system.cleanup(...)}: what it
 * removes, what it keeps and why, dry runs, orphans, clones, dropped branches, Lance's auto-cleanup keys, and bad input.
 */
final class TestLanceCleanup
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-cleanup");
        Files.createDirectories(warehouse.resolve("prod"));
        Files.createDirectories(warehouse.resolve("lab"));
        return LanceQueryRunner.builder(warehouse).withSchema("prod").build();
    }

    private Session noMinimum()
    {
        return Session.builder(getSession()).setCatalogSessionProperty(CATALOG, "cleanup_min_retention", "0s").build();
    }

    private Map<String, Long> cleanup(String table, String threshold, boolean dryRun)
    {
        return metrics("ALTER TABLE %s EXECUTE cleanup(retention_threshold => '%s', dry_run => %s)".formatted(table, threshold, dryRun));
    }

    private Map<String, Long> metrics(String sql)
    {
        MaterializedResult result = computeActual(noMinimum(), sql);
        Map<String, Long> metrics = new HashMap<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            metrics.put((String) row.getField(0), (Long) row.getField(1));
        }
        return metrics;
    }

    private Path tableDirectory(String schema, String table)
    {
        return warehouse.resolve(schema).resolve(table + ".lance");
    }

    private static Set<String> files(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(Files::isRegularFile).map(path -> directory.relativize(path).toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private MaterializedResult rows(String sql)
    {
        return computeActual(sql);
    }

    @Test
    void testKeepsEveryRefAndRemovesTheRest()
            throws Exception
    {
        assertUpdate("CREATE TABLE history (id bigint, v varchar)");
        for (int i = 1; i <= 5; i++) {
            assertUpdate("INSERT INTO history VALUES (%s, 'v%s')".formatted(i, i), 1);
        }
        // version 7: a delete leaves a deletion file
        assertUpdate("DELETE FROM history WHERE id = 2", 1);
        assertUpdate("CALL lance.system.create_tag('prod', 'history', 'gold', '3')");
        assertUpdate("CREATE BRANCH dev WITH (from_version = 4) IN TABLE history");
        assertUpdate("INSERT INTO history @ dev VALUES (100, 'dev')", 1);
        assertUpdate("CREATE BRANCH deeper IN TABLE history FROM dev");
        assertUpdate("INSERT INTO history @ deeper VALUES (200, 'deeper')", 1);
        assertUpdate("INSERT INTO history VALUES (6, 'v6')", 1);

        MaterializedResult main = rows("SELECT * FROM history ORDER BY id");
        MaterializedResult gold = rows("SELECT * FROM history FOR VERSION AS OF 'gold' ORDER BY id");
        MaterializedResult forkPoint = rows("SELECT * FROM history FOR VERSION AS OF 4 ORDER BY id");
        MaterializedResult dev = rows("SELECT * FROM history FOR VERSION AS OF 'dev' ORDER BY id");
        MaterializedResult deeper = rows("SELECT * FROM history FOR VERSION AS OF 'deeper' ORDER BY id");
        Path root = tableDirectory("prod", "history");
        FileAges.ageAll(root);
        Set<String> before = files(root);

        Map<String, Long> dryRun = cleanup("history", "0s", true);
        assertThat(files(root)).isEqualTo(before);
        Map<String, Long> metrics = cleanup("history", "0s", false);
        assertThat(metrics).isEqualTo(dryRun);

        // main 1..8: kept 8 (latest), 3 (tagged), 4 (branch point), and 7, whose delete took a whole fragment after dev
        // forked, with 6 before it (a merge of dev follows rows through them); dev: its head (and the version deeper
        // forks from); deeper: its head
        assertThat(metrics.get("versions_kept_latest")).isEqualTo(3);
        assertThat(metrics.get("versions_kept_tagged")).isEqualTo(1);
        assertThat(metrics.get("versions_kept_branch_point")).isEqualTo(1);
        assertThat(metrics.get("versions_kept_merge_history")).isEqualTo(2);
        assertThat(metrics.get("versions_kept_within_retention")).isEqualTo(0);
        // main 1, 2, 5 and the first versions of dev and deeper (their fork copies) are gone
        assertThat(metrics.get("versions_removed")).isEqualTo(5);
        assertThat(metrics.get("manifest_files_removed")).isEqualTo(5);
        assertThat(metrics.get("transaction_files_removed")).isEqualTo(5);
        assertThat(metrics.get("orphan_files_removed")).isEqualTo(0);
        assertThat(metrics.get("bytes_freed")).isPositive();

        assertThat(rows("SELECT * FROM history ORDER BY id")).isEqualTo(main);
        assertThat(rows("SELECT * FROM history FOR VERSION AS OF 'gold' ORDER BY id")).isEqualTo(gold);
        assertThat(rows("SELECT * FROM history FOR VERSION AS OF 4 ORDER BY id")).isEqualTo(forkPoint);
        assertThat(rows("SELECT * FROM history FOR VERSION AS OF 'dev' ORDER BY id")).isEqualTo(dev);
        assertThat(rows("SELECT * FROM history FOR VERSION AS OF 'deeper' ORDER BY id")).isEqualTo(deeper);
        assertQueryFails("SELECT * FROM history FOR VERSION AS OF 2", ".*Table prod.history has no version 2.*");
        assertQuery("SELECT version FROM \"history$versions\" ORDER BY version", "VALUES 3, 4, 6, 7, 8");

        // a second run finds nothing to do
        Set<String> after = files(root);
        Map<String, Long> again = cleanup("history", "0s", false);
        assertThat(again.get("versions_removed")).isEqualTo(0);
        assertThat(again.entrySet().stream().filter(entry -> entry.getKey().endsWith("_files_removed")).mapToLong(Map.Entry::getValue).sum()).isEqualTo(0);
        assertThat(files(root)).isEqualTo(after);
    }

    @Test
    void testRetentionKeepsRecentVersions()
    {
        assertUpdate("CREATE TABLE recent (id bigint)");
        assertUpdate("INSERT INTO recent VALUES 1", 1);
        assertUpdate("INSERT INTO recent VALUES 2", 1);
        Map<String, Long> metrics = cleanup("recent", "1h", false);
        assertThat(metrics.get("versions_removed")).isEqualTo(0);
        assertThat(metrics.get("versions_kept_within_retention")).isEqualTo(2);
        assertThat(metrics.get("versions_kept_latest")).isEqualTo(1);
        assertQuery("SELECT count(*) FROM recent FOR VERSION AS OF 1", "VALUES 0");
    }

    @Test
    void testOrphansGoOnlyWhenOld()
            throws Exception
    {
        assertUpdate("CREATE TABLE orphans (id bigint)");
        assertUpdate("INSERT INTO orphans VALUES 1", 1);
        Path root = tableDirectory("prod", "orphans");
        FileAges.ageAll(root);
        // what a killed INSERT leaves: a staging file and a data file no manifest names, one old and one fresh
        Path oldStaging = Files.write(root.resolve("data/.tmp_killed_write"), new byte[1000]);
        Files.setLastModifiedTime(oldStaging, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
        Path oldData = Files.write(root.resolve("data/unreferenced.lance"), new byte[500]);
        Files.setLastModifiedTime(oldData, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
        Path inFlight = Files.write(root.resolve("data/in-flight.lance"), new byte[10]);

        Map<String, Long> metrics = cleanup("orphans", "1h", false);
        assertThat(metrics.get("orphan_files_removed")).isEqualTo(2);
        assertThat(metrics.get("bytes_freed")).isEqualTo(1500);
        assertThat(oldStaging).doesNotExist();
        assertThat(oldData).doesNotExist();
        assertThat(inFlight).exists();
        assertQuery("SELECT * FROM orphans", "VALUES 1");
    }

    @Test
    void testClonesKeepTheirSource()
            throws Exception
    {
        assertUpdate("CREATE TABLE source (id bigint)");
        assertUpdate("INSERT INTO source VALUES 1", 1);
        assertUpdate("INSERT INTO source VALUES 2", 1);
        assertUpdate("CALL lance.system.shallow_clone('prod', 'source', 'lab', 'pinned', '3')");
        assertUpdate("CALL lance.system.shallow_clone('prod', 'source', 'lab', 'scanned', '3')");
        assertUpdate("CALL lance.system.shallow_clone('lab', 'scanned', 'lab', 'grandchild')");
        // without its pin, the clone is found by scanning the warehouse
        Path pins = tableDirectory("prod", "source").resolve("_refs/clones");
        try (Stream<Path> files = Files.list(pins)) {
            for (Path pin : files.toList()) {
                String content = Files.readString(pin);
                if (content.contains("scanned")) {
                    Files.delete(pin);
                }
            }
        }
        assertUpdate("DELETE FROM source WHERE id = 1", 1);
        assertUpdate("INSERT INTO source VALUES 3", 1);
        FileAges.ageAll(tableDirectory("prod", "source"));

        Map<String, Long> metrics = cleanup("source", "0s", false);
        assertThat(metrics.get("versions_kept_clone_source")).isEqualTo(1);
        // 4 deleted a whole fragment after the clones were made: merging a clone back follows rows through it
        assertThat(metrics.get("versions_kept_merge_history")).isEqualTo(1);
        assertThat(metrics.get("versions_removed")).isEqualTo(2);
        assertQuery("SELECT * FROM lab.pinned", "VALUES 1, 2");
        assertQuery("SELECT * FROM lab.scanned", "VALUES 1, 2");
        assertQuery("SELECT * FROM lab.grandchild", "VALUES 1, 2");
        assertQuery("SELECT * FROM source", "VALUES 2, 3");

        // once the clones are dropped, their source version goes too
        assertUpdate("DROP TABLE lab.grandchild");
        assertUpdate("DROP TABLE lab.scanned");
        assertUpdate("DROP TABLE lab.pinned");
        FileAges.ageAll(tableDirectory("prod", "source"));
        Map<String, Long> released = cleanup("source", "0s", false);
        assertThat(released.get("versions_kept_clone_source")).isEqualTo(0);
        assertThat(released.get("versions_removed")).isEqualTo(2);
        assertQuery("SELECT * FROM source", "VALUES 2, 3");
    }

    @Test
    void testDropBranchKeepsFilesOthersRead()
    {
        assertUpdate("CREATE TABLE dropping (id bigint)");
        assertUpdate("INSERT INTO dropping VALUES 1", 1);
        assertUpdate("CREATE BRANCH merged IN TABLE dropping");
        assertUpdate("INSERT INTO dropping @ merged VALUES 2", 1);
        assertUpdate("ALTER TABLE dropping EXECUTE merge_branch(source => 'merged')");
        assertUpdate("CREATE BRANCH scratch IN TABLE dropping");
        assertUpdate("INSERT INTO dropping @ scratch VALUES 3", 1);
        Path root = tableDirectory("prod", "dropping");
        assertThat(files(root.resolve("tree/scratch/data"))).hasSize(1);

        assertUpdate("DROP BRANCH scratch IN TABLE dropping");
        assertThat(root.resolve("tree/scratch")).doesNotExist();
        assertUpdate("DROP BRANCH merged IN TABLE dropping");
        // main reads the merged branch's data file through a base path: it stays, the branch's history goes
        assertThat(files(root.resolve("tree/merged"))).hasSize(1).allMatch(name -> name.startsWith("data/"));
        assertQuery("SELECT * FROM dropping", "VALUES 1, 2");
    }

    @Test
    void testMergesAfterCleanupStartFromTheLastMerge()
    {
        assertUpdate("CREATE TABLE merging (id bigint, v varchar)");
        assertUpdate("INSERT INTO merging VALUES (1, 'main')", 1);
        assertUpdate("CREATE BRANCH dev IN TABLE merging");
        assertUpdate("INSERT INTO merging @ dev VALUES (2, 'dev')", 1);
        assertUpdate("UPDATE merging @ dev SET v = 'dev2' WHERE id = 1", 1);
        assertUpdate("ALTER TABLE merging EXECUTE merge_branch(source => 'dev')");
        // after the merge, main changes the row dev changed: a later merge must not see dev's old change again
        assertUpdate("UPDATE merging SET v = 'main2' WHERE id = 1", 1);
        assertUpdate("INSERT INTO merging @ dev VALUES (3, 'dev')", 1);
        FileAges.ageAll(tableDirectory("prod", "merging"));
        Map<String, Long> metrics = cleanup("merging", "0s", false);
        // the merge commit on main and the dev version it brought over stay
        assertThat(metrics.get("versions_kept_branch_point") + metrics.get("versions_kept_merge_history")).isGreaterThanOrEqualTo(2);
        assertQuery("SELECT * FROM merging ORDER BY id", "VALUES (1, 'main2'), (2, 'dev')");

        assertUpdate("ALTER TABLE merging EXECUTE merge_branch(source => 'dev')");
        assertQuery("SELECT * FROM merging ORDER BY id", "VALUES (1, 'main2'), (2, 'dev'), (3, 'dev')");
    }

    @Test
    void testAutoCleanupKeys()
    {
        assertUpdate("CREATE TABLE auto_clean (id bigint)");
        assertUpdate("INSERT INTO auto_clean VALUES 1", 1);
        assertUpdate("CREATE BRANCH dev IN TABLE auto_clean");
        assertQuery("SELECT count(*) FROM \"auto_clean$properties\" WHERE key LIKE 'lance.auto_cleanup.%'", "VALUES 0");
        assertThat(metrics("ALTER TABLE auto_clean EXECUTE set_auto_cleanup(enabled => true)")).isEqualTo(Map.of("datasets_updated", 2L));
        assertQuery("SELECT key, value, kind FROM \"auto_clean$properties\" WHERE key LIKE 'lance.auto_cleanup.%'",
                "VALUES ('lance.auto_cleanup.interval', '20', 'config'), ('lance.auto_cleanup.older_than', '14days', 'config')");
        assertQuery("SELECT count(*) FROM \"auto_clean@dev$properties\" WHERE key LIKE 'lance.auto_cleanup.%'", "VALUES 2");
        assertThat(metrics("ALTER TABLE auto_clean EXECUTE set_auto_cleanup(enabled => false)")).isEqualTo(Map.of("datasets_updated", 2L));
        assertQuery("SELECT count(*) FROM \"auto_clean$properties\" WHERE key LIKE 'lance.auto_cleanup.%'", "VALUES 0");
        assertQuery("SELECT count(*) FROM \"auto_clean@dev$properties\" WHERE key LIKE 'lance.auto_cleanup.%'", "VALUES 0");
        // nothing left to remove: no new versions
        assertThat(metrics("ALTER TABLE auto_clean EXECUTE set_auto_cleanup(enabled => false)")).isEqualTo(Map.of("datasets_updated", 0L));
        assertQuery("SELECT * FROM auto_clean", "VALUES 1");
    }

    @Test
    void testCallProcedure()
            throws Exception
    {
        assertUpdate("CREATE TABLE called (id bigint)");
        assertUpdate("INSERT INTO called VALUES 1", 1);
        assertUpdate("INSERT INTO called VALUES 2", 1);
        FileAges.ageAll(tableDirectory("prod", "called"));
        assertUpdate(noMinimum(), "CALL lance.system.cleanup('prod', 'called', '0s', true)");
        assertQuery("SELECT count(*) FROM \"called$versions\"", "VALUES 3");
        assertUpdate(noMinimum(), "CALL lance.system.cleanup(schema_name => 'prod', table_name => 'called', retention_threshold => '0s')");
        assertQuery("SELECT count(*) FROM \"called$versions\"", "VALUES 1");
        assertQuery("SELECT * FROM called", "VALUES 1, 2");
    }

    @Test
    void testBadInput()
            throws Exception
    {
        assertUpdate("CREATE TABLE guarded (id bigint)");
        assertUpdate("INSERT INTO guarded VALUES 1", 1);
        assertUpdate("INSERT INTO guarded VALUES 2", 1);
        assertUpdate("CREATE BRANCH dev IN TABLE guarded");
        Path root = tableDirectory("prod", "guarded");
        FileAges.ageAll(root);
        Set<String> before = files(root);

        assertQueryFails("ALTER TABLE guarded EXECUTE cleanup(retention_threshold => '1d')",
                ".*Retention specified \\(1.00d\\) for cleanup of table prod.guarded is shorter than the minimum retention configured in the system \\(7.00d\\).*lance.cleanup.min-retention.*cleanup_min_retention.*");
        assertQueryFails("ALTER TABLE guarded EXECUTE cleanup(retention_threshold => '0s')", ".*Retention specified \\(0.00ns\\).*minimum retention.*\\(7.00d\\).*");
        assertQueryFails(noMinimum(), "ALTER TABLE guarded EXECUTE cleanup(retention_threshold => '-1d')", ".*Invalid retention_threshold '-1d' for cleanup of table prod.guarded.*");
        assertQueryFails(noMinimum(), "ALTER TABLE guarded EXECUTE cleanup(retention_threshold => 'soon')", ".*Invalid retention_threshold 'soon' for cleanup of table prod.guarded.*");
        assertQueryFails(noMinimum(), "ALTER TABLE missing EXECUTE cleanup(retention_threshold => '0s')", ".*Table 'lance.prod.missing' does not exist.*");
        assertQueryFails(noMinimum(), "CALL lance.system.cleanup('prod', 'missing', '0s')", ".*Table 'prod.missing' not found.*");
        assertQueryFails(noMinimum(), "CALL lance.system.cleanup('prod', 'guarded@dev', '0s')", ".*Cleanup runs on a whole table, all branches included, not on the ref 'guarded@dev'; run it on prod.guarded.*");
        assertQueryFails(noMinimum(), "ALTER TABLE guarded @ dev EXECUTE cleanup(retention_threshold => '0s')", ".*mismatched input '@'.*");
        assertQueryFails("CALL lance.system.cleanup('prod', 'guarded', '1h')", ".*Retention specified \\(1.00h\\).*shorter than the minimum.*");
        assertThat(files(root)).isEqualTo(before);
        assertQuery("SELECT count(*) FROM \"guarded$versions\"", "VALUES 3");
    }
}
