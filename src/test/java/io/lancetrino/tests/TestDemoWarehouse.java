package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.lancetrino.tests.server.ReadmeSection;
import io.lancetrino.tests.server.ServeProcess;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo the local server creates, read through SQL: every version, the tag and the branch; and the README's quick
 * start run on it word for word.
 */
final class TestDemoWarehouse
        extends AbstractTestQueryFramework
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-demo");
        DemoWarehouse.create(warehouse);
        return LanceQueryRunner.builder(warehouse).withSchema("demo").build();
    }

    @Test
    void testVersionsTagAndBranch()
    {
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 1", "VALUES 0");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 2", "VALUES 1000");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'baseline'", "VALUES 1000");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 3", "VALUES 1500");
        long deleted = (long) computeScalar("SELECT count(*) FROM trips FOR VERSION AS OF 3 WHERE fare < 5");
        assertThat(deleted).isPositive();
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 4", "VALUES " + (1500 - deleted));
        assertQuery("SELECT count(*) FROM trips", "VALUES " + (1750 - deleted));
        assertQuery("SELECT count(*) FROM trips WHERE fare < 5 AND trip_id < 1500", "VALUES 0");
        assertQuery("SELECT count(*) FROM trips FOR VERSION AS OF 'experiment'", "VALUES 1600");
        assertQuery("SELECT min(trip_id), max(trip_id) FROM trips FOR VERSION AS OF 'experiment' WHERE trip_id >= 1500", "VALUES (5000, 5099)");
        assertQuery("SELECT city, count(*) FROM trips FOR VERSION AS OF 2 GROUP BY city", "VALUES ('Lisbon', 167), ('Oslo', 167), ('Kyoto', 167), ('Lima', 167), ('Accra', 166), ('Quebec', 166)");
    }

    @Test
    void testReadmeQuickStartRunsWordForWord()
            throws Exception
    {
        String block = ReadmeSection.read(ServeProcess.projectRoot().resolve("README.md"), "## Quick start").blockContaining("FOR VERSION AS OF");
        List<String> statements = Arrays.stream(block.replaceAll("--[^\n]*", "").split(";"))
                .map(String::strip)
                .filter(statement -> !statement.isEmpty())
                .toList();
        assertThat(statements).hasSizeGreaterThanOrEqualTo(5);
        for (String statement : statements.subList(0, statements.size() - 1)) {
            computeActual(statement);
        }
        // the search at the end finds the trips its query names
        assertThat(computeActual(statements.getLast()).getRowCount()).isPositive();
    }
}
