package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.SdkScans;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQL writes, checked through Trino and through the Lance SDK's own scan of the same table.
 */
final class TestLanceWrites
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = Files.createTempDirectory("lance-writes");
        return LanceQueryRunner.builder(warehouse).withSchema("w").build();
    }

    @Test
    void testCreateInsertDeleteUpdateMerge()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE orders_copy AS SELECT orderkey, custkey, orderstatus, totalprice, orderdate FROM tpch.tiny.orders", 15000);
        assertQuery("SELECT count(*), sum(totalprice) FROM orders_copy", "SELECT count(*), sum(totalprice) FROM orders");
        assertUpdate("INSERT INTO orders_copy SELECT orderkey + 1000000, custkey, orderstatus, totalprice, orderdate FROM tpch.tiny.orders WHERE orderkey < 100", "SELECT count(*) FROM orders WHERE orderkey < 100");
        assertQuery("SELECT count(*) FROM orders_copy", "SELECT 15000 + count(*) FROM orders WHERE orderkey < 100");
        // the copies of orders with keys under 100 count too
        assertUpdate("DELETE FROM orders_copy WHERE orderstatus = 'F'", "SELECT count(*) + sum(CASE WHEN orderkey < 100 THEN 1 ELSE 0 END) FROM orders WHERE orderstatus = 'F'");
        assertQuery("SELECT count(*) FROM orders_copy WHERE orderstatus = 'F'", "VALUES 0");
        long afterDelete = (long) computeScalar("SELECT count(*) FROM orders_copy");
        assertUpdate("UPDATE orders_copy SET totalprice = 0 WHERE orderstatus = 'P'", "SELECT count(*) + sum(CASE WHEN orderkey < 100 THEN 1 ELSE 0 END) FROM orders WHERE orderstatus = 'P'");
        assertQuery("SELECT sum(totalprice) FROM orders_copy WHERE orderstatus = 'P'", "VALUES 0.0");
        assertQuery("SELECT count(*) FROM orders_copy", "VALUES " + afterDelete);
        assertUpdate("MERGE INTO orders_copy t USING (SELECT orderkey, totalprice FROM tpch.tiny.orders WHERE orderkey < 1000) s ON t.orderkey = s.orderkey " +
                "WHEN MATCHED THEN UPDATE SET totalprice = -1 WHEN NOT MATCHED THEN INSERT (orderkey, custkey, orderstatus, totalprice, orderdate) VALUES (s.orderkey, 0, 'X', s.totalprice, DATE '2020-01-01')",
                "SELECT count(*) FROM orders WHERE orderkey < 1000");
        assertQuery("SELECT count(*) FROM orders_copy WHERE totalprice = -1", "SELECT count(*) FROM orders WHERE orderkey < 1000 AND orderstatus <> 'F'");
        assertQuery("SELECT count(*) FROM orders_copy WHERE orderstatus = 'X'", "SELECT count(*) FROM orders WHERE orderkey < 1000 AND orderstatus = 'F'");
        assertQuery("SELECT count(*) FROM orders_copy FOR VERSION AS OF 1", "VALUES 15000");

        List<MaterializedRow> trino = computeActual("SELECT orderkey, custkey, orderstatus, totalprice, orderdate FROM orders_copy").getMaterializedRows();
        List<MaterializedRow> sdk = SdkScans.scanRows(warehouse.resolve("w/orders_copy.lance"), org.lance.Ref.ofMain(), List.of());
        assertThat(sdk).containsExactlyInAnyOrderElementsOf(trino);
    }
}
