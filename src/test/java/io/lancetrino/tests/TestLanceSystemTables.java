package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metadata tables {@code $versions}, {@code $refs}, {@code $fragments} and {@code $schemas}, on main and on a
 * branch ({@code "t@branch$..."}), checked against the demo table's known history and against the data itself.
 */
final class TestLanceSystemTables
        extends AbstractTestQueryFramework
{
    private Path trips;
    private long deletedByV4;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-system-tables");
        trips = DemoWarehouse.create(warehouse);
        // v1: id, name (10 rows in 2 fragments); v2: addColumns doubled = id * 2; v3: append 5 rows with all columns
        LanceFixtures.addedColumn(trips.getParent(), "added");
        return LanceQueryRunner.builder(warehouse).withSchema("demo").build();
    }

    private long deletedByV4()
    {
        if (deletedByV4 == 0) {
            deletedByV4 = (long) computeScalar("SELECT count(*) FROM trips FOR VERSION AS OF 3 WHERE fare < 5");
            assertThat(deletedByV4).isPositive();
        }
        return deletedByV4;
    }

    @Test
    void testVersions()
    {
        MaterializedResult columns = computeActual("DESCRIBE \"trips$versions\"");
        assertThat(columns.getMaterializedRows().stream().map(row -> row.getField(0)).toList())
                .containsExactly("version", "committed_at", "operation", "rows", "deleted_rows", "fragments", "schema_version");
        MaterializedResult versions = computeActual("SELECT * FROM \"trips$versions\" ORDER BY version");
        assertThat(versions.getTypes()).containsExactly(BIGINT, TIMESTAMP_TZ_MILLIS, VARCHAR, BIGINT, BIGINT, BIGINT, BIGINT);

        long deleted = deletedByV4();
        assertQuery("SELECT version, operation, rows, deleted_rows, fragments, schema_version FROM \"trips$versions\"",
                """
                VALUES
                (1, 'overwrite', 0, 0, 0, 1),
                (2, 'append', 1000, 0, 1, 1),
                (3, 'append', 1500, 0, 2, 1),
                (4, 'delete', %s, %s, 2, 1),
                (5, 'append', %s, %s, 3, 1)
                """.formatted(1500 - deleted, deleted, 1750 - deleted, deleted));

        // rows is what a query of that version counts; commit times grow and lie in the past
        Instant previous = Instant.EPOCH;
        for (MaterializedRow row : versions.getMaterializedRows()) {
            long version = (long) row.getField(0);
            assertThat(computeScalar("SELECT count(*) FROM trips FOR VERSION AS OF " + version)).isEqualTo(row.getField(3));
            Instant committed = ((ZonedDateTime) row.getField(1)).toInstant();
            assertThat(committed).isAfterOrEqualTo(previous).isBefore(Instant.now());
            previous = committed;
        }
        assertQuery("SELECT count(*) FROM \"trips$versions\" WHERE committed_at IS NULL OR operation IS NULL", "VALUES 0");

        // a tag limits the history to the versions up to it
        assertQuery("SELECT version, operation, rows FROM \"trips@baseline$versions\"", "VALUES (1, 'overwrite', 0), (2, 'append', 1000)");
        assertQuery("SELECT version FROM \"trips@main@3$versions\"", "VALUES 1, 2, 3");
        assertQuery("SELECT version FROM \"trips@main$versions\"", "VALUES 1, 2, 3, 4, 5");
    }

    @Test
    void testBranchVersions()
    {
        // the branch's history starts at the fork point, version 3, which Lance records as a clone of main v3
        assertQuery("SELECT version, operation, rows, deleted_rows, fragments, schema_version FROM \"trips@experiment$versions\"",
                "VALUES (3, 'clone', 1500, 0, 2, 1), (4, 'append', 1600, 0, 3, 1)");
        assertQuery("SELECT version, rows FROM \"trips@experiment@3$versions\"", "VALUES (3, 1500)");
        assertQuery("SELECT version, rows FROM \"trips@branch:experiment$versions\"", "VALUES (3, 1500), (4, 1600)");
        MaterializedResult versions = computeActual("SELECT version, rows FROM \"trips@experiment$versions\"");
        for (MaterializedRow row : versions.getMaterializedRows()) {
            assertThat(computeScalar("SELECT count(*) FROM trips FOR VERSION AS OF 'experiment@%s'".formatted(row.getField(0)))).isEqualTo(row.getField(1));
        }
        // the branch commits after main's v4 and v5
        assertThat((ZonedDateTime) computeScalar("SELECT committed_at FROM \"trips@experiment$versions\" WHERE version = 4"))
                .isAfterOrEqualTo((ZonedDateTime) computeScalar("SELECT committed_at FROM \"trips$versions\" WHERE version = 5"));
        assertQueryFails("SELECT * FROM \"trips@nope$versions\"",
                "\\QTable demo.trips has no tag or branch 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");
    }

    @Test
    void testRefs()
    {
        assertQuery("SELECT name, type, branch, version, parent_branch, parent_version FROM \"trips$refs\"",
                """
                VALUES
                ('main', 'BRANCH', 'main', 5, NULL, NULL),
                ('experiment', 'BRANCH', 'experiment', 4, 'main', 3),
                ('baseline', 'TAG', 'main', 2, NULL, NULL)
                """);
        assertQuery("SELECT name FROM \"trips$refs\" WHERE created_at IS NOT NULL", "VALUES 'experiment', 'baseline'");
        assertThat((ZonedDateTime) computeScalar("SELECT created_at FROM \"trips$refs\" WHERE name = 'baseline'"))
                .isAfterOrEqualTo((ZonedDateTime) computeScalar("SELECT date_trunc('second', committed_at) FROM \"trips$versions\" WHERE version = 2"));
        // each ref reads the version the table names for it
        for (MaterializedRow row : computeActual("SELECT name, branch, version FROM \"trips$refs\"").getMaterializedRows()) {
            assertThat(query("SELECT * FROM trips FOR VERSION AS OF '%s'".formatted(row.getField(0))))
                    .matches("SELECT * FROM trips FOR VERSION AS OF '%s@%s'".formatted(row.getField(1), row.getField(2)));
        }
    }

    @Test
    void testFragments()
    {
        long deleted = deletedByV4();
        // fragment 0 holds trips 0..999 (v2), fragment 1 trips 1000..1499 (v3), fragment 2 trips 1500..1749 (v5)
        long deletedInFirst = (long) computeScalar("SELECT count(*) FROM trips FOR VERSION AS OF 3 WHERE fare < 5 AND trip_id < 1000");
        assertQuery("SELECT id, physical_rows, deleted_rows, cardinality(data_files), deletion_file IS NOT NULL, base_path FROM \"trips$fragments\"",
                """
                VALUES
                (0, 1000, %s, 1, true, CAST(NULL AS varchar)),
                (1, 500, %s, 1, true, NULL),
                (2, 250, 0, 1, false, NULL)
                """.formatted(deletedInFirst, deleted - deletedInFirst));
        assertQuery("SELECT sum(physical_rows - deleted_rows) FROM \"trips$fragments\"", "SELECT " + (1750 - deleted));
        assertThat(computeScalar("SELECT sum(physical_rows - deleted_rows) FROM \"trips$fragments\"")).isEqualTo(computeScalar("SELECT count(*) FROM trips"));

        for (MaterializedRow row : computeActual("SELECT data_files, deletion_file FROM \"trips$fragments\"").getMaterializedRows()) {
            assertExistingFiles(row.getField(0), trips.resolve("data"));
            if (row.getField(1) != null) {
                Path deletionFile = Path.of((String) row.getField(1));
                assertThat(deletionFile).isRegularFile().hasParent(trips.resolve("_deletions"));
            }
        }

        // before the delete no fragment has a deletion file
        assertQuery("SELECT id, physical_rows, deleted_rows, deletion_file FROM \"trips@main@3$fragments\"",
                "VALUES (0, 1000, 0, CAST(NULL AS varchar)), (1, 500, 0, NULL)");
        assertQuery("SELECT id, physical_rows FROM \"trips@baseline$fragments\"", "VALUES (0, 1000)");
    }

    @Test
    void testBranchFragments()
    {
        // the branch inherits main's fragments 0 and 1 (as of v3) from the main table's root and writes fragment 2 itself
        String mainRoot = trips.toAbsolutePath().toString();
        assertQuery("SELECT id, physical_rows, deleted_rows, deletion_file, base_path FROM \"trips@experiment$fragments\"",
                """
                VALUES
                (0, 1000, 0, NULL, '%1$s'),
                (1, 500, 0, NULL, '%1$s'),
                (2, 100, 0, CAST(NULL AS varchar), NULL)
                """.formatted(mainRoot));
        List<MaterializedRow> rows = computeActual("SELECT id, data_files FROM \"trips@experiment$fragments\" ORDER BY id").getMaterializedRows();
        assertExistingFiles(rows.get(0).getField(1), trips.resolve("data"));
        assertExistingFiles(rows.get(1).getField(1), trips.resolve("data"));
        assertExistingFiles(rows.get(2).getField(1), trips.resolve("tree").resolve("experiment").resolve("data"));
        // inherited fragments are main's files, not copies
        assertThat(computeScalar("SELECT data_files FROM \"trips@experiment$fragments\" WHERE id = 0"))
                .isEqualTo(computeScalar("SELECT data_files FROM \"trips$fragments\" WHERE id = 0"));
        assertQuery("SELECT id, base_path FROM \"trips@experiment@3$fragments\"", "VALUES (0, '%1$s'), (1, '%1$s')".formatted(mainRoot));
    }

    @Test
    void testSchemas()
    {
        assertQuery("SELECT id, first_version, last_version FROM \"trips$schemas\"", "VALUES (1, 1, 5)");
        assertThat((String) computeScalar("SELECT columns FROM \"trips$schemas\"")).startsWith("trip_id int64 not null, city ").contains("fare ", "started_at ");
        assertQuery("SELECT id, first_version, last_version FROM \"trips@baseline$schemas\"", "VALUES (1, 1, 2)");
        assertQuery("SELECT id, first_version, last_version FROM \"trips@experiment$schemas\"", "VALUES (1, 3, 4)");

        // a column added in version 2
        assertQuery("SELECT id, first_version, last_version FROM \"added$schemas\"", "VALUES (1, 1, 1), (2, 2, 3)");
        MaterializedResult schemas = computeActual("SELECT columns FROM \"added$schemas\" ORDER BY id");
        assertThat((String) schemas.getMaterializedRows().get(0).getField(0)).startsWith("id int64 not null, name ").doesNotContain("doubled");
        assertThat((String) schemas.getMaterializedRows().get(1).getField(0)).startsWith("id int64 not null, name ").matches(".*, doubled int64( not null)?");
        assertQuery("SELECT version, rows, fragments, schema_version FROM \"added$versions\"", "VALUES (1, 10, 2, 1), (2, 10, 2, 2), (3, 15, 3, 2)");
        assertQuery("SELECT version, operation FROM \"added$versions\" WHERE version IN (1, 3)", "VALUES (1, 'overwrite'), (3, 'append')");
        assertQuery("SELECT id, first_version, last_version FROM \"added@main@1$schemas\"", "VALUES (1, 1, 1)");

        // each version reads with its own schema
        assertThat(computeActual("SELECT * FROM added FOR VERSION AS OF 1").getTypes()).containsExactly(BIGINT, VARCHAR);
        assertThat(computeActual("SELECT * FROM added").getTypes()).containsExactly(BIGINT, VARCHAR, BIGINT);
        assertQuery("SELECT count(*), sum(id) FROM added FOR VERSION AS OF 1", "VALUES (10, 45)");
        assertQuery("SELECT count(*) FROM added WHERE doubled = 2 * id", "VALUES 15");
        assertQueryFails("SELECT doubled FROM added FOR VERSION AS OF 1", ".*Column 'doubled' cannot be resolved");

        // information_schema lists the columns of the latest version of every table
        assertQuery("SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'demo'",
                """
                VALUES
                ('added', 'id', 'bigint'), ('added', 'name', 'varchar'), ('added', 'doubled', 'bigint'),
                ('trips', 'trip_id', 'bigint'), ('trips', 'city', 'varchar'), ('trips', 'fare', 'double'), ('trips', 'started_at', 'timestamp(6)')
                """);
    }

    @Test
    void testUnknownMetadataTables()
    {
        assertQueryFails("SELECT * FROM \"trips$nope\"", "\\Qline 1:15: Table 'lance.demo.\"trips$nope\"' does not exist\\E");
        assertQueryFails("SELECT * FROM \"nope$versions\"", "\\Qline 1:15: Table 'lance.demo.\"nope$versions\"' does not exist\\E");
    }

    private static void assertExistingFiles(Object dataFiles, Path directory)
    {
        @SuppressWarnings("unchecked")
        List<String> files = (List<String>) dataFiles;
        assertThat(files).isNotEmpty();
        for (String file : files) {
            assertThat(Path.of(file)).isRegularFile().hasParent(directory);
        }
    }
}
