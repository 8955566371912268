package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

import java.nio.file.Path;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static java.util.Objects.requireNonNull;

/**
 * Tests of the pure-Java file reader against the SDK reader on the same tables: small batches and row-range splits cut
 * through data files and pages, and the scan's metrics tell which reader decoded which columns.
 */
abstract class AbstractJavaReaderTest
        extends AbstractTestQueryFramework
{
    private final String warehouseName;
    protected Path warehouse;

    protected AbstractJavaReaderTest(String warehouseName)
    {
        this.warehouseName = requireNonNull(warehouseName, "warehouseName is null");
    }

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create(warehouseName);
        return LanceQueryRunner.builder(warehouse)
                .withSchema("t")
                .addConnectorProperty("lance.read-batch-rows", "700")
                .addConnectorProperty("lance.max-split-rows", "1500")
                .build();
    }

    protected void assertSameAsSdk(String sql)
    {
        assertEqualsIgnoreOrder(computeActual(reader("java"), sql).getMaterializedRows(), computeActual(reader("sdk"), sql).getMaterializedRows());
    }

    protected Session reader(String fileReader)
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "file_reader", fileReader)
                .build();
    }

    protected ReaderMetrics readerColumns(Session session, String sql)
    {
        return ReaderMetrics.of((DistributedQueryRunner) getQueryRunner(), session, sql);
    }
}
