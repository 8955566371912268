package io.lancetrino.tests;

import io.lancetrino.sharing.server.LanceSharingServer;
import io.lancetrino.tests.fixtures.RecipientCatalogs;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A sharing server over a warehouse and a recipient catalog ({@code partner}) reading it, in one query runner: what the
 * recipient reads equals what the owner's catalog reads, for every version, tag, branch and clone the share allows,
 * and nothing else is reachable.
 */
final class TestLanceSharing
        extends AbstractTestQueryFramework
{
    private static final String RECIPIENT_TOKEN = "partner-token-0123456789-abcdefghijklmnopqrstuvwxyz";
    private static final String SIGNING_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final String SHARED = "partner.\"sales.tpch\"";

    private Path warehouse;
    private LanceSharingServer server;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-sharing");
        Files.createDirectories(warehouse.resolve("owner"));
        Files.createDirectories(warehouse.resolve("lab"));
        DistributedQueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema("owner").build();
        createTables(runner);

        Path config = warehouse.resolveSibling(warehouse.getFileName() + "-shares.json");
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s", "urlLifetimeSeconds": 4,
                 "shares": [
                   {"name": "sales", "schemas": [{"name": "tpch", "tables": [
                     {"name": "orders", "table": "owner.orders"},
                     {"name": "orders_release", "table": "owner.orders", "refs": ["release"]},
                     {"name": "orders_recent", "table": "owner.orders", "refs": ["main"], "startVersion": 2},
                     {"name": "clone", "table": "lab.orders_clone"},
                     {"name": "docs", "table": "owner.docs"}]}]},
                   {"name": "secret", "schemas": [{"name": "hr", "tables": [{"name": "salaries", "table": "owner.salaries"}]}]}],
                 "recipients": [{"name": "partner", "bearerToken": "%s", "shares": ["sales"]}]}
                """.formatted(warehouse, SIGNING_KEY, RECIPIENT_TOKEN));
        server = LanceSharingServer.start(config, 0);
        RecipientCatalogs.create(runner, "partner", server, RECIPIENT_TOKEN, warehouse.resolveSibling(warehouse.getFileName() + "-profile.json"));
        return runner;
    }

    private static void createTables(QueryRunner runner)
    {
        // version 1, tagged; 2 deletes (a deletion file); 3 appends; branch dev from version 2 with its own rows
        runner.execute("CREATE TABLE owner.orders AS SELECT orderkey, custkey, orderstatus, totalprice, orderdate, comment FROM tpch.tiny.orders");
        runner.execute("CALL lance.system.create_tag('owner', 'orders', 'release', '1')");
        runner.execute("DELETE FROM owner.orders WHERE orderkey % 7 = 0");
        runner.execute("INSERT INTO owner.orders SELECT orderkey + 1000000, custkey, orderstatus, totalprice, orderdate, comment FROM tpch.tiny.orders WHERE orderkey < 1000");
        runner.execute("CREATE BRANCH dev WITH (from_version = 2) IN TABLE owner.orders");
        runner.execute("INSERT INTO owner.orders @ dev VALUES (-1, 1, 'X', 1.5, DATE '2026-12-01', 'only on dev')");
        // Lance allows '/' in branch names
        runner.execute("CREATE BRANCH \"feat/x\" IN TABLE owner.orders FROM dev");
        runner.execute("DELETE FROM owner.orders @ \"feat/x\" WHERE orderkey < 100");
        // a shallow clone reads the source's files through a base path, and adds its own
        runner.execute("CALL lance.system.shallow_clone('owner', 'orders', 'lab', 'orders_clone', 'release')");
        runner.execute("INSERT INTO lab.orders_clone VALUES (-2, 2, 'Y', 2.5, DATE '2026-12-02', 'only in the clone')");
        runner.execute("CREATE TABLE owner.salaries AS SELECT 1 AS id, 100 AS salary");
        runner.execute("CREATE TABLE owner.docs (id bigint, embedding array(real) WITH (dimension = 4)) WITH (max_rows_per_file = 100)");
        runner.execute("INSERT INTO owner.docs SELECT x, ARRAY[CAST(x % 11 AS real), CAST(x % 7 AS real), CAST(x % 5 AS real), 1] FROM UNNEST(sequence(1, 400)) AS t(x)");
        runner.execute("ALTER TABLE owner.docs EXECUTE create_index(column => 'embedding', index_type => 'ivf_flat', options => '{\"num_partitions\": 2}')");
    }

    @AfterAll
    void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void testSharesAppearAsSchemasAndTables()
    {
        assertThat(computeActual("SHOW SCHEMAS FROM partner").getOnlyColumnAsSet())
                .contains("sales.tpch")
                .doesNotContain("secret.hr");
        assertThat(computeActual("SHOW TABLES FROM " + SHARED).getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("orders", "orders_release", "orders_recent", "clone", "docs");
        assertQueryFails("SELECT * FROM partner.\"secret.hr\".salaries", ".*(Schema|Table) .* does not exist.*");
    }

    @Test
    void testRecipientReadsWhatTheOwnerReads()
    {
        assertThat(query("SELECT * FROM " + SHARED + ".orders")).matches("SELECT * FROM lance.owner.orders");
        assertThat(query("SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 1")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 1");
        // version 2 deleted rows with a deletion file
        assertThat(query("SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 2")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 2");
        assertThat(query("SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 'release'")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'release'");
        assertThat(query("SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 'dev'")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'dev'");
        assertThat(query("SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 'feat/x'")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'feat/x'");
        assertThat(query("SELECT * FROM " + SHARED + ".clone")).matches("SELECT * FROM lance.lab.orders_clone");
        // version 2's deletion file hides every order whose key is a multiple of 7
        assertThat(query("SELECT count(*) FROM " + SHARED + ".orders FOR VERSION AS OF 2 WHERE orderkey % 7 = 0")).matches("VALUES BIGINT '0'");
        assertThat(computeActual("SELECT comment FROM " + SHARED + ".orders FOR VERSION AS OF 'dev' WHERE orderkey = -1").getOnlyValue()).isEqualTo("only on dev");
    }

    @Test
    void testRecipientSearchesVectorsAsTheOwnerDoes()
    {
        String nearest = "SELECT id, euclidean_distance(embedding, ARRAY[3e0, 2e0, 1e0, 1e0]) AS d FROM %s ORDER BY d, id LIMIT 8";
        Session ownerWithoutPushdown = Session.builder(getSession()).setCatalogSessionProperty("lance", "vector_search", "off").build();
        assertThat(computeActual(nearest.formatted(SHARED + ".docs")).getMaterializedRows())
                .isEqualTo(computeActual(ownerWithoutPushdown, nearest.formatted("lance.owner.docs")).getMaterializedRows());
        assertThat((String) computeActual("EXPLAIN " + nearest.formatted(SHARED + ".docs")).getOnlyValue()).contains("nearest 8 per split");
        // the SDK cannot open a table behind a sharing server: asked for approximate search, the recipient stays exact
        Session approximate = Session.builder(getSession()).setCatalogSessionProperty("partner", "vector_search", "approximate").build();
        assertThat(computeActual(approximate, nearest.formatted(SHARED + ".docs")).getMaterializedRows())
                .isEqualTo(computeActual(ownerWithoutPushdown, nearest.formatted("lance.owner.docs")).getMaterializedRows());
        assertThat((String) computeActual(approximate, "EXPLAIN " + nearest.formatted(SHARED + ".docs")).getOnlyValue()).contains("nearest 8 per split").doesNotContain("through index");
        // the owner's catalog searches through the index its recipients cannot use
        Session ownerApproximate = Session.builder(getSession()).setCatalogSessionProperty("lance", "vector_search", "approximate").build();
        assertThat((String) computeActual(ownerApproximate, "EXPLAIN " + nearest.formatted("lance.owner.docs")).getOnlyValue()).contains("through index embedding_idx");
        assertThatThrownBy(() -> computeActual("SELECT * FROM TABLE(partner.system.vector_search(schema_name => 'sales.tpch', table_name => 'docs', column => 'embedding', query => ARRAY[1e0, 2e0, 3e0, 4e0]))"))
                .hasMessageContaining("vector_search is not available for tables read through a sharing server");
    }

    @Test
    void testSdkReaderReadsLocalCopiesOfSharedFiles()
    {
        Session sdk = Session.builder(getSession()).setCatalogSessionProperty("partner", "file_reader", "sdk").build();
        assertThat(query(sdk, "SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 2")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 2");
    }

    @Test
    void testMetadataTablesOfSharedTables()
    {
        assertThat(query("SELECT version FROM " + SHARED + ".\"orders$versions\"")).matches("SELECT version FROM lance.owner.\"orders$versions\"");
        assertThat(query("SELECT name, type, version FROM " + SHARED + ".\"orders$refs\"")).matches("SELECT name, type, version FROM lance.owner.\"orders$refs\"");
    }

    @Test
    void testTableChangesOfSharedTables()
    {
        String changes = "SELECT orderkey, totalprice, _change_type, _change_version FROM TABLE(%s.system.table_changes(schema_name => %s, table_name => 'orders', %s))";
        // version 2 deleted, version 3 inserted; on dev, its own insert after version 2
        assertThat(query(changes.formatted("partner", "'sales.tpch'", "start_version => 1, end_version => 3")))
                .matches(changes.formatted("lance", "'owner'", "start_version => 1, end_version => 3"));
        assertThat(query(changes.formatted("partner", "'sales.tpch'", "start_version => 1, end_ref => 'dev'")))
                .matches(changes.formatted("lance", "'owner'", "start_version => 1, end_ref => 'dev'"));
        assertThat(computeActual(changes.formatted("partner", "'sales.tpch'", "start_version => 1, end_version => 2")).getRowCount()).isPositive();
    }

    @Test
    void testShareLimitedToATag()
    {
        assertThat(query("SELECT * FROM " + SHARED + ".orders_release")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'release'");
        assertThat(query("SELECT * FROM " + SHARED + ".orders_release FOR VERSION AS OF 'release'")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'release'");
        assertQueryFails("SELECT * FROM " + SHARED + ".orders_release FOR VERSION AS OF 3", "Table sales.tpch.orders_release has no version 3 on main; versions are 1 to 1");
        assertQueryFails("SELECT * FROM " + SHARED + ".orders_release FOR VERSION AS OF 'dev'", ".*dev.*");
    }

    @Test
    void testShareFromAStartingVersion()
    {
        assertThat(query("SELECT * FROM " + SHARED + ".orders_recent")).matches("SELECT * FROM lance.owner.orders");
        assertThat(query("SELECT * FROM " + SHARED + ".orders_recent FOR VERSION AS OF 2")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 2");
        assertQueryFails("SELECT * FROM " + SHARED + ".orders_recent FOR VERSION AS OF 1", "Table sales.tpch.orders_recent has no version 1 on main; versions are 2 to 3");
    }

    @Test
    void testRecipientCannotWrite()
    {
        assertQueryFails("INSERT INTO " + SHARED + ".orders VALUES (1, 1, 'O', 1.0, DATE '2026-01-01', 'x')", ".*Access Denied: Cannot insert into table.*cannot change them.*");
        assertQueryFails("DELETE FROM " + SHARED + ".orders", ".*Access Denied: Cannot delete from table.*cannot change them.*");
        assertQueryFails("CREATE TABLE " + SHARED + ".copy AS SELECT 1 AS x", ".*Access Denied: Cannot create table.*cannot change them.*");
        assertQueryFails("CREATE BRANCH mine IN TABLE " + SHARED + ".orders", ".*Access Denied: Cannot create branch mine.*cannot change them.*");
        assertQueryFails("CALL partner.system.create_tag('sales.tpch', 'orders', 'mine', NULL)", ".*Access Denied: Cannot execute procedure.*cannot change them.*");
        assertThat(query("SELECT count(*) FROM " + SHARED + ".orders")).matches("SELECT count(*) FROM lance.owner.orders");
    }

    @Test
    void testExpiredUrlsAreRefreshed()
            throws InterruptedException
    {
        // URLs live 4 s: the second scan reads the same (cached) version after they expired
        assertThat(query("SELECT sum(totalprice) FROM " + SHARED + ".orders FOR VERSION AS OF 2")).matches("SELECT sum(totalprice) FROM lance.owner.orders FOR VERSION AS OF 2");
        Thread.sleep(5_000);
        assertThat(query("SELECT sum(totalprice) FROM " + SHARED + ".orders FOR VERSION AS OF 2")).matches("SELECT sum(totalprice) FROM lance.owner.orders FOR VERSION AS OF 2");
    }

    @Test
    void testNewCommitsAreSeen()
    {
        assertUpdate("CREATE TABLE owner.growing AS SELECT 1 AS id", 1);
        assertThat(computeActual("SHOW TABLES FROM " + SHARED).getOnlyColumnAsSet()).doesNotContain("growing");
        // the share lists owner.orders, whose new versions the recipient sees at once
        assertUpdate("INSERT INTO owner.orders @ dev VALUES (-3, 3, 'Z', 3.5, DATE '2026-12-03', 'later on dev')", 1);
        assertThat(query("SELECT * FROM " + SHARED + ".orders FOR VERSION AS OF 'dev'")).matches("SELECT * FROM lance.owner.orders FOR VERSION AS OF 'dev'");
    }
}
