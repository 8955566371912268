package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Pattern;

import static io.lancetrino.tests.TestLanceErrors.copyDirectory;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code FOR VERSION AS OF} and {@code FOR TIMESTAMP AS OF} over the demo table: version numbers of every integer type,
 * tags, branches, {@code '<branch>@<version>'}, {@code 'tag:'} and {@code 'branch:'} prefixes, commit times, and the
 * messages of every way a reference can be wrong.
 */
final class TestLanceTimeTravel
        extends AbstractTestQueryFramework
{
    private static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    // rows of main v3 with fare < 5, deleted by v4
    private long deletedByV4;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-time-travel");
        Path trips = DemoWarehouse.create(warehouse);
        // a tag named like the branch: the branch's inherited files stay under trips.lance, which this copy's branch
        // manifests point to, so the copy reads the same rows
        Path ambiguous = warehouse.resolve("demo").resolve("ambiguous.lance");
        copyDirectory(trips, ambiguous);
        Files.copy(ambiguous.resolve("_refs/tags/baseline.json"), ambiguous.resolve("_refs/tags/experiment.json"));
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
    void testIntegerVersionLiterals()
    {
        for (String literal : List.of("2", "CAST(2 AS tinyint)", "CAST(2 AS smallint)", "CAST(2 AS integer)", "CAST(2 AS bigint)", "TINYINT '2'", "BIGINT '2'")) {
            assertQuery("SELECT count(*), min(trip_id), max(trip_id) FROM trips FOR VERSION AS OF " + literal, "VALUES (1000, 0, 999)");
            assertThat(query("SELECT * FROM trips FOR VERSION AS OF " + literal))
                    .matches("SELECT * FROM trips FOR VERSION AS OF 'baseline'");
        }
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF CAST(1 AS tinyint)", "VALUES 0");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF CAST(3 AS smallint)", "VALUES 1500");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF BIGINT '4'", "VALUES " + (1500 - deletedByV4()));
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 4 WHERE fare < 5", "VALUES 0");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF CAST(5 AS integer)", "VALUES " + (1750 - deletedByV4()));
        // a constant expression is evaluated before it reaches the connector
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 1 + 1", "VALUES 1000");
    }

    @Test
    void testTagsAndBranches()
    {
        long mainHead = 1750 - deletedByV4();
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'baseline'", "VALUES 1000");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'tag:baseline'", "VALUES 1000");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'tag:baseline'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 2");

        // 'main' is the head of main, like no version at all
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'main'", "VALUES " + mainHead);
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'main'")).matches("SELECT * FROM trips");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'main'")).matches("SELECT * FROM trips FOR VERSION AS OF 5");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'main@2'")).matches("SELECT * FROM trips FOR VERSION AS OF 2");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'main@4'")).matches("SELECT * FROM trips FOR VERSION AS OF 4");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'branch:main'")).matches("SELECT * FROM trips");

        // the branch head: main v3 plus its own 100 trips
        assertQuery("SELECT count(*), count(DISTINCT trip_id) FROM trips FOR VERSION AS OF 'experiment'", "VALUES (1600, 1600)");
        assertQuery("SELECT count(*), min(trip_id), max(trip_id) FROM trips FOR VERSION AS OF 'experiment' WHERE trip_id >= 1500", "VALUES (100, 5000, 5099)");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'experiment' WHERE trip_id < 5000"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 3");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'branch:experiment'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 'experiment'");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'experiment@4'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 'experiment'");
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'branch:experiment@4'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 'experiment'");

        // version 3 of the branch is the fork point: exactly main v3 (before main's delete)
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'experiment@3'", "VALUES 1500");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'experiment@3' WHERE trip_id >= 5000", "VALUES 0");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'experiment@3' WHERE fare < 5", "VALUES " + deletedByV4());
        assertThat(query("SELECT * FROM trips FOR VERSION AS OF 'experiment@3'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 3");

        // the branch does not see main's later delete or append
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'experiment' WHERE trip_id BETWEEN 1500 AND 1749", "VALUES 0");
        assertQuery("SELECT count(*) FROM trips WHERE trip_id BETWEEN 5000 AND 5099", "VALUES 0");
    }

    @Test
    void testTimestamps()
    {
        MaterializedResult versions = computeActual("SELECT version, committed_at FROM \"trips$versions\" ORDER BY version");
        assertThat(versions.getRowCount()).isEqualTo(5);
        Instant[] committed = new Instant[6];
        for (MaterializedRow row : versions.getMaterializedRows()) {
            committed[Math.toIntExact((long) row.getField(0))] = ((ZonedDateTime) row.getField(1)).toInstant();
        }
        long[] expectedCounts = {0, 0, 1000, 1500, 1500 - deletedByV4(), 1750 - deletedByV4()};
        ZoneId sessionZone = getSession().getTimeZoneKey().getZoneId();
        int checked = 0;
        for (int version = 1; version <= 5; version++) {
            // committed_at is truncated to milliseconds, so the commit happened in [committed, committed + 1ms); an
            // instant strictly between two commits needs them two milliseconds apart
            if (version < 5 && ChronoUnit.MILLIS.between(committed[version], committed[version + 1]) < 2) {
                continue;
            }
            checked++;
            assertVersionAt(committed[version].plusMillis(1), "", expectedCounts[version], sessionZone);
            if (version < 5) {
                Instant beforeNext = committed[version + 1].minusMillis(1);
                assertVersionAt(beforeNext, "", expectedCounts[version], sessionZone);
                // timestamp(6) and timestamp(9): one micro- or nanosecond before the next commit's millisecond
                assertVersionAt(beforeNext, "999", expectedCounts[version], sessionZone);
                assertVersionAt(beforeNext, "999999", expectedCounts[version], sessionZone);
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(3);
        if (ChronoUnit.MILLIS.between(committed[3], committed[4]) >= 2) {
            assertThat(query("SELECT * FROM trips FOR TIMESTAMP AS OF TIMESTAMP '%s UTC'".formatted(SQL_TIMESTAMP.format(committed[3].plusMillis(1).atZone(ZoneOffset.UTC)))))
                    .matches("SELECT * FROM trips FOR VERSION AS OF 3");
        }

        // before the first commit
        Instant beforeFirst = committed[1].minusSeconds(1);
        assertQueryFails(
                "SELECT count(*) FROM trips FOR TIMESTAMP AS OF TIMESTAMP '%s UTC'".formatted(SQL_TIMESTAMP.format(beforeFirst.atZone(ZoneOffset.UTC))),
                "\\QTable demo.trips has no version committed at or before " + beforeFirst + "; its oldest version 1 was committed at " + isoMillis(committed[1]) + "\\E\\d*Z");
        Instant farPast = LocalDate.of(2000, 1, 1).atStartOfDay(sessionZone).toInstant();
        assertQueryFails(
                "SELECT count(*) FROM trips FOR TIMESTAMP AS OF DATE '2000-01-01'",
                "\\QTable demo.trips has no version committed at or before " + farPast + "; its oldest version 1 was committed at " + isoMillis(committed[1]) + "\\E\\d*Z");
        // the engine refuses the future and NULL before the connector sees them
        assertQueryFails("SELECT count(*) FROM trips FOR TIMESTAMP AS OF TIMESTAMP '2999-01-01 00:00:00 UTC'", "\\Qline 1:28: Pointer value '2999-01-01 00:00:00 UTC' is not in the past\\E");
        assertQueryFails("SELECT count(*) FROM trips FOR TIMESTAMP AS OF CAST(NULL AS timestamp(3) with time zone)", "\\Qline 1:28: Pointer value cannot be NULL\\E");
        assertQueryFails("SELECT count(*) FROM trips FOR TIMESTAMP AS OF 5", "\\Qline 1:28: Type integer invalid. Temporal pointers must be of type Timestamp, Timestamp with Time Zone, or Date.\\E");
    }

    private void assertVersionAt(Instant instant, String extraDigits, long count, ZoneId sessionZone)
    {
        String withZone = "TIMESTAMP '%s%s UTC'".formatted(SQL_TIMESTAMP.format(instant.atZone(ZoneOffset.UTC)), extraDigits);
        String local = "TIMESTAMP '%s%s'".formatted(SQL_TIMESTAMP.format(instant.atZone(sessionZone)), extraDigits);
        for (String pointer : List.of(withZone, local)) {
            assertQuery("SELECT count(*) FROM trips FOR TIMESTAMP AS OF " + pointer, "VALUES " + count);
        }
    }

    private static String isoMillis(Instant instant)
    {
        return DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").format(instant.atZone(ZoneOffset.UTC));
    }

    @Test
    void testVersionErrors()
    {
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 99", "\\QTable demo.trips has no version 99 on main; versions are 1 to 5\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF CAST(99 AS tinyint)", "\\QTable demo.trips has no version 99 on main; versions are 1 to 5\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 3000000000", "\\QTable demo.trips has no version 3000000000 on main; versions are 1 to 5\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 0", "\\QTable demo.trips has no version 0 on main; versions are 1 to 5\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF -1", "\\QTable demo.trips has no version -1 on main; versions are 1 to 5\\E");

        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'nope'",
                "\\QTable demo.trips has no tag or branch 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'tag:nope'",
                "\\QTable demo.trips has no tag 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'tag:experiment'",
                "\\QTable demo.trips has no tag 'experiment'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'branch:baseline'",
                "\\QTable demo.trips has no branch 'baseline'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'nope@1'",
                "\\QTable demo.trips has no branch 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");
        // names are case sensitive
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'Baseline'",
                "\\QTable demo.trips has no tag or branch 'Baseline'. Tags: ['baseline']. Branches: ['main', 'experiment']\\E");

        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'experiment@99'",
                "\\QTable demo.trips has no branch 'experiment' version 99; versions are 3 to 4\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'experiment@2'",
                "\\QTable demo.trips has no branch 'experiment' version 2; versions are 3 to 4\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'main@99'",
                "\\QTable demo.trips has no main version 99; versions are 1 to 5\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'experiment@x'",
                "\\QInvalid version reference 'experiment@x' for table demo.trips: expected '<branch>@<version number>'\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'experiment@'",
                "\\QInvalid version reference 'experiment@' for table demo.trips: expected '<branch>@<version number>'\\E");

        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 2.0e0", "\\QUnsupported type for table version: double\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 2.0", "\\QUnsupported type for table version: decimal(2,1)\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF true", "\\QUnsupported type for table version: boolean\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF DATE '2025-01-01'", "\\QUnsupported type for table version: date\\E");
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF NULL", "\\Qline 1:21: Pointer value cannot be NULL\\E");

        // a missing table stays Trino's own message, with or without a version
        assertQueryFails("SELECT * FROM nope FOR VERSION AS OF 2", "\\Qline 1:15: Table 'lance.demo.nope' does not exist\\E");
        assertQueryFails("SELECT * FROM nope FOR TIMESTAMP AS OF DATE '2025-01-01'", "\\Qline 1:15: Table 'lance.demo.nope' does not exist\\E");
    }

    @Test
    void testAmbiguousReference()
    {
        assertQueryFails("SELECT count(*) FROM ambiguous FOR VERSION AS OF 'experiment'",
                Pattern.quote("'experiment' is both a tag (main version 2) and a branch of table demo.ambiguous; use 'tag:experiment' or 'branch:experiment'"));
        assertQuery("SELECT count(*) FROM ambiguous FOR VERSION AS OF 'tag:experiment'", "VALUES 1000");
        assertThat(query("SELECT * FROM ambiguous FOR VERSION AS OF 'tag:experiment'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 'baseline'");
        assertQuery("SELECT count(*) FROM ambiguous FOR VERSION AS OF 'branch:experiment'", "VALUES 1600");
        assertThat(query("SELECT * FROM ambiguous FOR VERSION AS OF 'branch:experiment'"))
                .matches("SELECT * FROM trips FOR VERSION AS OF 'experiment'");
        assertQuery("SELECT count(*) FROM ambiguous FOR VERSION AS OF 'experiment@3'", "VALUES 1500");
        assertQuery("SELECT count(*) FROM ambiguous FOR VERSION AS OF 'baseline'", "VALUES 1000");
        assertQueryFails("SELECT count(*) FROM ambiguous FOR VERSION AS OF 'nope'",
                "\\QTable demo.ambiguous has no tag or branch 'nope'. Tags: ['baseline', 'experiment']. Branches: ['main', 'experiment']\\E");
    }
}
