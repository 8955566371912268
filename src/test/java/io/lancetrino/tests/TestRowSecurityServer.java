package io.lancetrino.tests;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.ServeProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.lancetrino.tests.fixtures.JdbcStatements.rows;
import static io.lancetrino.tests.fixtures.JdbcStatements.scalar;
import static io.trino.spi.StandardErrorCode.PERMISSION_DENIED;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Row filters and column masks on every path that reads or copies a table's rows, on a real cluster
 * ({@code bin/serve --workers 2 --access-control rules.json}, the plugin zip) under Trino's file-based access control,
 * over JDBC as each user connects: {@code alice} has a row filter and a column mask on {@code s.docs} (and on its
 * clone), {@code fiona} the filter only, {@code mark} the mask only, {@code admin} neither. Each path's answer is
 * compared with the SELECT the same user is allowed, on main, a branch, a tag, an old version and a shallow clone:
 * the engine's scans (the pushed-down vector search among them) apply the rules; the table functions serve an
 * unrestricted user and refuse a restricted one; clones and merges refuse whoever a rule restricts.
 */
@TestInstance(PER_CLASS)
final class TestRowSecurityServer
{
    static final String RULES = """
            {
              "catalogs": [{"allow": "all"}],
              "schemas": [
                {"user": "admin", "owner": true},
                {"user": "(alice|fiona|mark)", "schema": "(alice|fiona|mark)", "owner": true},
                {"owner": false}
              ],
              "tables": [
                {"user": "admin", "privileges": ["SELECT", "INSERT", "DELETE", "UPDATE", "OWNERSHIP"]},
                {"user": "alice", "catalog": "lance", "schema": "s", "table": "(docs|docs_copy|own_exp)", "privileges": ["SELECT"],
                 "filter": "lang = 'en'", "columns": [{"name": "secret", "mask": "'***'"}]},
                {"user": "fiona", "catalog": "lance", "schema": "s", "table": "(docs|docs_copy)", "privileges": ["SELECT"], "filter": "lang = 'en'"},
                {"user": "mark", "catalog": "lance", "schema": "s", "table": "(docs|docs_copy)", "privileges": ["SELECT", "INSERT", "DELETE", "UPDATE"],
                 "columns": [{"name": "secret", "mask": "'***'"}]},
                {"user": "(alice|fiona|mark)", "catalog": "lance", "schema": "s", "table": "(docs|docs_copy)(@.*)?\\\\$.*", "privileges": ["SELECT"]},
                {"user": "(alice|fiona|mark)", "catalog": "lance", "schema": "(alice|fiona|mark)", "privileges": ["SELECT", "INSERT", "DELETE", "UPDATE", "OWNERSHIP"]},
                {"catalog": "(system|tpch)", "privileges": ["SELECT"]}
              ],
              "procedures": [{"catalog": "lance", "schema": "system", "procedure": ".*", "privileges": ["EXECUTE"]}],
              "functions": [{"catalog": "lance", "schema": "system", "function": ".*", "privileges": ["EXECUTE"]}]
            }
            """;
    private static final List<String> RESTRICTED = List.of("alice", "fiona", "mark");
    private static final String QUERY = "ARRAY[3.5e0, 2e0, 1e0, 4e0]";
    private static final String DISTANCE = "euclidean_distance(e, " + QUERY + ")";

    /** A version of a table, and how FOR VERSION AS OF and the functions' version arguments name it. */
    private record Target(String table, String versionClause, String versionArgument, long changesStart, String changesEnd) {}

    private ServeProcess serve;
    private List<Target> targets;

