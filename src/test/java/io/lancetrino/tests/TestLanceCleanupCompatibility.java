package io.lancetrino.tests;

import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.tests.fixtures.FileAges;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.lance.Branch;
import org.lance.Dataset;
import org.lance.Ref;
import org.lance.Tag;
import org.lance.Version;
import org.lance.cleanup.CleanupPolicy;
import org.lance.cleanup.RemovalStats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static io.lancetrino.tests.fixtures.LanceFixtures.ID_NAME_SCHEMA;
import static io.lancetrino.tests.fixtures.LanceFixtures.idNameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Cleanup across engines. Our cleanup ({@code ALTER TABLE t EXECUTE cleanup}) on tables this connector wrote and on
 * tables the Lance SDK wrote: afterwards the SDK lists the same refs, checks out every version that is left and every
 * shallow clone, and reads exactly the rows Trino read before the cleanup; both engines keep writing. Then Lance's own
 * cleanup ({@code Dataset.cleanupWithPolicy}) on a table this connector wrote, asserting what it keeps and what it
 * breaks where it differs from ours. Rows are compared as multisets of {@code (id, name)}.
 */
final class TestLanceCleanupCompatibility
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "interop";
    private static final String CLONES = "lab";

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-cleanup-compat");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        Files.createDirectories(warehouse.resolve(CLONES));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    // -----------------------------------------------------------------------------------------------------------------
    // our cleanup, read by the SDK

    @Test
    void testSdkReadsEveryRefLeftByOurCleanup()
            throws Exception
    {
        Path table = createTable("history");
        // main 2, 3: inserts; 3 tagged gold; 4: delete; dev forks at 4; 5: update; 6: insert, cloned; 7: delete
        assertUpdate("CALL lance.system.create_tag('interop', 'history', 'gold', '3')");
        assertUpdate("DELETE FROM history WHERE id IN (1, 11)", 2);
        assertUpdate("CREATE BRANCH dev WITH (from_version = 4) IN TABLE history");
        assertUpdate("UPDATE history SET name = 'updated-' || CAST(id AS varchar) WHERE id IN (5, 15)", 2);
        assertUpdate("INSERT INTO history VALUES (20, 'name-20'), (21, 'name-21')", 2);
        assertUpdate("CALL lance.system.shallow_clone('interop', 'history', 'lab', 'trino_clone', '6')");
        assertUpdate("DELETE FROM history WHERE id = 2", 1);
        // dev 5, 6; deeper, a branch of dev, forks at dev 6; tags into both branches
        assertUpdate("INSERT INTO history @ dev VALUES (100, 'name-100'), (101, 'name-101'), (102, 'name-102')", 3);
        assertUpdate("DELETE FROM history @ dev WHERE id = 0", 1);
        assertUpdate("CREATE BRANCH deeper IN TABLE history FROM dev");
        assertUpdate("INSERT INTO history @ deeper VALUES (200, 'name-200')", 1);
        assertUpdate("CALL lance.system.create_tag('interop', 'history', 'deeptag', 'deeper')");
        assertUpdate("INSERT INTO history @ deeper VALUES (201, 'name-201')", 1);
        assertUpdate("CALL lance.system.create_tag('interop', 'history', 'devtag', 'dev@5')");
        assertUpdate("INSERT INTO history @ dev VALUES (103, 'name-103'), (104, 'name-104')", 2);
        // main 8 merges dev 7; then dev drops the rows it gave main, whose files main now reads from dev's directory
        assertThat(metric(computeActual("ALTER TABLE history EXECUTE merge_branch(source => 'dev')"), "target_version")).isEqualTo(8);
        assertUpdate("DELETE FROM history @ dev WHERE id >= 100", 5);
        assertUpdate("INSERT INTO history VALUES (30, 'name-30')", 1);
        // the SDK's own shallow clones: of main 5 in another schema of the warehouse, of main 7 outside it
        Path sdkClone = cloneTable("sdk_clone");
        Path outsideClone = TemporaryWarehouses.create("lance-outside").resolve("outside_clone.lance");
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table);
                Dataset clone = dataset.shallowClone(sdkClone.toUri().toString(), Ref.ofMain(5));
                Dataset outside = dataset.shallowClone(outsideClone.toUri().toString(), Ref.ofMain(7))) {
            assertThat(clone.version()).isEqualTo(5);
            assertThat(outside.version()).isEqualTo(7);
        }
        Path trinoClone = cloneTable("trino_clone");
        assertThat(trinoVersions("history")).isEqualTo(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L));
        assertThat(trinoVersions("history@dev")).isEqualTo(List.of(4L, 5L, 6L, 7L, 8L));
        assertThat(trinoVersions("history@deeper")).isEqualTo(List.of(6L, 7L, 8L));

        Map<String, List<MaterializedRow>> before = trinoRowsOfEveryRef("history");
        before.put("lab.trino_clone", trinoRows("lab.trino_clone"));
        before.put("lab.sdk_clone", trinoRows("lab.sdk_clone"));
        assertThat(before.get("lab.sdk_clone")).containsExactlyInAnyOrderElementsOf(before.get("history FOR VERSION AS OF 5"));
        assertThat(SdkScans.scanRows(outsideClone, Ref.ofMain(), List.of("id", "name"))).containsExactlyInAnyOrderElementsOf(before.get("history FOR VERSION AS OF 7"));
        // main reads the merged rows from files only dev's directory holds
        assertThat(ids(before.get("history"))).contains(100L, 101L, 102L, 103L, 104L).doesNotContain(0L, 1L, 2L, 11L);
        FileAges.ageAll(table);
        Path orphan = Files.write(table.resolve("data/left-by-a-killed-write.lance"), new byte[100]);
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));

        Map<String, Long> metrics = cleanup("history");
        // kept: main 3 (gold), 4 (dev's fork point), 5 (the SDK clone's source, found by scanning the warehouse),
        // 6 (the pinned clone's source), 8 (the merge commit), 9 (latest); dev 5 (devtag), 6 (deeper's fork point),
        // 7 (merged into main; counted as merge history, since dev 8 deleted whole fragments), 8 (latest); deeper 7
        // (deeptag), 8 (latest)
        assertThat(metrics).containsEntry("versions_removed", 5L)
                .containsEntry("versions_kept_latest", 3L)
                .containsEntry("versions_kept_tagged", 3L)
                .containsEntry("versions_kept_branch_point", 3L)
                .containsEntry("versions_kept_merge_history", 1L)
                .containsEntry("versions_kept_clone_source", 2L)
                .containsEntry("versions_kept_within_retention", 0L)
                .containsEntry("orphan_files_removed", 1L);
        assertThat(orphan).doesNotExist();

        // the SDK lists what Trino lists: the versions left on every branch, the branches and the tags
        assertThat(sdkVersions(table, Ref.ofMain())).isEqualTo(trinoVersions("history")).isEqualTo(List.of(3L, 4L, 5L, 6L, 8L, 9L));
        assertThat(sdkVersions(table, Ref.ofBranch("dev"))).isEqualTo(trinoVersions("history@dev")).isEqualTo(List.of(5L, 6L, 7L, 8L));
        assertThat(sdkVersions(table, Ref.ofBranch("deeper"))).isEqualTo(trinoVersions("history@deeper")).isEqualTo(List.of(7L, 8L));
        assertThat(sdkBranches(table)).isEqualTo(Map.of("dev", "main@4", "deeper", "dev@6"));
        assertThat(sdkTags(table)).isEqualTo(Map.of("gold", "main@3", "devtag", "dev@5", "deeptag", "deeper@7"));
        // ... checks out every one of them and reads the rows Trino read before the cleanup; so does Trino
        int compared = assertRetainedRefsReadAsBefore("history", table, before);
        assertThat(compared).isEqualTo(6 + 4 + 2 + 3);
        assertSameAsBefore("lab.trino_clone", trinoClone, Ref.ofMain(), before);
        assertSameAsBefore("lab.sdk_clone", sdkClone, Ref.ofMain(), before);
        // a clone outside the warehouse is invisible to this cleanup as to Lance's: main 7's deletion file went
        assertThatThrownBy(() -> SdkScans.scan(outsideClone, Ref.ofMain())).hasMessageMatching("(?s).*Not found: .*history\\.lance/_deletions/.*");
        // what went is gone for the SDK too
        for (Ref removed : List.of(Ref.ofMain(1), Ref.ofMain(2), Ref.ofMain(7), Ref.ofBranch("dev", 4), Ref.ofBranch("deeper", 6))) {
            assertThatThrownBy(() -> SdkScans.countRows(table, removed)).as("%s", removed).hasMessageContaining("was not found");
        }
        // every version left keeps its transaction file
        assertThat(versionsWithoutTransactionFile(table)).isEmpty();
        assertThat(versionsWithoutTransactionFile(table.resolve("tree/dev"))).isEmpty();

        // the SDK appends to the cleaned main and dev; Trino reads the new rows, the SDK reads what Trino reads
        assertThat(LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(900, 903))).isEqualTo(10);
        assertThat(LanceFixtures.append(table.resolve("tree/dev"), ID_NAME_SCHEMA, idNameRows(910, 912))).isEqualTo(9);
        assertThat(ids(trinoRows("history"))).isEqualTo(plus(ids(before.get("history")), 900, 901, 902));
        assertThat(ids(trinoRows("history FOR VERSION AS OF 'dev'"))).isEqualTo(plus(ids(before.get("history FOR VERSION AS OF 'dev'")), 910, 911));
        assertSameRows("history", table, Ref.ofMain());
        assertSameRows("history FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"));
        assertSameRows("history FOR VERSION AS OF 'deeptag'", table, Ref.ofTag("deeptag"));
    }

    @Test
    void testSdkTableCleanedHereReadsAlikeInBothEngines()
            throws Exception
    {
        // main 1: 0..9, 2: 0..19, 3: 0..24; dev from main 2: 2, 3 (devtag), 4; feat/x from dev 3: 3, 4 (fixture)
        Path table = LanceFixtures.branches(warehouse.resolve(SCHEMA), "sdk_made");
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            // main 4: a deletion file; a tag on main 1
            dataset.delete("id < 3");
            dataset.tags().create("first", 1);
        }
        assertThat(trinoVersions("sdk_made")).isEqualTo(List.of(1L, 2L, 3L, 4L));
        assertThat(trinoVersions("\"sdk_made@feat/x\"")).isEqualTo(List.of(3L, 4L));
        Map<String, List<MaterializedRow>> before = trinoRowsOfEveryRef("sdk_made");
        FileAges.ageAll(table);

        Map<String, Long> metrics = cleanup("sdk_made");
        // kept: main 1 (first), 2 (dev's fork point), 4 (latest); dev 3 (devtag and feat/x's fork point), 4 (latest);
        // feat/x 4 (latest). Removed: main 3 and the branches' first versions (copies of their parents' manifests)
        assertThat(metrics).containsEntry("versions_removed", 3L)
                .containsEntry("versions_kept_latest", 3L)
                .containsEntry("versions_kept_tagged", 2L)
                .containsEntry("versions_kept_branch_point", 1L)
                .containsEntry("data_files_removed", 0L)
                .containsEntry("deletion_files_removed", 0L);
        assertThat(sdkVersions(table, Ref.ofMain())).isEqualTo(trinoVersions("sdk_made")).isEqualTo(List.of(1L, 2L, 4L));
        assertThat(sdkVersions(table, Ref.ofBranch("dev"))).isEqualTo(trinoVersions("sdk_made@dev")).isEqualTo(List.of(3L, 4L));
        assertThat(sdkVersions(table, Ref.ofBranch("feat/x"))).isEqualTo(trinoVersions("\"sdk_made@feat/x\"")).isEqualTo(List.of(4L));
        assertThat(sdkBranches(table)).isEqualTo(Map.of("dev", "main@2", "feat/x", "dev@3"));
        assertThat(sdkTags(table)).isEqualTo(Map.of("devtag", "dev@3", "first", "main@1"));
        assertThat(assertRetainedRefsReadAsBefore("sdk_made", table, before)).isEqualTo(3 + 2 + 1 + 2);

        // both engines keep writing the cleaned table
        assertThat(LanceFixtures.append(table.resolve("tree/feat/x"), ID_NAME_SCHEMA, idNameRows(300, 302))).isEqualTo(5);
        assertUpdate("INSERT INTO sdk_made @ dev VALUES (400, 'name-400')", 1);
        assertUpdate("INSERT INTO sdk_made VALUES (500, 'name-500')", 1);
        assertThat(ids(trinoRows("sdk_made FOR VERSION AS OF 'feat/x'"))).isEqualTo(plus(ids(before.get("sdk_made FOR VERSION AS OF 'feat/x'")), 300, 301));
        assertSameRows("sdk_made", table, Ref.ofMain());
        assertSameRows("sdk_made FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"));
        assertSameRows("sdk_made FOR VERSION AS OF 'feat/x'", table, Ref.ofBranch("feat/x"));
        assertThat(ids(SdkScans.scanRows(table, Ref.ofMain(), List.of("id", "name")))).isEqualTo(plus(ids(before.get("sdk_made")), 500));
    }

    // -----------------------------------------------------------------------------------------------------------------
    // Lance's own cleanup on a table made here

    @Test
    void testLanceCleanupOnTableMadeHere()
            throws Exception
    {
        Path table = createTable("lance_gc");
        // dev forks at main 2, gold tags main 3, fix forks at main 4, a clone in another schema reads main 5;
        // main 6 and 7 replace the deletion files of 4 and 5
        assertUpdate("CREATE BRANCH dev WITH (from_version = 2) IN TABLE lance_gc");
        assertUpdate("CALL lance.system.create_tag('interop', 'lance_gc', 'gold', '3')");
        assertUpdate("DELETE FROM lance_gc WHERE id = 1", 1);
        assertUpdate("CREATE BRANCH fix IN TABLE lance_gc");
        assertUpdate("DELETE FROM lance_gc WHERE id = 11", 1);
        assertUpdate("CALL lance.system.shallow_clone('interop', 'lance_gc', 'lab', 'gc_clone', '5')");
        assertUpdate("DELETE FROM lance_gc WHERE id = 2", 1);
        assertUpdate("DELETE FROM lance_gc WHERE id = 12", 1);
        // main 8 adds a fragment that dev takes in by merging main (dev 4), and main 9 drops it: afterwards only dev
        // reads that file of main's directory
        assertUpdate("INSERT INTO lance_gc VALUES (20, 'name-20'), (21, 'name-21')", 2);
        assertUpdate("INSERT INTO lance_gc @ dev VALUES (100, 'name-100'), (101, 'name-101')", 2);
        assertUpdate("CALL lance.system.create_tag('interop', 'lance_gc', 'devtag', 'dev@3')");
        assertThat(metric(computeActual("ALTER TABLE lance_gc EXECUTE merge_branch(source => 'main', target => 'dev')"), "target_version")).isEqualTo(4);
        assertUpdate("DELETE FROM lance_gc WHERE id >= 20", 2);
        // deeper forks at dev 4; a tag into it at deeper 5
        assertUpdate("CREATE BRANCH deeper IN TABLE lance_gc FROM dev");
        assertUpdate("INSERT INTO lance_gc @ deeper VALUES (200, 'name-200')", 1);
        assertUpdate("CALL lance.system.create_tag('interop', 'lance_gc', 'deeptag', 'deeper')");
        assertUpdate("INSERT INTO lance_gc @ deeper VALUES (201, 'name-201')", 1);
        // dev 5 adds rows that main 10 merges; dev 6 drops them again: afterwards only main reads that file of dev's
        assertUpdate("INSERT INTO lance_gc @ dev VALUES (103, 'name-103'), (104, 'name-104')", 2);
        assertThat(metric(computeActual("ALTER TABLE lance_gc EXECUTE merge_branch(source => 'dev')"), "target_version")).isEqualTo(10);
        assertUpdate("DELETE FROM lance_gc @ dev WHERE id >= 103", 2);
        assertQuery("SELECT name, type, branch, version, parent_branch, parent_version FROM \"lance_gc$refs\" WHERE name <> 'main'",
                "VALUES ('dev', 'BRANCH', 'dev', 6, 'main', 2), ('fix', 'BRANCH', 'fix', 4, 'main', 4), ('deeper', 'BRANCH', 'deeper', 6, 'dev', 4), " +
                        "('gold', 'TAG', 'main', 3, NULL, NULL), ('devtag', 'TAG', 'dev', 3, NULL, NULL), ('deeptag', 'TAG', 'deeper', 5, NULL, NULL)");
        Path clone = cloneTable("gc_clone");
        Map<String, List<MaterializedRow>> before = new HashMap<>();
        for (String relation : List.of("lance_gc", "lab.gc_clone", "lance_gc FOR VERSION AS OF 2", "lance_gc FOR VERSION AS OF 4")) {
            before.put(relation, trinoRows(relation));
        }
        for (String ref : List.of("gold", "fix", "dev", "dev@4", "devtag", "deeper", "deeptag")) {
            before.put(relation("lance_gc", ref), trinoRows(relation("lance_gc", ref)));
        }
        assertThat(ids(before.get("lance_gc"))).contains(100L, 103L).doesNotContain(20L);
        assertThat(ids(before.get("lance_gc FOR VERSION AS OF 'dev'"))).contains(20L, 21L).doesNotContain(103L);
        FileAges.ageAll(table);
        Path orphan = Files.write(table.resolve("data/left-by-a-killed-write.lance"), new byte[100]);
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));
        Set<String> filesBefore = files(table);

        // 1. by default Lance refuses while a tag names an old version; its message also names tags of other
        // branches that carry the same version number (devtag is dev 3, not main 3). Nothing is deleted.
        assertThatThrownBy(() -> sdkCleanup(table, Ref.ofMain(), CleanupPolicy.builder().withBeforeVersion(10).build()))
                .hasMessageContaining("tagged version(s) have been marked for cleanup")
                .hasMessageContaining("\"gold\": 3")
                .hasMessageContaining("\"devtag\": 3");
        assertThat(files(table)).isEqualTo(filesBefore);

        // 2. on main, without that error: main 1, 5..9 go; main 3 (gold) and the fork points 2 (dev) and 4 (fix) stay,
        // but Lance drops the transaction files of the fork points it keeps. Tags count on their own branch only:
        // main 5 goes although deeptag names deeper 5. Branch directories are not touched, even with the cascade
        // into referenced branches on (Lance's source cascades only into branches with lance.auto_cleanup.* config,
        // which tables made here do not carry).
        RemovalStats main = sdkCleanup(table, Ref.ofMain(), CleanupPolicy.builder()
                .withBeforeVersion(10)
                .withErrorIfTaggedOldVersions(false)
                .withCleanReferencedBranches(true)
                .build());
        assertThat(main.getOldVersions()).isEqualTo(6);
        assertThat(main.getDataFilesRemoved()).isEqualTo(0);
        assertThat(main.getDeletionFilesRemoved()).isEqualTo(1);
        assertThat(sdkVersions(table, Ref.ofMain())).isEqualTo(List.of(2L, 3L, 4L, 10L));
        assertThat(versionsWithoutTransactionFile(table)).isEqualTo(List.of(2L, 4L));
        assertThat(filesUnder(table, "tree/")).isEqualTo(filesUnder(filesBefore, "tree/"));
        // an unreferenced file an hour old stays: Lance waits 7 days for files no manifest names
        assertThat(orphan).exists();
        // what branches read of main's directory stays: fix's fork point, and the fragment dev took in by a merge
        Map<String, Ref> kept = Map.of(
                "lance_gc", Ref.ofMain(),
                "lance_gc FOR VERSION AS OF 'gold'", Ref.ofTag("gold"),
                "lance_gc FOR VERSION AS OF 2", Ref.ofMain(2),
                "lance_gc FOR VERSION AS OF 4", Ref.ofMain(4),
                "lance_gc FOR VERSION AS OF 'fix'", Ref.ofBranch("fix"),
                "lance_gc FOR VERSION AS OF 'dev'", Ref.ofBranch("dev"),
                "lance_gc FOR VERSION AS OF 'dev@4'", Ref.ofBranch("dev", 4),
                "lance_gc FOR VERSION AS OF 'deeper'", Ref.ofBranch("deeper"),
                "lance_gc FOR VERSION AS OF 'deeptag'", Ref.ofTag("deeptag"));
        kept.forEach((relation, ref) -> assertSameAsBefore(relation, table, ref, before));
        // the shallow clone in another schema is not: the deletion file of main 5 it reads is gone (lance-format/lance#7514)
        Throwable sdkFailure = catchThrowable(() -> SdkScans.scan(clone, Ref.ofMain()));
        Matcher missing = Pattern.compile("_deletions/[0-9]+-[0-9]+-[0-9]+\\.arrow").matcher(String.valueOf(sdkFailure));
        assertThat(missing.find()).as("SDK read of the clone: %s", sdkFailure).isTrue();
        String cloneDeletionFile = missing.group();
        assertThat(filesBefore).contains(cloneDeletionFile);
        assertThat(table.resolve(cloneDeletionFile)).doesNotExist();
        assertQueryFails("SELECT * FROM lab.gc_clone", ".*deletion file .*" + Pattern.quote(cloneDeletionFile) + " does not exist.*");
        // Lance ignores the pin this connector wrote for the clone
        assertThat(filesUnder(table, "_refs/clones/")).hasSize(1);

        // 3. on dev: devtag (dev 3) and deeper's fork point (dev 4) stay, dev 2 (the fork copy) and dev 5 go. dev 5's
        // rows were merged into main, whose latest version now cannot be read by either engine.
        assertThatThrownBy(() -> sdkCleanup(table, Ref.ofBranch("dev"), CleanupPolicy.builder().withBeforeVersion(6).build()))
                .hasMessageContaining("\"devtag\": 3");
        RemovalStats dev = sdkCleanup(table, Ref.ofBranch("dev"), CleanupPolicy.builder().withBeforeVersion(6).withErrorIfTaggedOldVersions(false).build());
        assertThat(dev.getOldVersions()).isEqualTo(2);
        assertThat(dev.getDataFilesRemoved()).isEqualTo(1);
        assertThat(sdkVersions(table, Ref.ofBranch("dev"))).isEqualTo(List.of(3L, 4L, 6L));
        assertSameAsBefore("lance_gc FOR VERSION AS OF 'devtag'", table, Ref.ofTag("devtag"), before);
        assertSameAsBefore("lance_gc FOR VERSION AS OF 'deeper'", table, Ref.ofBranch("deeper"), before);
        assertSameAsBefore("lance_gc FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), before);
        assertThatThrownBy(() -> SdkScans.scan(table, Ref.ofMain())).hasMessageContaining("tree/dev/data/");
        assertQueryFails("SELECT * FROM lance_gc", ".*cannot open data file .*/tree/dev/data/.* not found.*");

        // 4. on deeper: deeptag (deeper 5) stays, the fork copy deeper 4 goes
        RemovalStats deeper = sdkCleanup(table, Ref.ofBranch("deeper"), CleanupPolicy.builder().withBeforeVersion(6).withErrorIfTaggedOldVersions(false).build());
        assertThat(deeper.getOldVersions()).isEqualTo(1);
        assertThat(sdkVersions(table, Ref.ofBranch("deeper"))).isEqualTo(List.of(5L, 6L));
        assertSameAsBefore("lance_gc FOR VERSION AS OF 'deeptag'", table, Ref.ofTag("deeptag"), before);
    }

    // -----------------------------------------------------------------------------------------------------------------
    // helpers

    /** Table {@code (id bigint NOT NULL, name varchar)}: version 2 holds ids 0..9, version 3 ids 0..19. */
    private Path createTable(String name)
    {
        assertUpdate("CREATE TABLE " + name + " (id bigint NOT NULL, name varchar)");
        assertUpdate("INSERT INTO " + name + " SELECT x, 'name-' || CAST(x AS varchar) FROM UNNEST(sequence(0, 9)) AS t(x)", 10);
        assertUpdate("INSERT INTO " + name + " SELECT x, 'name-' || CAST(x AS varchar) FROM UNNEST(sequence(10, 19)) AS t(x)", 10);
        return warehouse.resolve(SCHEMA).resolve(name + ".lance");
    }

    private Path cloneTable(String name)
    {
        return warehouse.resolve(CLONES).resolve(name + ".lance");
    }

    private Map<String, Long> cleanup(String table)
    {
        Session session = Session.builder(getSession()).setCatalogSessionProperty(CATALOG, "cleanup_min_retention", "0s").build();
        Map<String, Long> metrics = new HashMap<>();
        for (MaterializedRow row : computeActual(session, "ALTER TABLE " + table + " EXECUTE cleanup(retention_threshold => '0s', dry_run => false)").getMaterializedRows()) {
            metrics.put((String) row.getField(0), (Long) row.getField(1));
        }
        return metrics;
    }

    private static RemovalStats sdkCleanup(Path table, Ref ref, CleanupPolicy policy)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset root = LanceFixtures.open(allocator, table);
                Dataset checkedOut = root.checkout(ref)) {
            return checkedOut.cleanupWithPolicy(policy);
        }
    }

    /**
     * Trino's rows of every version of main and of every branch, every branch head and every tag, keyed by the
     * relation Trino reads ({@code t FOR VERSION AS OF 'dev@5'}).
     */
    private Map<String, List<MaterializedRow>> trinoRowsOfEveryRef(String table)
    {
        Map<String, List<MaterializedRow>> rows = new LinkedHashMap<>();
        for (MaterializedRow ref : computeActual("SELECT name, type FROM \"%s$refs\"".formatted(table)).getMaterializedRows()) {
            String name = (String) ref.getField(0);
            if (name.equals("main")) {
                rows.put(table, trinoRows(table));
                for (long version : trinoVersions(table)) {
                    rows.put(relation(table, "main", version), trinoRows(relation(table, "main", version)));
                }
                continue;
            }
            rows.put(relation(table, name), trinoRows(relation(table, name)));
            if (ref.getField(1).equals("BRANCH")) {
                for (long version : trinoVersions("\"%s@%s\"".formatted(table, name))) {
                    rows.put(relation(table, name, version), trinoRows(relation(table, name, version)));
                }
            }
        }
        return rows;
    }

    /**
     * For every version of every branch that is left, every branch head and every tag: the SDK reads the rows Trino
     * read before the cleanup, and so does Trino. Returns how many refs were compared.
     */
    private int assertRetainedRefsReadAsBefore(String table, Path dataset, Map<String, List<MaterializedRow>> before)
    {
        int compared = 0;
        for (MaterializedRow ref : computeActual("SELECT name, type FROM \"%s$refs\"".formatted(table)).getMaterializedRows()) {
            String name = (String) ref.getField(0);
            boolean branch = ref.getField(1).equals("BRANCH");
            if (name.equals("main")) {
                assertSameAsBefore(table, dataset, Ref.ofMain(), before);
                for (long version : sdkVersions(dataset, Ref.ofMain())) {
                    assertSameAsBefore(relation(table, "main", version), dataset, Ref.ofMain(version), before);
                    compared++;
                }
                continue;
            }
            assertSameAsBefore(relation(table, name), dataset, branch ? Ref.ofBranch(name) : Ref.ofTag(name), before);
            compared += branch ? 0 : 1;
            if (branch) {
                for (long version : sdkVersions(dataset, Ref.ofBranch(name))) {
                    assertSameAsBefore(relation(table, name, version), dataset, Ref.ofBranch(name, version), before);
                    compared++;
                }
            }
        }
        return compared;
    }

    private void assertSameAsBefore(String relation, Path dataset, Ref ref, Map<String, List<MaterializedRow>> before)
    {
        List<MaterializedRow> expected = before.get(relation);
        assertThat(expected).as("rows read before the cleanup from %s", relation).isNotNull();
        assertThat(SdkScans.scanRows(dataset, ref, List.of("id", "name"))).as("SDK rows at %s against Trino's of %s before the cleanup", ref, relation)
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(trinoRows(relation)).as("Trino rows of %s against those before the cleanup", relation).containsExactlyInAnyOrderElementsOf(expected);
    }

    private void assertSameRows(String relation, Path dataset, Ref ref)
    {
        assertThat(SdkScans.scanRows(dataset, ref, List.of("id", "name"))).as("SDK rows at %s against Trino's of %s", ref, relation)
                .containsExactlyInAnyOrderElementsOf(trinoRows(relation));
    }

    private static String relation(String table, String ref)
    {
        return "%s FOR VERSION AS OF '%s'".formatted(table, ref);
    }

    private static String relation(String table, String branch, long version)
    {
        return branch.equals("main") ? "%s FOR VERSION AS OF %s".formatted(table, version) : relation(table, branch + "@" + version);
    }

    private List<MaterializedRow> trinoRows(String relation)
    {
        return computeActual("SELECT id, name FROM " + relation).getMaterializedRows();
    }

    /** Versions of a table or {@code "t@branch"}, oldest first, as {@code "t$versions"} lists them. */
    private List<Long> trinoVersions(String table)
    {
        String name = table.startsWith("\"") ? table.substring(0, table.length() - 1) + "$versions\"" : "\"" + table + "$versions\"";
        return computeActual("SELECT version FROM " + name + " ORDER BY version").getOnlyColumn().map(Long.class::cast).toList();
    }

    private static List<Long> sdkVersions(Path table, Ref branch)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset root = LanceFixtures.open(allocator, table);
                Dataset checkedOut = root.checkout(branch)) {
            return checkedOut.listVersions().stream().map(Version::getId).sorted().toList();
        }
    }

    /** Branch name → {@code parent@version}, as the SDK lists them. */
    private static Map<String, String> sdkBranches(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.branches().list().stream().collect(Collectors.toMap(Branch::getName,
                    branch -> branch.getParentBranch().orElse("main") + "@" + branch.getParentVersion()));
        }
    }

    /** Tag name → {@code branch@version}, as the SDK lists them. */
    private static Map<String, String> sdkTags(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.tags().list().stream().collect(Collectors.toMap(Tag::getName,
                    tag -> tag.getBranch().orElse("main") + "@" + tag.getVersion()));
        }
    }

    /** Versions in {@code <dataset>/_versions} whose manifest names a transaction file that is not there. */
    private static List<Long> versionsWithoutTransactionFile(Path dataset)
            throws IOException
    {
        List<Long> missing = new ArrayList<>();
        try (Stream<Path> manifests = Files.list(dataset.resolve("_versions"))) {
            for (Path manifest : manifests.filter(file -> file.getFileName().toString().endsWith(".manifest")).toList()) {
                ManifestFile parsed = ManifestFile.parse(manifest.toString(), Files.readAllBytes(manifest));
                String transaction = parsed.manifest().getTransactionFile();
                if (!transaction.isEmpty() && !Files.exists(dataset.resolve("_transactions").resolve(transaction))) {
                    missing.add(parsed.version());
                }
            }
        }
        return missing.stream().sorted().toList();
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

    private static Set<String> filesUnder(Path directory, String prefix)
    {
        return filesUnder(files(directory), prefix);
    }

    private static Set<String> filesUnder(Set<String> files, String prefix)
    {
        return files.stream().filter(file -> file.startsWith(prefix)).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Sets every file's modification time an hour back, so a zero threshold does not depend on clock granularity. */

    private static long metric(MaterializedResult result, String name)
    {
        return result.getMaterializedRows().stream()
                .filter(row -> row.getField(0).equals(name))
                .map(row -> (Long) row.getField(1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + result));
    }

    private static List<Long> ids(List<MaterializedRow> rows)
    {
        return rows.stream().map(row -> (Long) row.getField(0)).sorted().toList();
    }

    private static List<Long> plus(List<Long> ids, long... added)
    {
        List<Long> result = new ArrayList<>(ids);
        for (long id : added) {
            result.add(id);
        }
        return result.stream().sorted().toList();
    }
}
