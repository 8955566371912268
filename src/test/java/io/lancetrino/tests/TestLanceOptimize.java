package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.compaction.CompactionOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.operation.Rewrite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.lancetrino.split.LanceErrorCode.LANCE_UNSUPPORTED_FEATURE;
import static io.lancetrino.tests.fixtures.LanceFixtures.ID_NAME_SCHEMA;
import static io.lancetrino.tests.fixtures.LanceFixtures.idNameRows;
import static io.trino.spi.StandardErrorCode.BRANCH_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ALTER TABLE t EXECUTE optimize}: small fragments and fragments with many deleted rows become fewer larger
 * ones holding the same rows, committed as a Lance {@code Rewrite} that the Lance SDK reads, appends to and compacts
 * again; the SDK's own compactions are optimized here in turn. Errors name the table, branch or argument and leave no
 * new version.
 */
final class TestLanceOptimize
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "lab";

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-optimize");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testSmallInsertsBecomeOneFragment()
    {
        assertUpdate("CREATE TABLE small (id bigint, name varchar, score double)");
        for (int i = 0; i < 40; i++) {
            if (i == 20) {
                // the first 20 fragments have no file for this column: it reads as NULL there, before and after
                assertUpdate("ALTER TABLE small ADD COLUMN tag varchar");
            }
            String name = i % 7 == 0 ? "NULL" : "'name-%s'".formatted(i);
            String tag = i < 20 ? "" : ", 'tag-%s'".formatted(i);
            assertUpdate("INSERT INTO small VALUES (%s, %s, %s%s)".formatted(i, name, i * 0.5, tag), 1);
        }
        MaterializedResult before = computeActual("SELECT * FROM small");
        long versionBefore = latestVersion("small");
        assertThat(fragments("small")).isEqualTo(40);

        MaterializedResult result = computeActual("ALTER TABLE small EXECUTE optimize");

        assertThat(metric(result, "fragments_before")).isEqualTo(40);
        assertThat(metric(result, "fragments_after")).isEqualTo(1);
        assertThat(metric(result, "fragments_rewritten")).isEqualTo(40);
        assertThat(metric(result, "fragments_added")).isEqualTo(1);
        assertThat(metric(result, "rows_rewritten")).isEqualTo(40);
        assertThat(metric(result, "deleted_rows_purged")).isEqualTo(0);
        assertThat(metric(result, "version")).isEqualTo(versionBefore + 1);
        assertThat(latestVersion("small")).isEqualTo(versionBefore + 1);
        assertQuery("SELECT id, physical_rows, deleted_rows, cardinality(data_files) FROM \"small$fragments\"", "VALUES (40, 40, 0, 1)");
        assertSameRows(computeActual("SELECT * FROM small"), before);
        assertQuery("SELECT count(tag), count(name), sum(score) FROM small", "VALUES (20, 34, 390.0)");
        // the version before still reads its own fragments
        assertSameRows(computeActual("SELECT * FROM small FOR VERSION AS OF " + versionBefore), before);
        assertQuery("SELECT fragments FROM \"small$versions\" WHERE version = " + versionBefore, "VALUES 40");
        assertQuery("SELECT operation, statement, read_version FROM \"small$transactions\" WHERE version = " + (versionBefore + 1),
                "VALUES ('rewrite', 'OPTIMIZE', %s)".formatted(versionBefore));

        // nothing left to do: no new version
        MaterializedResult again = computeActual("ALTER TABLE small EXECUTE optimize");
        assertThat(metric(again, "version")).isEqualTo(0);
        assertThat(metric(again, "fragments_rewritten")).isEqualTo(0);
        assertThat(metric(again, "fragments_after")).isEqualTo(1);
        assertThat(latestVersion("small")).isEqualTo(versionBefore + 1);
        // the table takes writes as before, with fragment ids after the compacted one
        assertUpdate("INSERT INTO small VALUES (40, 'name-40', 20.0, 'tag-40')", 1);
        assertQuery("SELECT max(id) FROM \"small$fragments\"", "VALUES 41");
        assertQuery("SELECT count(*), sum(id) FROM small", "VALUES (41, 820)");
    }

    @Test
    void testDeletedRowsArePurged()
    {
        assertUpdate("CREATE TABLE purge (id bigint, name varchar) WITH (max_rows_per_file = 100)");
        // one writer, so fragment f holds ids 100f..100f+99
        Session oneWriter = LanceQueryRunner.oneWriter(getSession());
        assertUpdate(oneWriter, "INSERT INTO purge SELECT x, 'name-' || CAST(x AS varchar) FROM UNNEST(sequence(0, 999)) AS t(x)", 1000);
        assertQuery("SELECT count(*), min(physical_rows), max(physical_rows) FROM \"purge$fragments\"", "VALUES (10, 100, 100)");
        assertUpdate("DELETE FROM purge WHERE id < 60", 60);
        assertUpdate("DELETE FROM purge WHERE id BETWEEN 100 AND 104", 5);
        assertUpdate("DELETE FROM purge WHERE id >= 230 AND id < 300", 70);
        assertQuery("SELECT id, physical_rows, deleted_rows FROM \"purge$fragments\" WHERE deleted_rows > 0", "VALUES (0, 100, 60), (1, 100, 5), (2, 100, 70)");
        MaterializedResult before = computeActual("SELECT * FROM purge");

        // at a target of 100 rows, fragments 0 and 2 are rewritten for their deleted rows; fragment 1 has too few
        // (5%) to be worth it, and no neighbour fits beside it
        MaterializedResult result = computeActual("ALTER TABLE purge EXECUTE optimize(target_rows_per_fragment => 100)");
        assertThat(metric(result, "fragments_rewritten")).isEqualTo(2);
        assertThat(metric(result, "fragments_added")).isEqualTo(2);
        assertThat(metric(result, "rows_rewritten")).isEqualTo(70);
        assertThat(metric(result, "deleted_rows_purged")).isEqualTo(130);
        assertThat(metric(result, "fragments_before")).isEqualTo(10);
        assertThat(metric(result, "fragments_after")).isEqualTo(10);
        // each in the place of the fragment it replaces
        assertQuery("SELECT id, physical_rows, deleted_rows FROM \"purge$fragments\" WHERE id < 4 OR id > 9",
                "VALUES (10, 40, 0), (1, 100, 5), (11, 30, 0), (3, 100, 0)");
        assertSameRows(computeActual("SELECT * FROM purge"), before);

        // at the default target everything fits one fragment
        MaterializedResult all = computeActual("ALTER TABLE purge EXECUTE optimize");
        assertThat(metric(all, "fragments_rewritten")).isEqualTo(10);
        assertThat(metric(all, "fragments_after")).isEqualTo(1);
        assertThat(metric(all, "rows_rewritten")).isEqualTo(865);
        assertThat(metric(all, "deleted_rows_purged")).isEqualTo(5);
        assertQuery("SELECT rows, deleted_rows, fragments FROM \"purge$versions\" ORDER BY version DESC LIMIT 1", "VALUES (865, 0, 1)");
        assertSameRows(computeActual("SELECT * FROM purge"), before);
    }

    @Test
    void testOptimizeOfABranchLeavesMainAlone()
            throws IOException
    {
        assertUpdate("CREATE TABLE br (id bigint NOT NULL, name varchar)");
        for (int i = 0; i < 5; i++) {
            assertUpdate("INSERT INTO br VALUES (%s, 'name-%s')".formatted(i, i), 1);
        }
        assertUpdate("CREATE BRANCH dev IN TABLE br");
        for (int i = 10; i < 15; i++) {
            assertUpdate("INSERT INTO br @ dev VALUES (%s, 'name-%s')".formatted(i, i), 1);
        }
        assertUpdate("INSERT INTO br @ dev VALUES (20, 'name-20'), (21, 'name-21'), (22, 'name-22'), (23, 'name-23'), (24, 'name-24')", 5);
        assertUpdate("DELETE FROM br @ dev WHERE id = 22", 1);
        Path table = tablePath("br");
        MaterializedResult main = computeActual("SELECT * FROM br");
        MaterializedResult dev = computeActual("SELECT * FROM br FOR VERSION AS OF 'dev'");
        long mainVersion = latestVersion("br");
        Set<Path> mainFiles = files(table.resolve("data"));
        long devHead = (long) computeScalar("SELECT version FROM \"br$refs\" WHERE name = 'dev'");

        MaterializedResult result = computeActual("ALTER TABLE br EXECUTE optimize(branch => 'dev')");

        assertThat(metric(result, "fragments_before")).isEqualTo(11);
        assertThat(metric(result, "fragments_after")).isEqualTo(1);
        assertThat(metric(result, "rows_rewritten")).isEqualTo(14);
        assertThat(metric(result, "deleted_rows_purged")).isEqualTo(1);
        assertThat(metric(result, "version")).isEqualTo(devHead + 1);
        assertSameRows(computeActual("SELECT * FROM br FOR VERSION AS OF 'dev'"), dev);
        // the compacted file lives in the branch's directory, also for the rows it inherited from main
        MaterializedRow fragment = computeActual("SELECT data_files, base_path FROM \"br@dev$fragments\"").getMaterializedRows().getFirst();
        assertThat(fragment.getField(1)).isNull();
        assertThat(Path.of(((List<?>) fragment.getField(0)).getFirst().toString())).hasParent(table.resolve("tree/dev/data"));
        assertQuery("SELECT operation, statement FROM \"br@dev$transactions\" ORDER BY version DESC LIMIT 1", "VALUES ('rewrite', 'OPTIMIZE')");
        assertThat(SdkScans.scanRows(table, Ref.ofBranch("dev"), List.of("id", "name"))).containsExactlyInAnyOrderElementsOf(dev.getMaterializedRows());
        // main is as it was
        assertSameRows(computeActual("SELECT * FROM br"), main);
        assertThat(latestVersion("br")).isEqualTo(mainVersion);
        assertThat(fragments("br")).isEqualTo(5);
        assertThat(files(table.resolve("data"))).isEqualTo(mainFiles);

        // and main's own compaction leaves the branch alone
        assertThat(metric(computeActual("ALTER TABLE br EXECUTE optimize(branch => 'main')"), "fragments_after")).isEqualTo(1);
        assertSameRows(computeActual("SELECT * FROM br"), main);
        assertSameRows(computeActual("SELECT * FROM br FOR VERSION AS OF 'dev'"), dev);
        assertQuery("SELECT count(*) FROM \"br@dev$fragments\"", "VALUES 1");
        assertThat(computeScalar("SELECT version FROM \"br$refs\" WHERE name = 'dev'")).isEqualTo(devHead + 1);
    }

    @Test
    void testMergeAfterOptimize()
    {
        assertUpdate("CREATE TABLE merged (id bigint NOT NULL, name varchar)");
        for (int i = 0; i < 5; i++) {
            assertUpdate("INSERT INTO merged VALUES (%s, 'name-%s')".formatted(i, i), 1);
        }
        assertUpdate("CREATE BRANCH dev IN TABLE merged");
        assertUpdate("CREATE BRANCH fix IN TABLE merged");
        assertUpdate("INSERT INTO merged @ dev VALUES (10, 'name-10')", 1);
        assertUpdate("DELETE FROM merged @ fix WHERE id = 1", 1);
        assertThat(metric(computeActual("ALTER TABLE merged EXECUTE optimize"), "fragments_after")).isEqualTo(1);

        // rows new on a branch merge on top of main's compaction
        MaterializedResult merge = computeActual("ALTER TABLE merged EXECUTE merge_branch(source => 'dev')");
        assertThat(TestLanceBranching.metric(merge, "rows_added")).isEqualTo(1);
        assertQuery("SELECT count(*), sum(id) FROM merged", "VALUES (6, 20)");
        // a branch deleted all rows of a fragment main compacted: the row is found in main's compacted fragment
        MaterializedResult fix = computeActual("ALTER TABLE merged EXECUTE merge_branch(source => 'fix')");
        assertThat(TestLanceBranching.metric(fix, "rows_deleted")).isEqualTo(1);
        assertThat(TestLanceBranching.metric(fix, "conflicts")).isEqualTo(0);
        assertQuery("SELECT count(*), sum(id) FROM merged", "VALUES (5, 19)");

        // the other way round: a branch compacted what main then deleted
        assertUpdate("CREATE BRANCH late IN TABLE merged");
        assertUpdate("INSERT INTO merged @ late VALUES (20, 'name-20')", 1);
        assertUpdate("INSERT INTO merged @ late VALUES (21, 'name-21')", 1);
        assertUpdate("INSERT INTO merged VALUES (30, 'name-30')", 1);
        assertThat(metric(computeActual("ALTER TABLE merged EXECUTE optimize(branch => 'late')"), "fragments_after")).isEqualTo(1);
        assertUpdate("DELETE FROM merged WHERE id = 10", 1);
        // the branch's compacted fragment joins with the base's rows in it masked: main's deletion stays
        MaterializedResult late = computeActual("ALTER TABLE merged EXECUTE merge_branch(source => 'late')");
        assertThat(TestLanceBranching.metric(late, "rows_added")).isEqualTo(2);
        assertThat(TestLanceBranching.metric(late, "rows_deleted")).isEqualTo(0);
        assertQuery("SELECT id FROM merged", "VALUES 0, 2, 3, 4, 20, 21, 30");
    }

    /**
     * The experiment loop on a busy table: a shallow clone merged back, then both sides compacted, then merged back
     * again. The second merge's base is the clone version the first merge brought over, which main reaches only
     * through that merge commit and its own compaction.
     */
    @Test
    void testCloneMergesBackAgainAfterBothSidesCompacted()
    {
        assertUpdate("CREATE TABLE loop_src (id bigint, v varchar)");
        for (int i = 0; i < 5; i++) {
            assertUpdate("INSERT INTO loop_src SELECT x, 'v' || CAST(x AS varchar) FROM UNNEST(sequence(%s, %s)) AS t(x)".formatted(i * 4, i * 4 + 3), 4);
        }
        assertUpdate("CALL lance.system.shallow_clone('%s', 'loop_src', '%s', 'loop_exp', NULL)".formatted(SCHEMA, SCHEMA));
        assertUpdate("INSERT INTO loop_exp VALUES (100, 'v100'), (101, 'v101')", 2);
        assertUpdate("UPDATE loop_exp SET v = 'c1' WHERE id IN (1, 2)", 2);
        assertUpdate("DELETE FROM loop_exp WHERE id = 3", 1);
        computeActual("ALTER TABLE loop_src EXECUTE merge_branch(source => '%s.loop_exp')".formatted(SCHEMA));

        assertUpdate("INSERT INTO loop_src VALUES (200, 'v200')", 1);
        assertUpdate("DELETE FROM loop_src WHERE id = 5", 1);
        assertThat(metric(computeActual("ALTER TABLE loop_src EXECUTE optimize"), "fragments_after")).isEqualTo(1);
        assertUpdate("UPDATE loop_exp SET v = 'c2' WHERE id IN (1, 7, 100)", 3);
        assertUpdate("DELETE FROM loop_exp WHERE id IN (8, 101)", 2);
        assertUpdate("INSERT INTO loop_exp VALUES (102, 'v102')", 1);
        assertThat(metric(computeActual("ALTER TABLE loop_exp EXECUTE optimize"), "fragments_after")).isEqualTo(1);

        MaterializedResult merge = computeActual("ALTER TABLE loop_src EXECUTE merge_branch(source => '%s.loop_exp')".formatted(SCHEMA));
        assertThat(TestLanceBranching.metric(merge, "conflicts")).isEqualTo(0);
        assertSameRows(computeActual("SELECT id, v FROM loop_src"), computeActual(
                """
                SELECT x, CASE WHEN x IN (1, 7, 100) THEN 'c2' WHEN x = 2 THEN 'c1' ELSE 'v' || CAST(x AS varchar) END
                FROM UNNEST(sequence(0, 19) || ARRAY[100, 102, 200]) AS t(x) WHERE x NOT IN (3, 5, 8)
                """));

        // a third round, with a compaction of the merged result in between, still follows every row
        assertThat(metric(computeActual("ALTER TABLE loop_src EXECUTE optimize"), "fragments_after")).isEqualTo(1);
        assertUpdate("DELETE FROM loop_exp WHERE id IN (0, 102)", 2);
        assertUpdate("UPDATE loop_exp SET v = 'c3' WHERE id = 2", 1);
        computeActual("ALTER TABLE loop_src EXECUTE merge_branch(source => '%s.loop_exp')".formatted(SCHEMA));
        assertSameRows(computeActual("SELECT id, v FROM loop_src"), computeActual(
                """
                SELECT x, CASE WHEN x IN (1, 7, 100) THEN 'c2' WHEN x = 2 THEN 'c3' ELSE 'v' || CAST(x AS varchar) END
                FROM UNNEST(sequence(1, 19) || ARRAY[100, 200]) AS t(x) WHERE x NOT IN (3, 5, 8)
                """));
    }

    @Test
    void testNothingToDoCommitsNothing()
    {
        assertUpdate("CREATE TABLE idle (id bigint)");
        MaterializedResult empty = computeActual("ALTER TABLE idle EXECUTE optimize");
        assertThat(metric(empty, "version")).isEqualTo(0);
        assertThat(metric(empty, "fragments_before")).isEqualTo(0);
        assertUpdate("INSERT INTO idle VALUES 1, 2, 3", 3);
        // one fragment, however small, has no neighbour to merge with
        MaterializedResult single = computeActual("ALTER TABLE idle EXECUTE optimize(target_rows_per_fragment => 1000)");
        assertThat(metric(single, "version")).isEqualTo(0);
        assertThat(metric(single, "fragments_before")).isEqualTo(1);
        assertThat(metric(single, "fragments_after")).isEqualTo(1);
        assertQuery("SELECT count(*) FROM \"idle$versions\"", "VALUES 2");
    }

    @Test
    void testErrorsNameTheirCauseAndCommitNothing()
    {
        assertUpdate("CREATE TABLE errs (id bigint)");
        assertUpdate("INSERT INTO errs VALUES 1", 1);
        assertUpdate("INSERT INTO errs VALUES 2", 1);
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE errs EXECUTE optimize(target_rows_per_fragment => 0)"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("optimize on table lab.errs: target_rows_per_fragment must be positive, not 0");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE errs EXECUTE optimize(target_rows_per_fragment => -5)"))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT)
                .hasMessage("optimize on table lab.errs: target_rows_per_fragment must be positive, not -5");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE errs EXECUTE optimize(branch => 'nope')"))
                .hasErrorCode(BRANCH_NOT_FOUND)
                .hasMessage("Branch 'nope' does not exist in table lab.errs");
        assertQueryFails("ALTER TABLE nosuch EXECUTE optimize", ".*Table 'lance.lab.nosuch' does not exist.*");
        assertQueryFails("ALTER TABLE errs EXECUTE optimize(target => 5)", ".*(?i)target.*");
        assertQuery("SELECT count(*) FROM \"errs$versions\"", "VALUES 3");
        assertQuery("SELECT count(*) FROM \"errs$fragments\"", "VALUES 2");
    }

    @Test
    void testFailedOptimizeRemovesItsFiles()
            throws IOException
    {
        assertUpdate("CREATE TABLE broken (id bigint)");
        for (int i = 0; i < 3; i++) {
            assertUpdate("INSERT INTO broken VALUES " + i, 1);
        }
        Path table = tablePath("broken");
        // the last fragment's file is gone: the first two are copied into the new file before reading it fails
        String lost = ((List<?>) computeScalar("SELECT data_files FROM \"broken$fragments\" WHERE id = 2")).getFirst().toString();
        Files.delete(Path.of(lost));
        Set<Path> before = files(table.resolve("data"));

        assertQueryFails("ALTER TABLE broken EXECUTE optimize", ".*" + Path.of(lost).getFileName() + ".*");

        assertThat(files(table.resolve("data"))).isEqualTo(before);
        assertQuery("SELECT count(*) FROM \"broken$versions\"", "VALUES 4");
    }

    @Test
    void testStableRowIdsAreRefused()
    {
        Path table = warehouse.resolve(SCHEMA).resolve("stable.lance");
        try (BufferAllocator allocator = LanceFixtures.newAllocator()) {
            Dataset.create(allocator, table.toString(), ID_NAME_SCHEMA, new WriteParams.Builder().withEnableStableRowIds(true).build()).close();
        }
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(0, 2));
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(2, 4));
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE stable EXECUTE optimize"))
                .hasErrorCode(LANCE_UNSUPPORTED_FEATURE)
                .hasMessageContaining("Table lab.stable main version 3 uses stable row ids");
        assertQuery("SELECT count(*) FROM \"stable$versions\"", "VALUES 3");
    }

    @Test
    void testColumnsTrinoCannotReadAreRefused()
    {
        // Trino has no duration type: the column is hidden, and rewriting its fragments would drop its data
        Schema schema = new Schema(List.of(ID_NAME_SCHEMA.getFields().get(0), ID_NAME_SCHEMA.getFields().get(1),
                new Field("wait", FieldType.nullable(new ArrowType.Duration(TimeUnit.MICROSECOND)), null)));
        Path table = tablePath("opaque");
        LanceFixtures.append(table, schema, List.of(Arrays.asList(0L, "name-0", null)));
        LanceFixtures.append(table, schema, List.of(Arrays.asList(1L, "name-1", null)));
        assertQuery("SELECT count(*) FROM opaque", "VALUES 2");
        assertTrinoExceptionThrownBy(() -> computeActual("ALTER TABLE opaque EXECUTE optimize"))
                .hasErrorCode(NOT_SUPPORTED)
                .hasMessage("Cannot optimize table lab.opaque: its column wait has Lance type duration:us, which Trino cannot read, so its data could not be rewritten");
        assertQuery("SELECT count(*) FROM \"opaque$fragments\"", "VALUES 2");
    }

    // -----------------------------------------------------------------------------------------------------------------
    // with the Lance SDK

    @Test
    void testSdkReadsAppendsToAndCompactsWhatWasOptimizedHere()
    {
        assertUpdate("CREATE TABLE made_here (id bigint NOT NULL, name varchar)");
        for (int i = 0; i < 20; i++) {
            assertUpdate("INSERT INTO made_here VALUES (%s, 'name-%s')".formatted(i, i), 1);
        }
        assertUpdate("DELETE FROM made_here WHERE id = 3", 1);
        Path table = tablePath("made_here");
        assertThat(metric(computeActual("ALTER TABLE made_here EXECUTE optimize"), "fragments_after")).isEqualTo(1);
        assertSameAsSdk("made_here", table, 19);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table);
                org.lance.Transaction transaction = dataset.readTransaction().orElseThrow()) {
            assertThat(dataset.version()).isEqualTo(latestVersion("made_here"));
            assertThat(dataset.getFragments()).hasSize(1);
            assertThat(transaction.operation()).isInstanceOf(Rewrite.class);
            assertThat(transaction.transactionProperties().orElseThrow()).containsEntry("trino.statement", "OPTIMIZE");
        }

        // the SDK appends after the compaction, then compacts everything itself
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(100, 105));
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(105, 110));
        assertSameAsSdk("made_here", table, 29);
        sdkCompact(table, 1024 * 1024);
        assertThat(fragments("made_here")).isEqualTo(1);
        assertSameAsSdk("made_here", table, 29);
        assertQuery("SELECT operation, statement FROM \"made_here$transactions\" ORDER BY version DESC LIMIT 1", "VALUES ('rewrite', NULL)");

        // and this connector continues on top of it
        assertUpdate("INSERT INTO made_here VALUES (200, 'name-200')", 1);
        assertUpdate("INSERT INTO made_here VALUES (201, 'name-201')", 1);
        assertThat(metric(computeActual("ALTER TABLE made_here EXECUTE optimize"), "fragments_rewritten")).isEqualTo(3);
        assertSameAsSdk("made_here", table, 31);
    }

    @Test
    void testSdkCompactedTableIsOptimizedHere()
    {
        // 12 fragments of 4 rows, compacted by the SDK into fragments of 16, then appended to and deleted from
        Path table = LanceFixtures.manyFragments(warehouse.resolve(SCHEMA), "made_by_sdk", 12);
        sdkCompact(table, 16);
        assertThat(fragments("made_by_sdk")).isEqualTo(3);
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(100, 103));
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(103, 106));
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            dataset.delete("id % 4 = 0");
        }
        long deleted = (long) computeScalar("SELECT sum(deleted_rows) FROM \"made_by_sdk$fragments\"");
        assertThat(deleted).isEqualTo(14);
        MaterializedResult before = computeActual("SELECT * FROM made_by_sdk");

        MaterializedResult result = computeActual("ALTER TABLE made_by_sdk EXECUTE optimize");

        assertThat(metric(result, "fragments_before")).isEqualTo(5);
        assertThat(metric(result, "fragments_after")).isEqualTo(1);
        assertThat(metric(result, "deleted_rows_purged")).isEqualTo(deleted);
        assertSameRows(computeActual("SELECT * FROM made_by_sdk"), before);
        assertSameAsSdk("made_by_sdk", table, 54 - 14);
        // the SDK writes on top of it
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(300, 302));
        assertSameAsSdk("made_by_sdk", table, 54 - 14 + 2);
    }

    @Test
    void testIndexedFragmentsStayWhereTheIndexFindsThem()
    {
        Path table = LanceFixtures.manyFragments(warehouse.resolve(SCHEMA), "indexed", 3);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            dataset.createIndex(List.of("id"), IndexType.BTREE, Optional.of("id_idx"),
                    IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("btree")).build(), true);
        }
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(100, 102));
        LanceFixtures.append(table, ID_NAME_SCHEMA, idNameRows(102, 104));
        assertQuery("SELECT fragments_covered, rows_not_covered FROM \"indexed$indexes\"", "VALUES (3, 4)");

        MaterializedResult result = computeActual("ALTER TABLE indexed EXECUTE optimize");

        // only the two fragments no index covers: the index keeps answering for every row it covered
        assertThat(metric(result, "fragments_rewritten")).isEqualTo(2);
        assertThat(metric(result, "fragments_after")).isEqualTo(4);
        assertQuery("SELECT fragments_covered, rows_covered, rows_not_covered FROM \"indexed$indexes\"", "VALUES (3, 12, 4)");
        assertSameAsSdk("indexed", table, 16);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            assertThat(dataset.countRows("id = 5 OR id = 103")).isEqualTo(2);
        }

        // once optimize_indexes covers the compacted fragment too, nothing is left to compact
        computeActual("ALTER TABLE indexed EXECUTE optimize_indexes(name => 'id_idx')");
        assertQuery("SELECT fragments_covered, rows_covered, rows_not_covered FROM \"indexed$indexes\"", "VALUES (4, 16, 0)");
        assertThat(metric(computeActual("ALTER TABLE indexed EXECUTE optimize"), "fragments_rewritten")).isZero();
    }

    private static void sdkCompact(Path table, long targetRowsPerFragment)
    {
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, table)) {
            dataset.compact(CompactionOptions.builder().withTargetRowsPerFragment(targetRowsPerFragment).build());
        }
    }

    /**
     * Trino's rows of the table and the SDK's rows of the latest version of main are the same {@code rows} rows.
     */
    private void assertSameAsSdk(String tableName, Path table, long rows)
    {
        List<MaterializedRow> trinoRows = computeActual("SELECT id, name FROM " + tableName).getMaterializedRows();
        assertThat(trinoRows).hasSize((int) rows);
        assertThat(SdkScans.scanRows(table, Ref.ofMain(), List.of("id", "name"))).containsExactlyInAnyOrderElementsOf(trinoRows);
        // the name carries the id, so a row read from a wrong fragment or offset would show
        assertThat(trinoRows).allSatisfy(row -> assertThat(row.getField(1)).isEqualTo("name-" + row.getField(0)));
    }

    private static void assertSameRows(MaterializedResult actual, MaterializedResult expected)
    {
        assertThat(actual.getMaterializedRows()).containsExactlyInAnyOrderElementsOf(expected.getMaterializedRows());
    }

    private long latestVersion(String table)
    {
        return (long) computeScalar("SELECT max(version) FROM \"%s$versions\"".formatted(table));
    }

    private long fragments(String table)
    {
        return (long) computeScalar("SELECT count(*) FROM \"%s$fragments\"".formatted(table));
    }

    private Path tablePath(String table)
    {
        return warehouse.resolve(SCHEMA).resolve(table + ".lance");
    }

    private static Set<Path> files(Path directory)
            throws IOException
    {
        try (Stream<Path> files = Files.list(directory)) {
            return files.collect(Collectors.toSet());
        }
    }

    private static long metric(MaterializedResult result, String name)
    {
        return TestLanceBranching.metric(result, name);
    }
}
