package io.lancetrino.tests;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.tests.fixtures.RecipientCatalogs;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.sharing.server.LanceSharingServer;
import io.trino.Session;
import io.trino.spi.security.Identity;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The seed's roles under Trino's file-based system access control, configured as users configure it: the owner
 * writes {@code prod}; an experimenter reads {@code prod}, owns {@code lab}, clones into it and writes there, and is
 * refused every change to {@code prod}; a user who may not read {@code prod} cannot clone it either.
 */
final class TestLanceRefAccessControl
        extends AbstractTestQueryFramework
{
    private static final String RULES = """
            {
              "catalogs": [
                {"user": "(owner|experimenter|outsider|appender|analyst|auditor)", "catalog": "(lance|system|partner)", "allow": "all"}
              ],
              "schemas": [
                {"user": "owner", "schema": ".*", "owner": true},
                {"user": "(experimenter|outsider)", "schema": "lab", "owner": true}
              ],
              "tables": [
                {"user": "owner", "privileges": ["SELECT", "INSERT", "DELETE", "UPDATE", "OWNERSHIP"]},
                {"user": "(experimenter|outsider)", "schema": "lab", "privileges": ["SELECT", "INSERT", "DELETE", "UPDATE", "OWNERSHIP"]},
                {"user": "experimenter", "schema": "prod", "privileges": ["SELECT"]},
                {"user": "appender", "schema": "prod", "privileges": ["SELECT", "INSERT"]},
                {"user": "analyst", "catalog": "partner", "table": "shared", "privileges": ["SELECT"], "filter": "id < 5"},
                {"user": "auditor", "catalog": "partner", "table": "shared", "privileges": ["SELECT"], "columns": [{"name": "v", "mask": "'***'"}]}
              ],
              "procedures": [
                {"user": ".*", "catalog": "lance", "schema": "system", "procedure": ".*", "privileges": ["EXECUTE"]}
              ],
              "functions": [
                {"user": ".*", "catalog": "(lance|partner)", "schema": "system", "function": "table_changes", "privileges": ["EXECUTE"]}
              ]
            }
            """;

    private static final String RECIPIENT_TOKEN = "partner-token-0123456789-abcdefghijklmnopqrstuvwxyz";

    private Path warehouse;
    private LanceSharingServer sharingServer;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-access-control");
        Files.createDirectories(warehouse.resolve("prod"));
        Files.createDirectories(warehouse.resolve("lab"));
        Path rules = warehouse.resolve("rules.json");
        Files.writeString(rules, RULES, UTF_8);
        DistributedQueryRunner runner = LanceQueryRunner.builder(warehouse)
                .amendSession(session -> session.setIdentity(Identity.ofUser("owner")))
                .setSystemAccessControl("file", ImmutableMap.of("security.config-file", rules.toString()))
                .build();
        // a recipient catalog over a share of prod.shared, whose rules restrict analyst and auditor
        runner.execute("CREATE TABLE prod.shared AS SELECT x AS id, 'v' || CAST(x AS varchar) AS v FROM UNNEST(sequence(1, 10)) AS t(x)");
        runner.execute("DELETE FROM prod.shared WHERE id = 3");
        Path config = warehouse.resolveSibling(warehouse.getFileName() + "-shares.json");
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
                 "shares": [{"name": "sales", "schemas": [{"name": "s", "tables": [{"name": "shared", "table": "prod.shared"}]}]}],
                 "recipients": [{"name": "partner", "bearerToken": "%s", "shares": ["sales"]}]}
                """.formatted(warehouse, RECIPIENT_TOKEN), UTF_8);
        sharingServer = LanceSharingServer.start(config, 0);
        RecipientCatalogs.create(runner, "partner", sharingServer, RECIPIENT_TOKEN, warehouse.resolveSibling(warehouse.getFileName() + "-profile.json"));
        return runner;
    }

    @AfterAll
    void stopSharingServer()
    {
        if (sharingServer != null) {
            sharingServer.close();
        }
    }

    /**
     * A recipient catalog's {@code table_changes} reads shared files without the engine's scan: it serves a user no
     * rule restricts and refuses one with a row filter or a column mask on the shared table, whose SELECTs apply them.
     */
    @Test
    void testRecipientTableChangesRefuseRestrictedUsers()
    {
        String changes = "SELECT id, v, _change_type FROM TABLE(partner.system.table_changes(schema_name => 'sales.s', table_name => 'shared', start_version => 0))";
        assertThat(query(as("owner"), changes)).matches(
                "SELECT x, 'v' || CAST(x AS varchar), CAST('insert' AS varchar) FROM UNNEST(sequence(1, 10)) AS t(x) UNION ALL VALUES (BIGINT '3', CAST('v3' AS varchar), CAST('delete' AS varchar))");
        assertQuery(as("analyst"), "SELECT count(*), max(id) FROM partner.\"sales.s\".shared", "VALUES (3, 4)");
        assertQuery(as("auditor"), "SELECT count(*), max(v) FROM partner.\"sales.s\".shared", "VALUES (9, '***')");
        for (String user : new String[] {"analyst", "auditor"}) {
            assertQueryFails(as(user), changes, "Access Denied: Cannot table_changes table sales.s.shared: row filters or column masks apply to user %s on it, and table_changes cannot apply them".formatted(user));
        }
    }

    private static Session as(String user)
    {
        return testSessionBuilder().setIdentity(Identity.ofUser(user)).setCatalog(CATALOG).setSchema("prod").build();
    }

    @Test
    void testExperimenterClonesWritesTheCloneAndOwnerMergesItBack()
    {
        Session owner = as("owner");
        Session experimenter = as("experimenter");
        assertUpdate(owner, "CREATE TABLE prod.t (id bigint, v varchar)");
        assertUpdate(owner, "INSERT INTO prod.t SELECT x, 'prod' FROM UNNEST(sequence(1, 10)) AS t(x)", 10);
        assertUpdate(owner, "CALL lance.system.create_tag('prod', 't', 'gold', NULL)");

        assertQuery(experimenter, "SELECT count(*) FROM prod.t FOR VERSION AS OF 'gold'", "VALUES 10");
        assertUpdate(experimenter, "CALL lance.system.shallow_clone('prod', 't', 'lab', 't_exp', 'gold')");
        // the experimenter may not write prod, so cloning wrote nothing there
        assertThat(Files.exists(warehouse.resolve("prod/t.lance/_refs/clones"))).isFalse();
        assertUpdate(experimenter, "INSERT INTO lab.t_exp VALUES (11, 'lab')", 1);
        assertUpdate(experimenter, "DELETE FROM lab.t_exp WHERE id = 1", 1);

        String denied = ".*Access Denied.*";
        assertQueryFails(experimenter, "INSERT INTO prod.t VALUES (12, 'x')", denied);
        assertQueryFails(experimenter, "DELETE FROM prod.t WHERE id = 2", denied);
        // Trino 483's file-based access control implements no branch check: the engine fails branch SQL for everyone
        for (Session user : new Session[] {owner, experimenter}) {
            assertThatThrownBy(() -> computeActual(user, "CREATE BRANCH mine IN TABLE prod.t")).hasMessageContaining("UnsupportedOperationException");
        }
        assertQueryFails(experimenter, "CALL lance.system.create_branch('prod', 't', 'mine', NULL)", denied);
        assertQueryFails(experimenter, "CALL lance.system.create_tag('prod', 't', 'mine', NULL)", denied);
        assertQueryFails(experimenter, "CALL lance.system.drop_tag('prod', 't', 'gold')", denied);
        assertQueryFails(experimenter, "ALTER TABLE prod.t EXECUTE merge_branch(source => 'lab.t_exp')", denied);
        assertQueryFails(as("outsider"), "CALL lance.system.shallow_clone('prod', 't', 'lab', 't_outsider', NULL)", denied);
        assertQueryFails(as("outsider"), "CALL lance.system.deep_clone('prod', 't', 'lab', 't_outsider', NULL)", denied);
        assertQuery(owner, "SELECT count(*), sum(id) FROM prod.t", "VALUES (10, 55)");
        assertQuery(owner, "SELECT name FROM \"t$refs\"", "VALUES 'main', 'gold'");

        computeActual(owner, "ALTER TABLE prod.t EXECUTE merge_branch(source => 'lab.t_exp')");
        assertQuery(owner, "SELECT count(*), sum(id) FROM prod.t", "VALUES (10, 65)");
        // the procedures decide branch access by the table's INSERT privilege then
        assertUpdate(owner, "CALL lance.system.create_branch('prod', 't', 'review', NULL)");
        assertUpdate(owner, "INSERT INTO prod.t @ review VALUES (13, 'review')", 1);
        assertQueryFails(experimenter, "INSERT INTO prod.t @ review VALUES (14, 'x')", denied);
        assertQueryFails(experimenter, "CALL lance.system.drop_branch('prod', 't', 'review')", denied);
        computeActual(owner, "ALTER TABLE prod.t EXECUTE merge_branch(source => 'review')");
        assertQuery(experimenter, "SELECT count(*) FROM prod.t", "VALUES 11");
        assertUpdate(owner, "CALL lance.system.drop_branch('prod', 't', 'review')");
    }

    /**
     * Running the function needs the rule for it (the file-based access control denies functions no rule names);
     * reading the changes needs SELECT on the table, as reading any version does.
     */
    @Test
    void testTableChangesNeedSelect()
    {
        Session owner = as("owner");
        assertUpdate(owner, "CREATE TABLE prod.changed (id bigint)");
        assertUpdate(owner, "INSERT INTO prod.changed VALUES 1, 2", 2);
        String changes = "SELECT id, _change_type FROM TABLE(lance.system.table_changes('prod', 'changed', 1))";
        assertQuery(as("experimenter"), changes, "VALUES (1, 'insert'), (2, 'insert')");
        assertQueryFails(as("outsider"), changes, ".*Access Denied: Cannot select from table lance.prod.changed.*");
    }

    @Test
    void testOptimizeNeedsInsertAndDelete()
    {
        Session owner = as("owner");
        assertUpdate(owner, "CREATE TABLE prod.compacted (id bigint)");
        assertUpdate(owner, "INSERT INTO prod.compacted VALUES 1", 1);
        assertUpdate(owner, "INSERT INTO prod.compacted VALUES 2", 1);
        // the engine leaves table procedures to the connector: a compaction deletes and inserts rows
        assertQueryFails(as("experimenter"), "ALTER TABLE prod.compacted EXECUTE optimize", ".*Access Denied: Cannot insert into table lance.prod.compacted.*");
        assertQueryFails(as("appender"), "ALTER TABLE prod.compacted EXECUTE optimize", ".*Access Denied: Cannot delete from table lance.prod.compacted.*");
        assertQuery(owner, "SELECT count(*) FROM \"compacted$versions\"", "VALUES 3");
        computeActual(owner, "ALTER TABLE prod.compacted EXECUTE optimize");
        assertQuery(owner, "SELECT count(*) FROM \"compacted$fragments\"", "VALUES 1");
    }
}