    @BeforeAll
    void start()
            throws Exception
    {
        Path root = TemporaryWarehouses.create("lance-row-security");
        Path warehouse = Files.createDirectories(root.resolve("warehouse"));
        Path rules = root.resolve("rules.json");
        Files.writeString(rules, RULES, UTF_8);
        serve = ServeProcess.startWithAccessControl(root.resolve("server"), warehouse, Files.createDirectories(root.resolve("sandbox")), 2, rules, 15, TimeUnit.MINUTES);
        try (Connection connection = connect("admin"); Statement admin = connection.createStatement()) {
            admin.execute("CREATE SCHEMA lance.s");
            admin.execute("CREATE SCHEMA lance.alice");
            admin.execute("CREATE TABLE lance.s.docs (id bigint, lang varchar, secret varchar, body varchar, e array(real) WITH (dimension = 4)) WITH (max_rows_per_file = 40)");
            admin.execute(insertDocs("lance.s.docs", 0, 100));
            admin.execute("ALTER TABLE lance.s.docs EXECUTE create_index(column => 'e', index_type => 'ivf_flat', options => '{\"num_partitions\": 2}')");
            admin.execute("ALTER TABLE lance.s.docs EXECUTE create_index(column => 'body', index_type => 'inverted')");
            admin.execute("CALL lance.system.create_tag('s', 'docs', 'gold', NULL)");
            long old = (long) scalar(admin, "SELECT max(version) FROM lance.s.\"docs$versions\"");
            admin.execute(insertDocs("lance.s.docs", 100, 120));
            admin.execute("UPDATE lance.s.docs SET secret = secret || '-new' WHERE id % 3 = 0");
            admin.execute("CALL lance.system.create_branch('s', 'docs', 'dev', NULL)");
            admin.execute(insertDocs("lance.s.docs @ dev", 200, 230));
            admin.execute("DELETE FROM lance.s.docs @ dev WHERE id % 5 = 1");
            admin.execute("CALL lance.system.shallow_clone('s', 'docs', 's', 'docs_copy', 'gold')");
            admin.execute(insertDocs("lance.s.docs_copy", 300, 320));
            // a clone's history starts at the version it was cloned from
            long cloned = (long) scalar(admin, "SELECT min(version) FROM lance.s.\"docs_copy$versions\"");
            targets = List.of(
                    new Target("docs", "", "NULL", 0, ""),
                    new Target("docs", " FOR VERSION AS OF 'dev'", "'dev'", 0, ", end_ref => 'dev'"),
                    new Target("docs", " FOR VERSION AS OF 'gold'", "'gold'", 0, ", end_ref => 'gold'"),
                    new Target("docs", " FOR VERSION AS OF " + old, "'" + old + "'", 0, ", end_version => " + old),
                    new Target("docs_copy", "", "NULL", cloned, ""));
        }
    }

    @AfterAll
    void stop()
            throws Exception
    {
        if (serve != null) {
            serve.stop(2, TimeUnit.MINUTES);
        }
    }

    /** Rows of ids {@code [from, to)}: even ids English, odd French, every secret distinct, no two vectors alike. */
    private static String insertDocs(String table, int from, int to)
    {
        return """
                INSERT INTO %s SELECT x, IF(x %% 2 = 0, 'en', 'fr'), 'secret-' || CAST(x AS varchar),
                    'word' || CAST(x %% 7 AS varchar) || ' shared',
                    ARRAY[CAST(x * 0.731e0 AS real), CAST((x * 37 %% 101) * 0.13e0 AS real), CAST((x * 11 %% 17) * 0.5e0 AS real), CAST(x %% 5 AS real)]
                FROM UNNEST(sequence(%s, %s)) AS t(x)""".formatted(table, from, to - 1);
    }

    @Test
    void testEngineScansApplyTheRulesOnEveryVersion()
            throws Exception
    {
        for (Target target : targets) {
            Set<List<Object>> all = allowed("admin", target);
            assertThat(allowed("alice", target)).as("alice on %s", target)
                    .isNotEmpty()
                    .isEqualTo(masked(filtered(all)));
            assertThat(allowed("fiona", target)).isEqualTo(filtered(all));
            assertThat(allowed("mark", target)).isEqualTo(masked(all));
        }
    }

