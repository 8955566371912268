package io.lancetrino.tests;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Merges after both sides compacted (and cleaned up): compaction moves rows to new fragments but changes none, so a
 * merge follows rows through each {@code Rewrite} and gives {@code T - (B - S) + (S - B)} over the rows of the merge
 * base B, source S and target T, or refuses naming what it cannot follow; it never commits anything else.
 */
final class TestLanceMergeAfterMaintenance
        extends AbstractTestQueryFramework
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-merge-maintenance");
        Files.createDirectories(warehouse.resolve("m"));
        return LanceQueryRunner.builder(warehouse).withSchema("m").build();
    }

    private Session noMinimumRetention()
    {
        return Session.builder(getSession()).setCatalogSessionProperty("lance", "cleanup_min_retention", "0s").build();
    }

    /** The twenty statements: writes and compactions on both sides of a branch, then the merge. */
    private long writeBothSidesWithCompactions(String table)
    {
        assertUpdate("CREATE TABLE %s (id bigint, v varchar) WITH (max_rows_per_file = 100)".formatted(table));
        for (int part = 0; part < 4; part++) {
            assertUpdate("INSERT INTO %s SELECT x, 'base' FROM UNNEST(sequence(%s, %s)) AS t(x)".formatted(table, part * 250 + 1, part * 250 + 250), 250);
        }
        long fork = (long) computeScalar("SELECT max(version) FROM \"%s$versions\"".formatted(table));
        assertUpdate("CREATE BRANCH b IN TABLE " + table);
        assertUpdate("INSERT INTO %s SELECT x, 'm1' FROM UNNEST(sequence(2001, 2100)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));
        assertUpdate("DELETE FROM %s WHERE id BETWEEN 991 AND 1000".formatted(table), 10);
        assertUpdate("INSERT INTO %s SELECT x, 'm2' FROM UNNEST(sequence(2101, 2200)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));
        assertUpdate("UPDATE %s SET v = 'm-upd' WHERE id BETWEEN 201 AND 220".formatted(table), 20);
        assertUpdate("INSERT INTO %s SELECT x, 'm3' FROM UNNEST(sequence(2201, 2300)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));

        assertUpdate("UPDATE %s @ b SET v = 'b-upd' WHERE id BETWEEN 1 AND 100".formatted(table), 100);
        assertUpdate("DELETE FROM %s @ b WHERE id BETWEEN 101 AND 150".formatted(table), 50);
        assertUpdate("INSERT INTO %s @ b SELECT x, 'b1' FROM UNNEST(sequence(3001, 3100)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize(branch => 'b')".formatted(table));
        assertUpdate("UPDATE %s @ b SET v = 'b-upd2' WHERE id BETWEEN 301 AND 310".formatted(table), 10);
        assertUpdate("INSERT INTO %s @ b SELECT x, 'b2' FROM UNNEST(sequence(3101, 3200)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize(branch => 'b')".formatted(table));
        return fork;
    }

    @Test
    void testMergeFollowsRowsThroughCompactionsOnBothSides()
    {
        long fork = writeBothSidesWithCompactions("both");
        Set<List<Object>> expected = expectedMerge("both", fork);
        computeActual("ALTER TABLE both EXECUTE merge_branch(source => 'b')");
        assertThat(rows("SELECT id, v FROM both")).isEqualTo(expected);
        // 1,000 base rows less 10 deleted on main and 150 replaced or deleted on b, 300 inserted on main, 200 on b,
        // 100 + 10 updated on b and 20 on main
        assertThat(expected).hasSize(1000 - 10 - 150 + 300 + 200 + 100);
    }

    @Test
    void testMergeAfterCleanupFollowsRowsOrRefuses()
    {
        long fork = writeBothSidesWithCompactions("cleaned");
        Set<List<Object>> expected = expectedMerge("cleaned", fork);
        computeActual(noMinimumRetention(), "ALTER TABLE cleaned EXECUTE cleanup(retention_threshold => '0s')");
        computeActual("ALTER TABLE cleaned EXECUTE merge_branch(source => 'b')");
        assertThat(rows("SELECT id, v FROM cleaned")).isEqualTo(expected);
    }

    /** {@code T - (B - S) + (S - B)}, over rows (every statement writes values of its own). */
    private Set<List<Object>> expectedMerge(String table, long fork)
    {
        Set<List<Object>> base = rows("SELECT id, v FROM %s FOR VERSION AS OF %s".formatted(table, fork));
        Set<List<Object>> source = rows("SELECT id, v FROM %s FOR VERSION AS OF 'b'".formatted(table));
        Set<List<Object>> target = rows("SELECT id, v FROM " + table);
        return ImmutableSet.copyOf(Sets.union(Sets.difference(target, Sets.difference(base, source)), Sets.difference(source, base)));
    }

    private Set<List<Object>> rows(String sql)
    {
        return computeActual(sql).getMaterializedRows().stream()
                .map(MaterializedRow::getFields)
                .collect(ImmutableSet.toImmutableSet());
    }
}
