package io.lancetrino.tests;

import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.lancetrino.tests.fixtures.LanceFixtures.ID_NAME_SCHEMA;
import static io.lancetrino.tests.fixtures.LanceFixtures.idNameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Branches, tags, clones and merges used across engines: what this connector makes, the Lance Java SDK lists, checks
 * out, reads with the same rows as Trino, and appends to; what the SDK makes, Trino reads, writes, tags, drops and
 * merges, and the SDK then reads as Trino does. Rows are compared as multisets of {@code (id, name)}.
 */
final class TestLanceRefCompatibility
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "interop";
    private static final String CLONES = "lab";

    private Path warehouse;
    private Path sdkBranches;
    private LanceFixtures.ShallowClone sdkClone;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-ref-compat");
        Path schema = Files.createDirectories(warehouse.resolve(SCHEMA));
        Files.createDirectories(warehouse.resolve(CLONES));
        sdkBranches = LanceFixtures.branches(schema, "sdk_branches");
        // source and clone side by side in the schema directory: both are tables of the catalog
        sdkClone = LanceFixtures.shallowClone(schema, "sdk_source", "sdk_clone");
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    // -----------------------------------------------------------------------------------------------------------------
    // made here, used by the SDK

    @Test
    void testBranchesMadeHereAreListedReadAndAppendedBySdk()
    {
        Path table = createTable("made_here");
        assertUpdate("CREATE BRANCH dev IN TABLE made_here");
        assertUpdate("CREATE BRANCH fix WITH (from_version = 2) IN TABLE made_here");
        assertUpdate("INSERT INTO made_here @ dev VALUES (100, 'name-100'), (101, 'name-101'), (102, 'name-102')", 3);
        assertUpdate("DELETE FROM made_here @ dev WHERE id < 3", 3);
        assertUpdate("CREATE BRANCH \"feat/x\" IN TABLE made_here FROM dev");
        assertUpdate("INSERT INTO made_here @ \"feat/x\" VALUES (200, 'name-200')", 1);
        assertUpdate("DELETE FROM made_here @ fix WHERE id = 5", 1);
        assertThat(table.resolve("_refs/branches/feat%2Fx.json")).isRegularFile();

        Map<String, Branch> branches = sdkBranchesOf(table);
        assertThat(branches.keySet()).containsExactlyInAnyOrder("dev", "fix", "feat/x");
        // a branch of main names no parent branch, as the SDK's own branches do
        assertThat(branches.get("dev").getParentBranch()).isEqualTo(sdkBranchesOf(sdkBranches).get("dev").getParentBranch()).isEmpty();
        assertThat(branches.get("dev").getParentVersion()).isEqualTo(3);
        assertThat(branches.get("fix").getParentBranch()).isEmpty();
        assertThat(branches.get("fix").getParentVersion()).isEqualTo(2);
        assertThat(branches.get("feat/x").getParentBranch()).contains("dev");
        assertThat(branches.get("feat/x").getParentVersion()).isEqualTo(5);
        // creation times in the SDK's unit: this run made both branches, so they are at most minutes apart
        assertThat(branches.get("dev").getCreateAt()).isCloseTo(sdkBranchesOf(sdkBranches).get("dev").getCreateAt(), within(3600L));
        // the identifier is the branch's lineage: feat/x carries dev's entries, then the version it forked at
        List<Branch.BranchVersionMapping> devLineage = branches.get("dev").getBranchIdentifier();
        List<Branch.BranchVersionMapping> featureLineage = branches.get("feat/x").getBranchIdentifier();
        assertThat(devLineage).isNotEmpty();
        assertThat(devLineage.getLast().getVersion()).isEqualTo(3);
        assertThat(featureLineage).hasSize(devLineage.size() + 1);
        assertThat(featureLineage.subList(0, devLineage.size())).isEqualTo(devLineage);
        assertThat(featureLineage.getLast().getVersion()).isEqualTo(5);
        assertThat(featureLineage.getLast().getUuid()).isNotEqualTo(devLineage.getLast().getUuid());

        // the SDK checks out each branch at the head Trino lists, and reads Trino's rows
        assertThat(sdkBranchVersion(table, "dev")).isEqualTo(trinoBranchHead("made_here", "dev")).isEqualTo(5);
        assertThat(sdkBranchVersion(table, "feat/x")).isEqualTo(trinoBranchHead("made_here", "feat/x")).isEqualTo(6);
        assertThat(sdkBranchVersion(table, "fix")).isEqualTo(trinoBranchHead("made_here", "fix")).isEqualTo(3);
        assertSameRows("made_here FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), plus(ids(3, 20), 100, 101, 102));
        assertSameRows("made_here FOR VERSION AS OF 'feat/x'", table, Ref.ofBranch("feat/x"), plus(ids(3, 20), 100, 101, 102, 200));
        assertSameRows("made_here FOR VERSION AS OF 'fix'", table, Ref.ofBranch("fix"), minus(ids(0, 10), 5));
        assertSameRows("made_here FOR VERSION AS OF 'dev@4'", table, Ref.ofBranch("dev", 4), plus(ids(0, 20), 100, 101, 102));

        // the SDK appends through the branch directories; Trino reads its rows there and continues after them
        assertThat(LanceFixtures.append(table.resolve("tree/dev"), ID_NAME_SCHEMA, idNameRows(1000, 1003))).isEqualTo(6);
        assertThat(LanceFixtures.append(table.resolve("tree/feat/x"), ID_NAME_SCHEMA, idNameRows(2000, 2002))).isEqualTo(7);
        assertSameRows("made_here FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), plus(ids(3, 20, 1000, 1003), 100, 101, 102));
        assertSameRows("made_here FOR VERSION AS OF 'feat/x'", table, Ref.ofBranch("feat/x"), plus(ids(3, 20, 2000, 2002), 100, 101, 102, 200));
        assertUpdate("INSERT INTO made_here @ dev VALUES (1003, 'name-1003')", 1);
        assertThat(sdkBranchVersion(table, "dev")).isEqualTo(trinoBranchHead("made_here", "dev")).isEqualTo(7);
        assertSameRows("made_here FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), plus(ids(3, 20, 1000, 1004), 100, 101, 102));
        // main and the other branch are as they were
        assertSameRows("made_here", table, Ref.ofMain(), ids(0, 20));
        assertSameRows("made_here FOR VERSION AS OF 'fix'", table, Ref.ofBranch("fix"), minus(ids(0, 10), 5));
        assertQuery("SELECT max(version) FROM \"made_here$versions\"", "VALUES 3");
    }

    @Test
    void testTagsMadeHereAreListedAndCheckedOutBySdk()
            throws Exception
    {
        Path table = createTable("tagged");
        assertUpdate("CREATE BRANCH dev IN TABLE tagged");
        assertUpdate("INSERT INTO tagged @ dev VALUES (100, 'name-100'), (101, 'name-101')", 2);
        assertUpdate("DELETE FROM tagged @ dev WHERE id = 0", 1);
        assertUpdate("CALL lance.system.create_tag('interop', 'tagged', 'gold', '2')");
        assertUpdate("CALL lance.system.create_tag('interop', 'tagged', 'devtag', 'dev@4')");
        assertUpdate("CALL lance.system.create_tag('interop', 'tagged', 'head', NULL)");

        Map<String, Tag> tags = sdkTags(table);
        assertThat(tags.keySet()).containsExactlyInAnyOrder("gold", "devtag", "head");
        assertThat(tags.get("gold").getBranch()).isEmpty();
        assertThat(tags.get("gold").getVersion()).isEqualTo(2);
        // the SDK reads exactly this many bytes of the manifest the tag names
        assertThat((long) tags.get("gold").getManifestSize()).isEqualTo(Files.size(table.resolve("_versions/" + Long.toUnsignedString(-1L - 2) + ".manifest")));
        assertThat(tags.get("devtag").getBranch()).contains("dev");
        assertThat(tags.get("devtag").getVersion()).isEqualTo(4);
        assertThat(tags.get("head").getBranch()).isEmpty();
        assertThat(tags.get("head").getVersion()).isEqualTo(3);
        assertSameRows("tagged FOR VERSION AS OF 'gold'", table, Ref.ofTag("gold"), ids(0, 10));
        assertSameRows("tagged FOR VERSION AS OF 'devtag'", table, Ref.ofTag("devtag"), plus(ids(0, 20), 100, 101));
        assertSameRows("tagged FOR VERSION AS OF 'head'", table, Ref.ofTag("head"), ids(0, 20));
        // a branch made from a tag forks at the tag's version
        assertUpdate("CREATE BRANCH fromtag WITH (from_tag = 'devtag') IN TABLE tagged");
        Branch fromTag = sdkBranchesOf(table).get("fromtag");
        assertThat(fromTag.getParentBranch()).contains("dev");
        assertThat(fromTag.getParentVersion()).isEqualTo(4);
        assertSameRows("tagged FOR VERSION AS OF 'fromtag'", table, Ref.ofBranch("fromtag"), plus(ids(0, 20), 100, 101));

        Instant created = tags.get("gold").getCreatedAt().orElseThrow();
        // a move made in the same instant as the create could not tell a kept creation time from a new one
        Thread.sleep(10);
        assertUpdate("CALL lance.system.move_tag('interop', 'tagged', 'gold', 'dev')");
        Tag moved = sdkTags(table).get("gold");
        assertThat(moved.getBranch()).contains("dev");
        assertThat(moved.getVersion()).isEqualTo(5);
        assertThat(moved.getCreatedAt()).contains(created);
        assertThat(moved.getUpdatedAt().orElseThrow()).isAfter(created);
        assertSameRows("tagged FOR VERSION AS OF 'gold'", table, Ref.ofTag("gold"), plus(ids(1, 20), 100, 101));

        assertUpdate("CALL lance.system.drop_tag('interop', 'tagged', 'devtag')");
        assertThat(sdkTags(table).keySet()).containsExactlyInAnyOrder("gold", "head");
        assertThatThrownBy(() -> SdkScans.ids(table, Ref.ofTag("devtag"))).hasMessageContaining("devtag");
        // dropping the tag leaves the version it named
        assertSameRows("tagged FOR VERSION AS OF 'dev@4'", table, Ref.ofBranch("dev", 4), plus(ids(0, 20), 100, 101));
    }

    @Test
    void testClonesMadeHereAreReadAndAppendedBySdk()
            throws Exception
    {
        Path source = createTable("clone_source");
        assertUpdate("CREATE BRANCH dev IN TABLE clone_source");
        assertUpdate("INSERT INTO clone_source @ dev VALUES (100, 'name-100'), (101, 'name-101')", 2);
        assertUpdate("DELETE FROM clone_source @ dev WHERE id IN (1, 11)", 2);
        assertUpdate("CALL lance.system.create_tag('interop', 'clone_source', 'gold', '2')");
        assertUpdate("CALL lance.system.shallow_clone('interop', 'clone_source', 'lab', 'shallow_gold', 'gold')");
        assertUpdate("CALL lance.system.shallow_clone('interop', 'clone_source', 'lab', 'shallow_dev', 'dev@5')");
        assertUpdate("CALL lance.system.deep_clone('interop', 'clone_source', 'lab', 'deep_gold', 'gold')");
        assertUpdate("CALL lance.system.deep_clone('interop', 'clone_source', 'lab', 'deep_dev', 'dev@5')");
        Path shallowGold = cloneTable("shallow_gold");
        Path shallowDev = cloneTable("shallow_dev");
        Path deepGold = cloneTable("deep_gold");
        Path deepDev = cloneTable("deep_dev");
        List<Long> gold = ids(0, 10);
        List<Long> dev = minus(plus(ids(0, 20), 100, 101), 1, 11);

        // a shallow clone is metadata only: its rows are read from the source's files
        assertThat(shallowGold.resolve("data")).doesNotExist();
        assertThat(shallowDev.resolve("data")).doesNotExist();
        assertThat(shallowDev.resolve("_deletions")).doesNotExist();
        assertSameRows("lab.shallow_gold", shallowGold, Ref.ofMain(), gold);
        assertSameRows("lab.shallow_dev", shallowDev, Ref.ofMain(), dev);
        assertSameRows("lab.deep_gold", deepGold, Ref.ofMain(), gold);
        assertSameRows("lab.deep_dev", deepDev, Ref.ofMain(), dev);
        // a clone keeps the version number it was made from
        assertThat(sdkVersion(shallowDev)).isEqualTo(5);
        assertThat(sdkVersion(deepGold)).isEqualTo(2);

        // a deep clone owns copies of every file it reads; a shallow clone names the source in a base path
        assertThat(basePaths(deepDev)).isEmpty();
        assertThat(basePaths(deepGold)).isEmpty();
        // (dev reads main's files through a base path of its own, which its clone inherits)
        assertThat(basePaths(shallowDev)).containsExactlyInAnyOrder(source.resolve("tree/dev").toString(), source.toString());
        assertThat(basePaths(shallowGold)).containsExactly(source.toString());
        assertThat(fragmentsWithBasePath("lab.\"deep_dev$fragments\"")).isEqualTo(List.of(3L, 0L));
        assertThat(fragmentsWithBasePath("lab.\"shallow_dev$fragments\"")).isEqualTo(List.of(3L, 3L));
        assertThat(deepDev.resolve("data")).isNotEmptyDirectory();
        assertThat(deepDev.resolve("_deletions")).isNotEmptyDirectory();

        // the SDK appends to each clone; Trino reads the appended rows, the source is unchanged
        for (Path clone : List.of(shallowGold, shallowDev, deepGold, deepDev)) {
            LanceFixtures.append(clone, ID_NAME_SCHEMA, idNameRows(500, 503));
        }
        assertThat(fileCount(shallowGold.resolve("data"))).isEqualTo(1);
        assertSameRows("lab.shallow_gold", shallowGold, Ref.ofMain(), plus(gold, 500, 501, 502));
        assertSameRows("lab.shallow_dev", shallowDev, Ref.ofMain(), plus(dev, 500, 501, 502));
        assertSameRows("lab.deep_gold", deepGold, Ref.ofMain(), plus(gold, 500, 501, 502));
        assertSameRows("lab.deep_dev", deepDev, Ref.ofMain(), plus(dev, 500, 501, 502));
        assertSameRows("clone_source FOR VERSION AS OF 'dev'", source, Ref.ofBranch("dev"), dev);
        assertSameRows("clone_source", source, Ref.ofMain(), ids(0, 20));

        // deep clones still read, for both engines, once the source is gone
        assertUpdate("DROP TABLE clone_source");
        assertThat(source).doesNotExist();
        assertSameRows("lab.deep_gold", deepGold, Ref.ofMain(), plus(gold, 500, 501, 502));
        assertSameRows("lab.deep_dev", deepDev, Ref.ofMain(), plus(dev, 500, 501, 502));
        assertUpdate("INSERT INTO lab.deep_dev VALUES (600, 'name-600')", 1);
        assertThat(basePaths(deepDev)).isEmpty();
        assertSameRows("lab.deep_dev", deepDev, Ref.ofMain(), plus(dev, 500, 501, 502, 600));
    }

    // -----------------------------------------------------------------------------------------------------------------
    // made by the SDK, used here

    @Test
    void testSdkBranchesAreWrittenTaggedDroppedAndMergedHere()
    {
        Path table = sdkBranches;
        // the fixture's documented contents, read alike by both engines
        assertSameRows("sdk_branches", table, Ref.ofMain(), ids(0, 25));
        assertSameRows("sdk_branches FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), ids(0, 20, 100, 110));
        assertSameRows("sdk_branches FOR VERSION AS OF 'feat/x'", table, Ref.ofBranch("feat/x"), ids(0, 20, 100, 105, 200, 203));
        assertSameRows("sdk_branches FOR VERSION AS OF 'devtag'", table, Ref.ofTag("devtag"), ids(0, 20, 100, 105));

        // Trino continues the SDK's branch: its next version, in the branch's directory
        assertUpdate("INSERT INTO sdk_branches @ dev VALUES (500, 'name-500')", 1);
        assertThat(sdkBranchVersion(table, "dev")).isEqualTo(5);
        assertSameRows("sdk_branches FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), plus(ids(0, 20, 100, 110), 500));
        assertSameRows("sdk_branches", table, Ref.ofMain(), ids(0, 25));

        assertUpdate("CALL lance.system.create_tag('interop', 'sdk_branches', 'trinotag', 'dev')");
        Map<String, Tag> tags = sdkTags(table);
        assertThat(tags.keySet()).containsExactlyInAnyOrder("devtag", "trinotag");
        assertThat(tags.get("trinotag").getBranch()).contains("dev");
        assertThat(tags.get("trinotag").getVersion()).isEqualTo(5);
        assertSameRows("sdk_branches FOR VERSION AS OF 'trinotag'", table, Ref.ofTag("trinotag"), plus(ids(0, 20, 100, 110), 500));

        assertUpdate("DROP BRANCH \"feat/x\" IN TABLE sdk_branches");
        assertThat(sdkBranchesOf(table).keySet()).containsExactly("dev");
        assertThat(table.resolve("tree/feat/x")).doesNotExist();
        assertThat(table.resolve("_refs/branches/feat%2Fx.json")).doesNotExist();
        assertThatThrownBy(() -> SdkScans.ids(table, Ref.ofBranch("feat/x"))).hasMessageContaining("feat/x");

        // main moved on (20..24) after dev forked at main 2: a three-way merge adds dev's new fragments to main
        MaterializedResult merged = computeActual("ALTER TABLE sdk_branches EXECUTE merge_branch(source => 'dev')");
        assertThat(metric(merged, "rows_added")).isEqualTo(11);
        assertThat(metric(merged, "conflicts")).isEqualTo(0);
        assertThat(metric(merged, "fast_forward")).isEqualTo(0);
        assertThat(metric(merged, "target_version")).isEqualTo(4);
        List<Long> mergedMain = plus(ids(0, 25, 100, 110), 500);
        assertSameRows("sdk_branches", table, Ref.ofMain(), mergedMain);
        assertThat(sdkVersion(table)).isEqualTo(4);
        // the SDK continues main after the merge commit
        assertThat(LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(700, 702))).isEqualTo(5);
        assertSameRows("sdk_branches", table, Ref.ofMain(), plus(mergedMain, 700, 701));
        assertSameRows("sdk_branches FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), plus(ids(0, 20, 100, 110), 500));
    }

    @Test
    void testSdkShallowCloneIsWrittenAndMergedBackHere()
    {
        List<Long> cloned = minus(ids(0, 20), 3, 13);
        assertSameRows("sdk_clone", sdkClone.target(), Ref.ofMain(), plus(cloned, 100, 101, 102, 103, 104));
        assertSameRows("sdk_clone FOR VERSION AS OF 3", sdkClone.target(), Ref.ofMain(3), cloned);

        assertUpdate("INSERT INTO sdk_clone VALUES (600, 'name-600'), (601, 'name-601')", 2);
        assertThat(sdkVersion(sdkClone.target())).isEqualTo(5);
        List<Long> clone = plus(cloned, 100, 101, 102, 103, 104, 600, 601);
        assertSameRows("sdk_clone", sdkClone.target(), Ref.ofMain(), clone);

        // the source moved on (20..24) since version 3 was cloned: the clone's new rows join the source's
        MaterializedResult merged = computeActual("ALTER TABLE sdk_source EXECUTE merge_branch(source => 'interop.sdk_clone')");
        assertThat(metric(merged, "rows_added")).isEqualTo(7);
        assertThat(metric(merged, "conflicts")).isEqualTo(0);
        assertThat(metric(merged, "target_version")).isEqualTo(5);
        List<Long> mergedSource = plus(minus(ids(0, 25), 3, 13), 100, 101, 102, 103, 104, 600, 601);
        assertSameRows("sdk_source", sdkClone.source(), Ref.ofMain(), mergedSource);
        assertSameRows("sdk_clone", sdkClone.target(), Ref.ofMain(), clone);
        assertThat(LanceFixtures.append(sdkClone.source(), ID_NAME_SCHEMA, idNameRows(800, 801))).isEqualTo(6);
        assertSameRows("sdk_source", sdkClone.source(), Ref.ofMain(), plus(mergedSource, 800));
    }

    // -----------------------------------------------------------------------------------------------------------------
    // merges and fast-forwards made here, read by the SDK

    @Test
    void testMainAfterFastForwardAndMergeReadsAlikeInSdk()
    {
        Path table = createTable("flow");
        assertUpdate("CREATE BRANCH dev IN TABLE flow");
        assertUpdate("INSERT INTO flow @ dev VALUES (100, 'name-100'), (101, 'name-101')", 2);
        assertUpdate("DELETE FROM flow @ dev WHERE id IN (1, 11)", 2);
        assertUpdate("ALTER BRANCH main IN TABLE flow FAST FORWARD TO dev");
        List<Long> forwarded = minus(plus(ids(0, 20), 100, 101), 1, 11);
        assertSameRows("flow", table, Ref.ofMain(), forwarded);
        long forwardedVersion = trinoBranchHead("flow", "main");
        assertThat(forwardedVersion).isEqualTo(4);
        assertThat(sdkVersion(table)).isEqualTo(forwardedVersion);
        // the SDK continues main after the fast-forward, and Trino after the SDK
        assertThat(LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(900, 901))).isEqualTo(forwardedVersion + 1);
        assertSameRows("flow", table, Ref.ofMain(), plus(forwarded, 900));

        // both sides change: new rows on each, and deletions in the same fragments, which a merge unions
        assertUpdate("INSERT INTO flow @ dev VALUES (200, 'name-200')", 1);
        assertUpdate("DELETE FROM flow @ dev WHERE id IN (2, 12)", 2);
        assertUpdate("INSERT INTO flow VALUES (300, 'name-300')", 1);
        assertUpdate("DELETE FROM flow WHERE id IN (4, 15)", 2);
        MaterializedResult merged = computeActual("ALTER TABLE flow EXECUTE merge_branch(source => 'dev')");
        assertThat(metric(merged, "rows_added")).isEqualTo(1);
        assertThat(metric(merged, "rows_deleted")).isEqualTo(2);
        assertThat(metric(merged, "conflicts")).isEqualTo(0);
        assertThat(metric(merged, "fast_forward")).isEqualTo(0);
        List<Long> mergedMain = minus(plus(forwarded, 200, 300, 900), 2, 12, 4, 15);
        assertSameRows("flow", table, Ref.ofMain(), mergedMain);
        assertThat(sdkVersion(table)).isEqualTo(trinoBranchHead("flow", "main")).isEqualTo(metric(merged, "target_version"));
        assertThat(SdkScans.countRows(table, Ref.ofMain())).isEqualTo(mergedMain.size());
        // the SDK lists main's history as Trino does
        assertThat(sdkMainVersions(table)).isEqualTo(computeActual("SELECT version FROM \"flow$versions\" ORDER BY version").getOnlyColumn().toList());
        assertSameRows("flow FOR VERSION AS OF 'dev'", table, Ref.ofBranch("dev"), minus(plus(forwarded, 200), 2, 12));
    }

    // -----------------------------------------------------------------------------------------------------------------
    // helpers

    /** Table {@code (id bigint NOT NULL, name varchar)} as the SDK fixtures have it: version 2 holds ids 0..9, version 3 ids 0..19. */
    private Path createTable(String name)
    {
        assertUpdate("CREATE TABLE " + name + " (id bigint NOT NULL, name varchar)");
        assertUpdate("INSERT INTO " + name + " SELECT x, 'name-' || CAST(x AS varchar) FROM UNNEST(sequence(0, 9)) AS t(x)", 10);
        assertUpdate("INSERT INTO " + name + " SELECT x, 'name-' || CAST(x AS varchar) FROM UNNEST(sequence(10, 19)) AS t(x)", 10);
        assertQuery("SELECT version, rows FROM \"" + name + "$versions\"", "VALUES (1, 0), (2, 10), (3, 20)");
        return warehouse.resolve(SCHEMA).resolve(name + ".lance");
    }

    private Path cloneTable(String name)
    {
        return warehouse.resolve(CLONES).resolve(name + ".lance");
    }

    /**
     * Asserts that Trino's rows of {@code relation} and the SDK's rows of {@code dataset} at {@code ref} are the same
     * multiset, and that their ids are {@code expectedIds}.
     */
    private void assertSameRows(String relation, Path dataset, Ref ref, List<Long> expectedIds)
    {
        List<MaterializedRow> trinoRows = computeActual("SELECT id, name FROM " + relation).getMaterializedRows();
        List<MaterializedRow> sdkRows = SdkScans.scanRows(dataset, ref, List.of("id", "name"));
        assertThat(sdkRows).as("SDK rows at %s against Trino's rows of %s", ref, relation).containsExactlyInAnyOrderElementsOf(trinoRows);
        assertThat(trinoRows.stream().map(row -> (Long) row.getField(0)).sorted().toList()).as("ids of %s", relation).isEqualTo(expectedIds);
        // the name column carries the id, so a row read from a wrong fragment or offset would show
        assertThat(trinoRows).allSatisfy(row -> assertThat(row.getField(1)).isEqualTo("name-" + row.getField(0)));
    }

    /** The number of fragments, and of those that read their files through a base path. */
    private List<Long> fragmentsWithBasePath(String fragmentsTable)
    {
        MaterializedRow row = computeActual("SELECT count(*), count(base_path) FROM " + fragmentsTable).getMaterializedRows().getFirst();
        return List.of((Long) row.getField(0), (Long) row.getField(1));
    }

    private long trinoBranchHead(String table, String branch)
    {
        return (Long) computeActual("SELECT version FROM \"%s$refs\" WHERE type = 'BRANCH' AND name = '%s'".formatted(table, branch)).getOnlyValue();
    }

    private static Map<String, Branch> sdkBranchesOf(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.branches().list().stream().collect(Collectors.toMap(Branch::getName, Function.identity()));
        }
    }

    private static Map<String, Tag> sdkTags(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.tags().list().stream().collect(Collectors.toMap(Tag::getName, Function.identity()));
        }
    }

    private static long sdkBranchVersion(Path table, String branch)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table);
                Dataset checkedOut = dataset.checkout(Ref.ofBranch(branch))) {
            return checkedOut.version();
        }
    }

    /** The latest version of main as the SDK opens it. */
    private static long sdkVersion(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.version();
        }
    }

    /** The locations of the base paths that the manifests of main of {@code table} name, over all its versions. */
    private static Set<String> basePaths(Path table)
            throws IOException
    {
        Set<String> locations = new HashSet<>();
        try (Stream<Path> files = Files.list(table.resolve("_versions"))) {
            for (Path manifest : files.filter(file -> file.getFileName().toString().endsWith(".manifest")).toList()) {
                ManifestFile.parse(manifest.toString(), Files.readAllBytes(manifest)).manifest().getBasePathsList()
                        .forEach(base -> locations.add(base.getPath()));
            }
        }
        return locations;
    }

    private static long fileCount(Path directory)
            throws IOException
    {
        try (Stream<Path> files = Files.list(directory)) {
            return files.count();
        }
    }

    private static List<Long> sdkMainVersions(Path table)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            return dataset.listVersions().stream().map(Version::getId).sorted().toList();
        }
    }

    private static long metric(MaterializedResult result, String name)
    {
        return result.getMaterializedRows().stream()
                .filter(row -> row.getField(0).equals(name))
                .map(row -> (Long) row.getField(1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + result));
    }

    /** Ids in the ranges {@code [from, to)} given as pairs, sorted. */
    private static List<Long> ids(long... ranges)
    {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < ranges.length; i += 2) {
            LongStream.range(ranges[i], ranges[i + 1]).forEach(ids::add);
        }
        return ids.stream().sorted().toList();
    }

    private static List<Long> plus(List<Long> ids, long... added)
    {
        List<Long> result = new ArrayList<>(ids);
        Arrays.stream(added).forEach(result::add);
        return result.stream().sorted().toList();
    }

    private static List<Long> minus(List<Long> ids, long... removed)
    {
        List<Long> gone = Arrays.stream(removed).boxed().toList();
        return ids.stream().filter(id -> !gone.contains(id)).sorted().toList();
    }
}
