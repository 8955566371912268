package io.lancetrino.tests;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.tests.fixtures.ConcurrentStatements;
import io.lancetrino.tests.fixtures.ConditionalWriteRejectingProxy;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.S3ProxyServer;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables on S3-compatible object storage: S3Proxy in its own process, a catalog configured as for Trino's Iceberg
 * connector, and the Lance SDK reading what the connector wrote from the same bucket.
 */
final class TestLanceS3
        extends AbstractTestQueryFramework
{
    private static final String BUCKET = "lance-test";
    private static final String WAREHOUSE = "s3://" + BUCKET + "/warehouse";

    private S3ProxyServer s3;
    private ConditionalWriteRejectingProxy rejecting;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = S3ProxyServer.start();
        s3.createBucket(BUCKET);
        rejecting = new ConditionalWriteRejectingProxy(s3.port());
        DistributedQueryRunner runner = LanceQueryRunner.builder(WAREHOUSE)
                .withSchema("s")
                .setWorkerCount(0)
                .addConnectorProperty("lance.cleanup.min-retention", "0s")
                .addConnectorProperties(s3.catalogProperties(s3.endpoint()))
                .build();
        // the same warehouse through a store that refuses conditional writes
        runner.createCatalog("lance_unconditional", "lance", ImmutableMap.<String, String>builder()
                .put("lance.warehouse", WAREHOUSE)
                .putAll(s3.catalogProperties(rejecting.endpoint()))
                .buildOrThrow());
        runner.execute("CREATE SCHEMA s");
        return runner;
    }

    @AfterAll
    void stopServers()
            throws Exception
    {
        if (rejecting != null) {
            rejecting.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void testWritesAndTimeTravel()
    {
        assertUpdate("CREATE TABLE nations AS SELECT nationkey, name, regionkey FROM tpch.tiny.nation", 25);
        assertUpdate("INSERT INTO nations VALUES (100, 'ATLANTIS', 9)", 1);
        assertUpdate("DELETE FROM nations WHERE regionkey = 0", 5);
        assertUpdate("UPDATE nations SET name = 'NEW ' || name WHERE regionkey = 1", 5);
        assertQuery("SELECT count(*) FROM nations", "VALUES 21");
        assertQuery("SELECT count(*) FROM nations FOR VERSION AS OF 1", "VALUES 25");
        assertQuery("SELECT count(*) FROM nations FOR VERSION AS OF 2", "VALUES 26");
        assertQuery("SELECT count(*) FROM nations FOR VERSION AS OF 3", "VALUES 21");
        assertQuery("SELECT count(*) FROM nations WHERE name LIKE 'NEW %'", "VALUES 5");
        assertQuery("SELECT count(*) FROM nations FOR VERSION AS OF 3 WHERE name LIKE 'NEW %'", "VALUES 0");
        assertQuery("SELECT max(version) FROM \"nations$versions\"", "VALUES 4");
    }

    @Test
    void testJavaReaderReadsFromObjectStore()
    {
        assertUpdate("CREATE TABLE orders AS SELECT * FROM tpch.tiny.orders", 15000);
        Session sdk = Session.builder(getSession()).setCatalogSessionProperty(LanceQueryRunner.CATALOG, "file_reader", "sdk").build();
        // the Java reader reads data files through trino-filesystem, as the manifests are read
        assertEqualsIgnoreOrder(computeActual("SELECT * FROM orders").getMaterializedRows(), computeActual(sdk, "SELECT * FROM orders").getMaterializedRows());
        ReaderMetrics metrics = ReaderMetrics.of((DistributedQueryRunner) getQueryRunner(), getSession(), "SELECT * FROM orders");
        assertThat(metrics.javaColumns()).isPositive();
        assertThat(metrics.sdkFallbackColumns()).isZero();
    }

    @Test
    void testBranchesTagsAndClones()
    {
        assertUpdate("CREATE TABLE events (id bigint, kind varchar)");
        assertUpdate("INSERT INTO events VALUES (1, 'a'), (2, 'b')", 2);
        assertUpdate("CALL lance.system.create_tag('s', 'events', 'gold', NULL)");
        assertUpdate("CREATE BRANCH dev IN TABLE events");
        assertUpdate("INSERT INTO events @ dev VALUES (3, 'c')", 1);
        assertUpdate("DELETE FROM events @ dev WHERE id = 1", 1);
        assertUpdate("INSERT INTO events VALUES (4, 'd')", 1);

        assertQuery("SELECT id FROM events FOR VERSION AS OF 'dev'", "VALUES 2, 3");
        assertQuery("SELECT id FROM events FOR VERSION AS OF 'gold'", "VALUES 1, 2");
        assertQuery("SELECT id FROM events", "VALUES 1, 2, 4");
        assertQuery("SELECT name FROM \"events$refs\" WHERE name <> 'main'", "VALUES 'dev', 'gold'");
        assertQuery("SHOW BRANCHES IN TABLE events", "VALUES 'main', 'dev'");

        assertUpdate("CALL lance.system.shallow_clone('s', 'events', 's', 'events_shallow', 'gold')");
        assertUpdate("CALL lance.system.deep_clone('s', 'events', 's', 'events_deep', 'dev')");
        assertUpdate("INSERT INTO events_shallow VALUES (5, 'e')", 1);
        assertQuery("SELECT id FROM events_shallow", "VALUES 1, 2, 5");
        assertQuery("SELECT id FROM events_deep", "VALUES 2, 3");

        assertUpdate("DROP BRANCH dev IN TABLE events");
        assertQuery("SHOW BRANCHES IN TABLE events", "VALUES 'main'");
        // the deep clone copied its files, the shallow clone's source keeps the ones it reads
        assertQuery("SELECT id FROM events_deep", "VALUES 2, 3");
        assertQuery("SELECT id FROM events_shallow", "VALUES 1, 2, 5");
    }

    @Test
    void testCleanupAndOptimize()
    {
        assertUpdate("CREATE TABLE compacted (id bigint)");
        for (int i = 0; i < 4; i++) {
            assertUpdate("INSERT INTO compacted VALUES (%s)".formatted(i), 1);
        }
        assertUpdate("DELETE FROM compacted WHERE id = 0", 1);
        computeActual("ALTER TABLE compacted EXECUTE optimize");
        assertQuery("SELECT id FROM compacted", "VALUES 1, 2, 3");
        assertQuery("SELECT count(*) FROM \"compacted$fragments\"", "VALUES 1");
        long versions = (long) computeScalar("SELECT count(*) FROM \"compacted$versions\"");
        assertThat(versions).isEqualTo(7);
        // only the newest version survives a cleanup with no retention; its rows stay readable
        computeActual("ALTER TABLE compacted EXECUTE cleanup(retention_threshold => '0s')");
        assertQuery("SELECT count(*) FROM \"compacted$versions\"", "VALUES 1");
        assertQuery("SELECT id FROM compacted", "VALUES 1, 2, 3");
    }

    @Test
    void testConcurrentInsertsLandOnce()
            throws Exception
    {
        assertUpdate("CREATE TABLE appends (writer integer, n bigint)");
        ConcurrentStatements.runTogether(getQueryRunner(), IntStream.range(0, 8)
                .mapToObj(writer -> "INSERT INTO appends SELECT %s, n FROM UNNEST(sequence(1, %s)) AS t(n)".formatted(writer, 10 + writer))
                .toList());
        assertQuery("SELECT writer, count(*) FROM appends GROUP BY writer", "VALUES (0, 10), (1, 11), (2, 12), (3, 13), (4, 14), (5, 15), (6, 16), (7, 17)");
        // one version per insert after the empty table: none lost, none replaced
        assertQuery("SELECT count(*), max(version) FROM \"appends$versions\"", "VALUES (9, 9)");
    }

    @Test
    void testSchemasAndTablesAreListed()
    {
        assertUpdate("CREATE SCHEMA listed");
        // an empty schema has no table objects: it must still be listed
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains("listed", "s");
        assertUpdate("CREATE TABLE listed.one (x integer)");
        assertUpdate("CREATE TABLE listed.two AS SELECT 1 x", 1);
        assertQuery("SHOW TABLES FROM listed", "VALUES 'one', 'two'");
        assertQueryFails("DROP SCHEMA listed", ".*Cannot drop non-empty schema 'listed'.*");
        assertUpdate("DROP TABLE listed.one");
        assertUpdate("DROP TABLE listed.two");
        assertQuery("SHOW TABLES FROM listed", "SELECT 'x' WHERE false");
        assertUpdate("DROP SCHEMA listed");
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).doesNotContain("listed");
    }

    @Test
    void testSdkReadsWhatTheConnectorWrote()
            throws Exception
    {
        assertUpdate("CREATE TABLE shared AS SELECT orderkey FROM tpch.tiny.orders WHERE orderkey < 1000", 255);
        assertUpdate("DELETE FROM shared WHERE orderkey % 8 = 1", 32);
        List<Long> trino = computeActual("SELECT orderkey FROM shared ORDER BY orderkey").getOnlyColumn().map(Long.class::cast).toList();

        List<Long> sdk = new ArrayList<>();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open()
                        .allocator(allocator)
                        .uri(WAREHOUSE + "/s/shared.lance")
                        .readOptions(new ReadOptions.Builder().setStorageOptions(s3.sdkStorageOptions()).build())
                        .build();
                LanceScanner scanner = dataset.newScan(new ScanOptions.Builder().columns(List.of("orderkey")).build());
                ArrowReader reader = scanner.scanBatches()) {
            assertThat(dataset.version()).isEqualTo(2);
            while (reader.loadNextBatch()) {
                VectorSchemaRoot batch = reader.getVectorSchemaRoot();
                BigIntVector keys = (BigIntVector) batch.getVector("orderkey");
                for (int row = 0; row < batch.getRowCount(); row++) {
                    sdk.add(keys.get(row));
                }
            }
        }
        assertThat(sdk).hasSize(223);
        assertThat(sdk.stream().sorted().toList()).isEqualTo(trino);
    }

    @Test
    void testWriteRefusedWithoutConditionalWrites()
    {
        assertUpdate("CREATE TABLE guarded AS SELECT * FROM (VALUES 1, 2, 3) t(x)", 3);
        // reads need no conditional write
        assertQuery("SELECT count(*) FROM lance_unconditional.s.guarded", "VALUES 3");

        assertThatThrownBy(() -> getQueryRunner().execute("INSERT INTO lance_unconditional.s.guarded VALUES 4"))
                .hasMessageMatching("(?s)Cannot write table s.guarded at s3://lance-test/warehouse/s/guarded.lance: s3://lance-test cannot create files exclusively \\(put-if-absent\\).*"
                        + "Use a store with conditional writes.*The table was not changed.*");
        assertThatThrownBy(() -> getQueryRunner().execute("CREATE TABLE lance_unconditional.s.fresh AS SELECT 1 x"))
                .hasMessageContaining("cannot create files exclusively");
        assertThatThrownBy(() -> getQueryRunner().execute("CALL lance_unconditional.system.create_tag('s', 'guarded', 'gold', NULL)"))
                .hasMessageContaining("cannot create files exclusively");

        assertQuery("SELECT x FROM guarded", "VALUES 1, 2, 3");
        assertQuery("SELECT count(*) FROM \"guarded$versions\"", "VALUES 1");
        assertQuery("SELECT count(*) FROM \"guarded$refs\" WHERE name <> 'main'", "VALUES 0");
        assertQuery("SHOW TABLES LIKE 'fresh'", "SELECT 'x' WHERE false");
        assertThat(computeActual("SELECT count(*) FROM \"guarded$fragments\"").getOnlyValue()).isEqualTo(1L);
    }
}
