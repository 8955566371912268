package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.trino.Session;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads that skip rows early: predicates narrow what the page source decodes, and fragments with scattered deletions
 * are read whole with deleted rows dropped per page. Results must not change, only the rows the scan produces.
 */
final class TestLanceFilteredReads
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-filtered");
        return LanceQueryRunner.builder(warehouse)
                .withSchema("f")
                // small batches, so one split holds many of them
                .addConnectorProperty("lance.read-batch-rows", "1000")
                .build();
    }

    @Test
    void testSelectivePredicatesDecodeOnlyMatchingRows()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE lineitem AS SELECT * FROM tpch.tiny.lineitem", 60175);
        assertQuery("SELECT * FROM lineitem WHERE orderkey = 4225", "SELECT * FROM lineitem WHERE orderkey = 4225");
        assertQuery("SELECT partkey, comment FROM lineitem WHERE suppkey = 42 AND quantity > 20", "SELECT partkey, comment FROM lineitem WHERE suppkey = 42 AND quantity > 20");
        assertQuery("SELECT count(*), sum(extendedprice) FROM lineitem WHERE shipmode IN ('MAIL', 'AIR') AND discount BETWEEN 0.02 AND 0.03",
                "SELECT count(*), sum(extendedprice) FROM lineitem WHERE shipmode IN ('MAIL', 'AIR') AND discount BETWEEN 0.02 AND 0.03");
        // a selective predicate: the scan hands Trino far fewer rows than the table has
        assertThat(scannedRows("SELECT * FROM lineitem WHERE orderkey = 4225")).isLessThan(5_000);
        // a predicate that keeps most rows is not worth a second read: every row is scanned
        assertThat(scannedRows("SELECT sum(quantity) FROM lineitem WHERE shipdate <= DATE '1998-09-01'")).isEqualTo(60175);

        // row-level changes through a narrowed scan name exactly the matching rows
        assertUpdate("DELETE FROM lineitem WHERE orderkey BETWEEN 4225 AND 4230", "SELECT count(*) FROM lineitem WHERE orderkey BETWEEN 4225 AND 4230");
        assertUpdate("UPDATE lineitem SET comment = 'changed' WHERE orderkey = 7", "SELECT count(*) FROM lineitem WHERE orderkey = 7");
        assertQuery("SELECT count(*), sum(CASE WHEN comment = 'changed' THEN 1 ELSE 0 END) FROM lineitem",
                "SELECT count(*), sum(CASE WHEN orderkey = 7 THEN 1 ELSE 0 END) FROM lineitem WHERE orderkey NOT BETWEEN 4225 AND 4230");
    }

    @Test
    void testPredicatePassDecodesWithTheConfiguredReader()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE lineitem_predicates AS SELECT * FROM tpch.tiny.lineitem", 60175);
        String sql = "SELECT partkey, comment FROM lineitem_predicates WHERE suppkey = 42 AND quantity > 20";
        Session java = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_reader", "java").build();
        Session sdk = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_reader", "sdk").build();

        ReaderMetrics javaMetrics = ReaderMetrics.of((DistributedQueryRunner) getQueryRunner(), java, sql);
        assertThat(javaMetrics.javaPredicateColumns()).isPositive();
        assertThat(javaMetrics.sdkPredicateColumns()).isZero();
        ReaderMetrics sdkMetrics = ReaderMetrics.of((DistributedQueryRunner) getQueryRunner(), sdk, sql);
        assertThat(sdkMetrics.javaPredicateColumns()).isZero();
        assertThat(sdkMetrics.sdkPredicateColumns()).isPositive();
        // both narrow to the same rows
        assertThat(computeActual(java, sql).getMaterializedRows()).containsExactlyInAnyOrderElementsOf(computeActual(sdk, sql).getMaterializedRows());
        assertQuery(java, sql, "SELECT partkey, comment FROM lineitem WHERE suppkey = 42 AND quantity > 20");
    }

    @Test
    void testPredicatesOnTablesTheSdkWrote()
    {
        Path schema = warehouse.resolve("sdk");
        // fragments of two data files: doubled was added by the SDK into a file of its own
        LanceFixtures.addedColumn(schema, "added_column");
        assertQuery("SELECT id, name FROM sdk.added_column WHERE doubled = 8", "VALUES (4, 'name-4')");
        assertQuery("SELECT id FROM sdk.added_column WHERE doubled BETWEEN 6 AND 22 AND name <> 'name-5'", "VALUES 3, 4, 6, 7, 8, 9, 10, 11");
        // 7 of every 20 rows deleted by the SDK (a Roaring deletion file): short surviving ranges
        LanceFixtures.largeDeletions(schema, "large_deletions");
        assertQuery("SELECT count(*), sum(id) FROM sdk.large_deletions WHERE id BETWEEN 1000 AND 1999",
                "VALUES (%s, %s)".formatted(LongStream.rangeClosed(1000, 1999).filter(id -> id % 20 >= 7).count(), LongStream.rangeClosed(1000, 1999).filter(id -> id % 20 >= 7).sum()));
        assertQuery("SELECT name FROM sdk.large_deletions WHERE id = 1013", "VALUES 'name-1013'");
        assertQueryReturnsEmptyResult("SELECT name FROM sdk.large_deletions WHERE id = 1003");
        assertQuery("SELECT count(*) FROM sdk.large_deletions WHERE name LIKE 'name-1%'",
                "VALUES " + LongStream.range(0, 20_000).filter(id -> id % 20 >= 7 && String.valueOf(id).startsWith("1")).count());
    }

    @Test
    void testPredicatesOnNullsNaNAndAddedColumns()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE odd (id bigint, d double, s varchar)");
        assertUpdate("INSERT INTO odd SELECT x, CASE WHEN x % 7 = 0 THEN nan() WHEN x % 5 = 0 THEN NULL ELSE x / 10.0 END, CASE WHEN x % 3 = 0 THEN NULL ELSE 'v' || CAST(x % 4 AS varchar) END " +
                "FROM UNNEST(sequence(1, 5000)) AS t(x)", 5000);
        assertUpdate("ALTER TABLE odd ADD COLUMN later bigint");
        assertUpdate("INSERT INTO odd VALUES (6000, 1.5, 'v1', 7)", 1);
        assertThat(computeScalar("SELECT count(*) FROM odd WHERE d > 100")).isEqualTo(computeScalar("SELECT count(*) FROM UNNEST(sequence(1, 5000)) AS t(x) WHERE x % 7 <> 0 AND x % 5 <> 0 AND x / 10.0 > 100"));
        assertThat(computeScalar("SELECT count(*) FROM odd WHERE d <> 2.0")).isEqualTo(computeScalar("SELECT count(*) FROM odd WHERE d IS NOT NULL AND (is_nan(d) OR d <> 2.0)"));
        assertThat(computeScalar("SELECT count(*) FROM odd WHERE d IS NULL")).isEqualTo(computeScalar("SELECT count(*) FROM UNNEST(sequence(1, 5000)) AS t(x) WHERE x % 7 <> 0 AND x % 5 = 0"));
        assertThat(computeScalar("SELECT count(*) FROM odd WHERE s IN ('v1', 'v2') AND id < 100")).isEqualTo(computeScalar("SELECT count(*) FROM UNNEST(sequence(1, 99)) AS t(x) WHERE x % 3 <> 0 AND x % 4 IN (1, 2)"));
        // a column the older fragments do not store reads as NULL there
        assertQuery("SELECT id FROM odd WHERE later = 7", "VALUES 6000");
        assertQuery("SELECT count(*) FROM odd WHERE later IS NULL", "VALUES 5000");
    }

    @Test
    void testTheConnectorEnforcesTheFiltersItEvaluates()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE enforced AS SELECT * FROM tpch.tiny.lineitem", 60175);
        assertUpdate("DELETE FROM enforced WHERE orderkey % 97 = 0", "SELECT count(*) FROM lineitem WHERE orderkey % 97 = 0");
        assertUpdate("ALTER TABLE enforced ADD COLUMN later bigint");
        assertUpdate("INSERT INTO enforced (orderkey, partkey, suppkey, linenumber, quantity, extendedprice, discount, tax, returnflag, linestatus, shipdate, commitdate, receiptdate, shipinstruct, shipmode, comment, later) " +
                "SELECT orderkey + 1000000, partkey, suppkey, linenumber, quantity, extendedprice, discount, tax, returnflag, linestatus, shipdate, commitdate, receiptdate, shipinstruct, shipmode, comment, orderkey FROM tpch.tiny.lineitem WHERE orderkey < 100", "SELECT count(*) FROM lineitem WHERE orderkey < 100");
        String survivors = "(SELECT * FROM lineitem WHERE orderkey % 97 <> 0)";
        for (String reader : List.of("java", "sdk")) {
            Session session = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_reader", reader).build();
            // no filter is left to the engine, on projected columns or not, for every type the page source compares
            assertThat(query(session, "SELECT * FROM enforced WHERE orderkey = 4225")).isFullyPushedDown();
            assertThat(query(session, "SELECT comment FROM enforced WHERE suppkey = 42 AND quantity > 20 AND shipmode IN ('MAIL', 'AIR')")).isFullyPushedDown();
            assertThat(query(session, "SELECT extendedprice FROM enforced WHERE shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31' AND discount = 0.05")).isFullyPushedDown();
            // the answers are a scan's
            assertQuery(session, "SELECT orderkey, linenumber FROM enforced WHERE orderkey = 4225", "SELECT orderkey, linenumber FROM lineitem WHERE orderkey = 4225");
            assertQuery(session, "SELECT comment FROM enforced WHERE suppkey = 42 AND quantity > 20 AND shipmode IN ('MAIL', 'AIR') AND later IS NULL",
                    "SELECT comment FROM " + survivors + " WHERE suppkey = 42 AND quantity > 20 AND shipmode IN ('MAIL', 'AIR')");
            assertQuery(session, "SELECT count(*), sum(extendedprice) FROM enforced WHERE shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31' AND discount = 0.05 AND later IS NULL",
                    "SELECT count(*), sum(extendedprice) FROM " + survivors + " WHERE shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31' AND discount = 0.05");
            // deleted rows stay deleted; a column older fragments do not store matches only as NULL there
            assertQuery(session, "SELECT count(*) FROM enforced WHERE orderkey = 97", "VALUES 0");
            assertQuery(session, "SELECT orderkey FROM enforced WHERE later = 7", "SELECT orderkey + 1000000 FROM lineitem WHERE orderkey = 7");
            assertQuery(session, "SELECT count(*) FROM enforced WHERE later > 90", "SELECT count(*) FROM lineitem WHERE orderkey > 90 AND orderkey < 100");
            // a LIMIT over an enforced filter counts matching rows, not rows read
            assertQuery(session, "SELECT count(*) FROM (SELECT orderkey FROM enforced WHERE suppkey = 42 LIMIT 5)", "VALUES 5");
            assertQuery(session, "SELECT DISTINCT suppkey FROM (SELECT suppkey FROM enforced WHERE suppkey = 42 LIMIT 5)", "VALUES 42");
        }
        // what the page source cannot compare stays with the engine
        assertThat(query("SELECT orderkey FROM enforced WHERE comment LIKE '%express%' AND orderkey < 10")).isNotFullyPushedDown(io.trino.sql.planner.plan.FilterNode.class);
        assertQuery("SELECT orderkey FROM enforced WHERE comment LIKE '%express%' AND orderkey < 1000", "SELECT orderkey FROM lineitem WHERE comment LIKE '%express%' AND orderkey < 1000 AND orderkey % 97 <> 0");
    }

    @Test
    void testScatteredDeletionsAreDroppedPerPage()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE orders AS SELECT * FROM tpch.tiny.orders", 15000);
        // every tenth order: thousands of short surviving ranges in the one fragment
        assertUpdate("DELETE FROM orders WHERE orderkey % 10 = 3", "SELECT count(*) FROM orders WHERE orderkey % 10 = 3");
        assertQuery("SELECT count(*), sum(totalprice), max(comment) FROM orders", "SELECT count(*), sum(totalprice), max(comment) FROM orders WHERE orderkey % 10 <> 3");
        assertQuery("SELECT orderkey, orderstatus FROM orders WHERE custkey = 370", "SELECT orderkey, orderstatus FROM orders WHERE custkey = 370 AND orderkey % 10 <> 3");
        assertThat(scannedRows("SELECT sum(totalprice) FROM orders")).isEqualTo(15000 - (long) computeScalar("SELECT count(*) FROM tpch.tiny.orders WHERE orderkey % 10 = 3"));
        // row-level changes on such a fragment name the right rows
        assertUpdate("UPDATE orders SET totalprice = -1 WHERE orderkey % 10 = 4", "SELECT count(*) FROM orders WHERE orderkey % 10 = 4");
        assertUpdate("DELETE FROM orders WHERE orderkey % 10 = 5", "SELECT count(*) FROM orders WHERE orderkey % 10 = 5");
        assertQuery("SELECT count(*), sum(CASE WHEN totalprice = -1 THEN 1 ELSE 0 END) FROM orders",
                "SELECT count(*), sum(CASE WHEN orderkey % 10 = 4 THEN 1 ELSE 0 END) FROM orders WHERE orderkey % 10 NOT IN (3, 5)");
        assertQuery("SELECT orderkey FROM orders WHERE orderkey BETWEEN 100 AND 200", "SELECT orderkey FROM orders WHERE orderkey BETWEEN 100 AND 200 AND orderkey % 10 NOT IN (3, 5)");
    }

    @Test
    void testJoinsReadOnlyTheKeysTheBuildSideHas()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE join_orders AS SELECT * FROM tpch.tiny.orders", 15000);
        assertUpdate("CREATE TABLE join_lineitem AS SELECT * FROM tpch.tiny.lineitem", 60175);
        String join = "SELECT count(*), max(o.comment) FROM join_orders o JOIN join_lineitem l ON o.orderkey = l.orderkey WHERE l.partkey = %s";
        assertQuery(join.formatted(7), "SELECT count(*), max(o.comment) FROM orders o JOIN lineitem l ON o.orderkey = l.orderkey WHERE l.partkey = 7");
        // splits of orders wait for the keys of the selective lineitem side, so its scan passes the join a few rows
        // (31 from each side), not 15,000
        assertThat(rowsOutOfScans(join.formatted(7))).isLessThan(1_000);
        // no key at all: orders is not read
        assertQuery(join.formatted(-1), "VALUES (0, CAST(NULL AS varchar))");
        assertThat(scannedRows(join.formatted(-1))).isEqualTo(scannedRows("SELECT count(*) FROM join_lineitem WHERE partkey = -1"));
    }

    /** Rows the scans (after their filters) handed to the rest of the query. */
    private long rowsOutOfScans(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) getQueryRunner();
        var result = runner.executeWithPlan(getSession(), sql);
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats().getOperatorSummaries().stream()
                .filter(operator -> operator.getOperatorType().contains("Scan"))
                .mapToLong(operator -> operator.getOutputPositions())
                .sum();
    }

    /** Rows the table scan handed to Trino. */
    @Test
    void testColumnsAreDecodedOnlyForBatchesTheFilterKeeps()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS f");
        assertUpdate("CREATE TABLE lineitem_lazy AS SELECT * FROM tpch.tiny.lineitem", 60175);
        // filters the connector cannot narrow the scan with (no domain on a column): the engine filters each batch
        String keepsOneOrder = "SELECT max(comment), sum(extendedprice) FROM lineitem_lazy WHERE orderkey % 100000 = 4225";
        String keepsAll = "SELECT max(comment), sum(extendedprice) FROM lineitem_lazy WHERE orderkey % 100000 >= 0";
        assertQuery(keepsOneOrder, "SELECT max(comment), sum(extendedprice) FROM lineitem WHERE orderkey = 4225");
        assertQuery(keepsAll, "SELECT max(comment), sum(extendedprice) FROM lineitem");
        assertThat(scannedRows(keepsOneOrder)).isEqualTo(60175);
        // comment and extendedprice are decoded for the one batch of 1,000 rows holding the order, orderkey for all 61
        long selectiveBytes = physicalInputBytes(keepsOneOrder);
        long allBytes = physicalInputBytes(keepsAll);
        assertThat(selectiveBytes).isPositive().isLessThan(allBytes / 3);
        assertThat(physicalInputBytes("SELECT max(orderkey) FROM lineitem_lazy WHERE orderkey % 100000 >= 0")).isLessThanOrEqualTo(selectiveBytes);

        // positions the filter selects, then the columns it did not read, also past deleted rows
        assertUpdate("DELETE FROM lineitem_lazy WHERE linenumber = 2", "SELECT count(*) FROM lineitem WHERE linenumber = 2");
        assertQuery("SELECT orderkey, linenumber, comment FROM lineitem_lazy WHERE orderkey % 97 = 3 AND length(comment) > 20",
                "SELECT orderkey, linenumber, comment FROM lineitem WHERE orderkey % 97 = 3 AND length(comment) > 20 AND linenumber <> 2");
    }

    private long physicalInputBytes(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) getQueryRunner();
        var result = runner.executeWithPlan(getSession(), sql);
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats().getPhysicalInputDataSize().toBytes();
    }

    private long scannedRows(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) getQueryRunner();
        var result = runner.executeWithPlan(getSession(), sql);
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats().getPhysicalInputPositions();
    }
}