    @Test
    void testTableFunctionsServeUnrestrictedUsersAndRefuseRestrictedOnes()
            throws Exception
    {
        for (Target target : targets) {
            String vectorSearch = "SELECT id, lang, secret FROM TABLE(lance.system.vector_search(schema_name => 's', table_name => '%s', column => 'e', query => %s, k => 1000, version => %s))"
                    .formatted(target.table(), QUERY, target.versionArgument());
            String textSearch = "SELECT id, lang, secret FROM TABLE(lance.system.text_search(schema_name => 's', table_name => '%s', query => 'shared', k => 1000, version => %s))"
                    .formatted(target.table(), target.versionArgument());
            // the rows a version has and its start had not: the net of the inserts and deletes between them
            String changes = """
                    SELECT id, lang, secret FROM TABLE(lance.system.table_changes(schema_name => 's', table_name => '%s', start_version => %s%s))
                    GROUP BY id, lang, secret HAVING sum(IF(_change_type = 'insert', 1, -1)) > 0""".formatted(target.table(), target.changesStart(), target.changesEnd());
            Set<List<Object>> all = allowed("admin", target);
            Set<List<Object>> atStart = target.changesStart() == 0 ? Set.of()
                    : set("admin", "SELECT id, lang, secret FROM lance.s.%s FOR VERSION AS OF %s".formatted(target.table(), target.changesStart()));
            for (String function : List.of(vectorSearch, textSearch, changes)) {
                Set<List<Object>> expected = function.equals(changes) ? Sets.difference(all, atStart) : all;
                assertThat(set("admin", function)).as("admin: %s", function).isNotEmpty().isEqualTo(expected);
                for (String user : RESTRICTED) {
                    assertThatThrownBy(() -> set(user, function)).as("%s: %s", user, function)
                            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PERMISSION_DENIED.toErrorCode().getCode()))
                            .hasMessageMatching("Query failed \\(#\\w+\\): Access Denied: Cannot (vector_search|text_search|table_changes) table s\\.%s: row filters or column masks apply to user %s on it, and .*"
                                    .formatted(target.table(), user));
                }
            }
        }
    }

    @Test
    void testPushedDownSearchFiltersBeforeTheTopK()
            throws Exception
    {
        for (String mode : List.of("approximate", "exact")) {
            // the exact pushdown applies the scan's filter as any scan does: main alone shows it
            for (Target target : mode.equals("exact") ? targets.subList(0, 1) : targets) {
                String nearest = "SELECT id, lang, secret FROM lance.s.%s%s ORDER BY %s LIMIT 10".formatted(target.table(), target.versionClause(), DISTANCE);
                for (String user : List.of("admin", "alice", "fiona", "mark")) {
                    List<List<Object>> rows = list(user, mode, nearest);
                    // the ten nearest of the rows the user may see, not the allowed part of the ten nearest of all
                    String reference = "SELECT id, lang, secret FROM (SELECT id, lang, secret, %s AS d FROM lance.s.%s%s) ORDER BY d LIMIT 10"
                            .formatted(DISTANCE, target.table(), target.versionClause());
                    assertThat(rows).as("%s, %s: %s", user, mode, nearest)
                            .hasSize(10)
                            .containsExactlyElementsOf(list(user, "off", reference));
                    assertThat(allowed(user, target)).containsAll(rows);
                }
            }
        }
        // the filter reaches the index search as its prefilter
        String plan = (String) scalar(connect("alice", "approximate").createStatement(), "EXPLAIN SELECT id FROM lance.s.docs ORDER BY %s LIMIT 10".formatted(DISTANCE));
        assertThat(plan).contains("through index e_idx").contains("prefilter");
    }

    @Test
    void testMetadataTablesHoldNoRowValues()
            throws Exception
    {
        for (String table : List.of("docs", "docs@dev", "docs@gold", "docs_copy")) {
            for (String kind : List.of("versions", "refs", "fragments", "schemas", "transactions", "properties", "indexes")) {
                String sql = "SELECT * FROM lance.s.\"%s$%s\"".formatted(table, kind);
                List<List<Object>> rows = ImmutableList.copyOf(set("alice", sql));
                assertThat(set("admin", sql)).as(sql).isEqualTo(ImmutableSet.copyOf(rows));
                assertThat(rows.toString()).as(sql).doesNotContain("secret-").doesNotContain("word");
            }
        }
    }

    @Test
    void testClonesAndMergesRefuseRestrictedUsers()
            throws Exception
    {
        for (String user : RESTRICTED) {
            try (Connection connection = connect(user); Statement statement = connection.createStatement()) {
                for (String procedure : List.of("shallow_clone", "deep_clone")) {
                    assertThatThrownBy(() -> statement.execute("CALL lance.system.%s('s', 'docs', 'alice', 'mine', 'gold')".formatted(procedure)))
                            .hasMessageContaining("Access Denied: Cannot %s table s.docs: row filters or column masks apply to user %s on it, and a clone cannot carry them".formatted(procedure, user));
                }
            }
        }
        try (Connection connection = connect("admin"); Statement admin = connection.createStatement()) {
            assertThat(scalar(admin, "SELECT count(*) FROM lance.information_schema.tables WHERE table_schema = 'alice'")).isEqualTo(0L);
        }
        try (Connection aliceConnection = connect("alice"); Statement alice = aliceConnection.createStatement();
                Connection adminConnection = connect("admin"); Statement admin = adminConnection.createStatement()) {
            // alice's own table, from what she may see; a clone of it in s, where a filter applies to her
            alice.execute("CREATE TABLE lance.alice.own AS SELECT * FROM lance.s.docs");
            admin.execute("CALL lance.system.shallow_clone('alice', 'own', 's', 'own_exp', NULL)");
            admin.execute(insertDocs("lance.s.own_exp", 400, 410));
            assertThatThrownBy(() -> alice.execute("ALTER TABLE lance.alice.own EXECUTE merge_branch(source => 's.own_exp')"))
                    .hasMessageContaining("Access Denied: Cannot merge_branch from table s.own_exp: row filters or column masks apply to user alice on it");
            assertThat(scalar(alice, "SELECT count(*) FROM lance.alice.own")).isEqualTo(60L);
            // mark may write s.docs, but sees its secrets masked: the engine itself refuses him table procedures there
            try (Connection markConnection = connect("mark"); Statement mark = markConnection.createStatement()) {
                assertThatThrownBy(() -> mark.execute("ALTER TABLE lance.s.docs EXECUTE merge_branch(source => 'dev', dry_run => true)"))
                        .hasMessageContaining("ALTER TABLE EXECUTE is not supported for table with column masks");
            }

            // without rules, as before
            admin.execute("ALTER TABLE lance.alice.own EXECUTE merge_branch(source => 's.own_exp')");
            assertThat(scalar(admin, "SELECT count(*) FROM lance.alice.own")).isEqualTo(70L);
            admin.execute("CALL lance.system.shallow_clone('s', 'docs', 'alice', 'admin_copy', 'gold')");
            admin.execute("CALL lance.system.deep_clone('s', 'docs', 'alice', 'admin_deep', 'gold')");
            assertThat(scalar(admin, "SELECT count(*) FROM lance.alice.admin_deep")).isEqualTo(100L);
            assertThat(rows(admin, "SELECT count(*) FROM lance.s.docs FOR VERSION AS OF 'gold'")).isEqualTo(List.of(List.of(100L)));
        }
    }

    private Set<List<Object>> allowed(String user, Target target)
            throws SQLException
    {
        return set(user, "SELECT id, lang, secret FROM lance.s.%s%s".formatted(target.table(), target.versionClause()));
    }

    private static Set<List<Object>> filtered(Set<List<Object>> rows)
    {
        return rows.stream().filter(row -> row.get(1).equals("en")).collect(ImmutableSet.toImmutableSet());
    }

    private static Set<List<Object>> masked(Set<List<Object>> rows)
    {
        return rows.stream().map(row -> List.of(row.get(0), row.get(1), (Object) "***")).collect(ImmutableSet.toImmutableSet());
    }

    private Set<List<Object>> set(String user, String sql)
            throws SQLException
    {
        return ImmutableSet.copyOf(list(user, "exact", sql));
    }

    /** The rows, arrays as lists so that rows compare by value. */
    private List<List<Object>> list(String user, String vectorSearch, String sql)
            throws SQLException
    {
        try (Connection connection = connect(user, vectorSearch); Statement statement = connection.createStatement()) {
            ImmutableList.Builder<List<Object>> rows = ImmutableList.builder();
            for (List<Object> row : rows(statement, sql)) {
                List<Object> values = new ArrayList<>();
                for (Object value : row) {
                    values.add(value instanceof Array array ? Arrays.asList((Object[]) array.getArray()) : value);
                }
                rows.add(values);
            }
            return rows.build();
        }
    }

    private Connection connect(String user)
            throws SQLException
    {
        return connect(user, "exact");
    }

    private Connection connect(String user, String vectorSearch)
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("sessionProperties", "lance.vector_search:" + vectorSearch);
        return DriverManager.getConnection(serve.jdbcUrl(), properties);
    }
}
