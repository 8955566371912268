package io.lancetrino.tests;

import io.lancetrino.plugin.LanceConnectorFactory;
import io.lancetrino.split.JvmRequirements;
import io.trino.Session;
import io.trino.testing.QueryRunner;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.util.stream.Collectors.joining;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the connector needs of the JVM. Tables read by the Java reader and written by the Java writer need no JVM option:
 * a Trino query runner in a JVM started without {@code --add-opens} creates, writes, deletes, merges, branches, clones
 * and optimizes tables and reads them back equal to TPC-H, and each feature that goes through the Lance SDK there fails
 * naming the option to add. This test's own JVM has the option, so those features pass here.
 */
final class TestLanceJvmRequirements
{
    private static final String ADD_OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";

    @Test
    void testJavaReadsAndWritesNeedNoAddOpens()
            throws IOException, InterruptedException
    {
        List<String> lines = runWithoutAddOpens(System.getProperty("java.class.path"), "sdk");
        assertThat(lines).contains(
                "lance-jvm: refused create_index: The Lance connector needs the JVM option %s to build btree index orderkey_idx of table jvm.orders through the Lance SDK (add it to etc/jvm.config and restart Trino): the SDK hands data over as Arrow buffers, which Arrow wraps through java.nio".formatted(ADD_OPENS),
                "lance-jvm: refused SDK writer: The Lance connector needs the JVM option %s to write data files of format 2.2 under %s with the SDK writer (lance.file-writer = sdk) through the Lance SDK (add it to etc/jvm.config and restart Trino): the SDK hands data over as Arrow buffers, which Arrow wraps through java.nio"
                        .formatted(ADD_OPENS, dataset(lines)));
    }

    /**
     * The plugin zip without the SDK add-on: the same statements pass with neither the Lance SDK nor the connector's
     * SDK module on the class path, and each feature that needs them fails naming the add-on.
     */
    @Test
    void testDefaultPathsNeedNoSdk()
            throws IOException, InterruptedException
    {
        List<String> removed = new ArrayList<>();
        String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> {
                    boolean sdk = entry.contains("lance-core") || entry.contains("lance-trino-sdk") || entry.replace(File.separatorChar, '/').endsWith("/sdk/target/classes")
                            || entry.contains("arrow-c-data") || entry.contains("arrow-dataset") || entry.contains("jar-jni");
                    if (sdk) {
                        removed.add(entry);
                    }
                    return !sdk;
                })
                .collect(joining(File.pathSeparator));
        // the SDK itself and the connector's SDK module were on the class path, and are not now
        assertThat(removed).anyMatch(entry -> entry.contains("lance-core"));
        assertThat(removed).anyMatch(entry -> entry.contains("lance-trino-sdk") || entry.replace(File.separatorChar, '/').endsWith("/sdk/target/classes"));

        List<String> lines = runWithoutAddOpens(classPath, "no-sdk");
        String addOn = "The Lance connector needs its SDK add-on to %s, and the add-on is not installed: unzip trino-lance-sdk-<version>.zip into the plugin directory of the lance connector (beside trino-lance's jars) on every node and restart Trino";
        assertThat(lines).contains(
                "lance-jvm: check nearest vectors ok",
                "lance-jvm: refused create_index: " + addOn.formatted("build btree index orderkey_idx of table jvm.orders"),
                "lance-jvm: refused SDK writer: " + addOn.formatted("write data files of format 2.2 under %s with the SDK writer (lance.file-writer = sdk)".formatted(dataset(lines))),
                "lance-jvm: refused vector_search: " + addOn.formatted("run the nearest 2 by l2 emb flat nprobes 20 on table jvm.docs@main version 2"));
    }

    /** Runs {@link WithoutAddOpens} in a JVM of its own; returns its lines once the default paths all checked out. */
    private static List<String> runWithoutAddOpens(String classPath, String mode)
            throws IOException, InterruptedException
    {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path results = Files.createTempFile("lance-jvm", ".txt");
        // only what Trino itself needs: the vector module
        Process process = new ProcessBuilder(java.toString(), "--add-modules=jdk.incubator.vector", "-Xmx2g", "-Duser.timezone=UTC",
                "-cp", classPath, WithoutAddOpens.class.getName(), results.toString(), mode)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        List<String> lines = Files.readAllLines(results);
        Files.delete(results);
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(lines).as(output).contains(
                "lance-jvm: check live orders ok",
                "lance-jvm: check rows ok",
                "lance-jvm: check merged comments ok",
                "lance-jvm: check clone rows ok",
                "lance-jvm: check vectors ok",
                "lance-jvm: check json and nanoseconds ok",
                "lance-jvm: check nested arrays ok");
        return lines;
    }

    private static String dataset(List<String> lines)
    {
        return lines.stream().filter(line -> line.startsWith("lance-jvm: dataset ")).findFirst().orElseThrow().substring("lance-jvm: dataset ".length());
    }

    @Test
    void testPassesWithTheFlag()
    {
        assertThat(List.of(ProcessHandle.current().info().arguments().orElse(new String[0]))).contains(ADD_OPENS);
        JvmRequirements.checkSdk("build an index");
    }

    @Test
    void testFileSystemCacheRefusedAtCatalogStart()
    {
        // the plugin zip leaves the Alluxio cache out, so the property must fail clearly instead of with a missing class
        assertThatThrownBy(() -> new LanceConnectorFactory().create("lake", Map.of("lance.warehouse", "/tmp/unused", "fs.cache.enabled", "true"), null))
                .isInstanceOf(TrinoException.class)
                .hasMessage("Catalog lake: fs.cache.enabled=true is not supported by the Lance connector (the Lance SDK reads data files itself, bypassing the file system cache); remove the property");
    }

    /**
     * Runs the connector's default paths in a query runner of its own JVM, which must lack {@code --add-opens}; writes
     * {@code lance-jvm: } lines for the test to the file {@code args[0]} and exits 0, or 4 when the JVM has the option
     * after all. With {@code args[1]} {@code no-sdk} the class path lacks the SDK too, and a search is refused as well.
     */
    public static final class WithoutAddOpens
    {
        private static final List<String> LINES = new java.util.ArrayList<>();

        public static void main(String[] args)
                throws Exception
        {
            if (JvmRequirements.sdkDataExchangeAvailable()) {
                System.exit(4);
            }
            Path warehouse = Files.createTempDirectory("lance-jvm-flags");
            try (QueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema("jvm").build()) {
                run(runner, "CREATE SCHEMA jvm");
                run(runner, "CREATE TABLE orders AS SELECT * FROM tpch.tiny.orders");
                run(runner, "INSERT INTO orders SELECT * FROM tpch.tiny.orders");
                run(runner, "UPDATE orders SET comment = 'updated' WHERE orderkey % 10 = 0");
                // many rows per fragment (a bitmap deletion file), then a few (an Arrow one)
                run(runner, "DELETE FROM orders WHERE orderkey % 7 = 0");
                run(runner, "DELETE FROM orders WHERE custkey < 3");
                run(runner, "MERGE INTO orders t USING (SELECT orderkey FROM tpch.tiny.orders WHERE orderkey < 200) s ON t.orderkey = s.orderkey WHEN MATCHED THEN UPDATE SET comment = 'merged'");
                run(runner, "CREATE BRANCH dev IN TABLE orders");
                run(runner, "INSERT INTO orders @ dev SELECT * FROM tpch.tiny.orders WHERE orderkey % 7 = 0 AND orderkey < 100");
                run(runner, "DELETE FROM orders @ dev WHERE orderkey % 7 = 0");
                run(runner, "ALTER TABLE orders EXECUTE merge_branch(source => 'dev')");
                run(runner, "CALL lance.system.shallow_clone('jvm', 'orders', 'jvm', 'orders_copy')");
                run(runner, "INSERT INTO orders_copy SELECT * FROM tpch.tiny.orders WHERE orderkey = 1");
                run(runner, "ALTER TABLE orders EXECUTE optimize");
                run(runner, "CREATE TABLE docs (id bigint, emb array(real) WITH (dimension = 4))");
                run(runner, "INSERT INTO docs VALUES (1, ARRAY[1, 2, 3, 4]), (2, NULL), (3, ARRAY[0.5, NULL, -1, 8])");
                run(runner, "CREATE TABLE notes (id bigint, doc json, at timestamp(9))");
                run(runner, "INSERT INTO notes VALUES (1, JSON '{\"b\": [1, null], \"a\": \"x\"}', TIMESTAMP '1969-12-31 23:59:59.123456789'), (2, NULL, NULL)");
                run(runner, "CREATE TABLE shapes (id bigint, items array(row(n integer, tags array(varchar))), grid array(array(bigint)))");
                run(runner, "INSERT INTO shapes VALUES (1, ARRAY[ROW(1, ARRAY['a', NULL]), NULL, ROW(2, ARRAY[])], ARRAY[ARRAY[1, 2], NULL, ARRAY[]]), (2, NULL, ARRAY[])");

                // every row of tpch.tiny.orders twice, less the deleted ones
                String live = "SELECT * FROM tpch.tiny.orders WHERE orderkey % 7 <> 0 AND custkey >= 3";
                long rows = (long) runner.execute("SELECT count(*) FROM orders").getOnlyValue();
                long expectedRows = 2 * (long) runner.execute("SELECT count(*) FROM (" + live + ")").getOnlyValue();
                print("check live orders " + (rows == expectedRows ? "ok" : rows + " of " + expectedRows));
                boolean sameRows = runner.execute("SELECT orderkey, custkey, totalprice, orderdate FROM orders").getMaterializedRows().stream().sorted(Comparator.comparing(Object::toString)).toList()
                        .equals(runner.execute("SELECT orderkey, custkey, totalprice, orderdate FROM (%1$s UNION ALL %1$s)".formatted(live)).getMaterializedRows().stream().sorted(Comparator.comparing(Object::toString)).toList());
                print("check rows " + (sameRows ? "ok" : "differ"));
                long merged = (long) runner.execute("SELECT count(*) FROM orders WHERE comment = 'merged'").getOnlyValue();
                long expectedMerged = 2 * (long) runner.execute("SELECT count(*) FROM (" + live + ") WHERE orderkey < 200").getOnlyValue();
                print("check merged comments " + (merged == expectedMerged ? "ok" : merged + " of " + expectedMerged));
                long clone = (long) runner.execute("SELECT count(*) FROM orders_copy").getOnlyValue();
                print("check clone rows " + (clone == rows + 1 ? "ok" : clone + " after " + rows));
                Object vectors = runner.execute("SELECT CAST(array_agg(emb ORDER BY id) AS json) FROM docs").getOnlyValue();
                print("check vectors " + ("[[1.0,2.0,3.0,4.0],null,[0.5,null,-1.0,8.0]]".equals(vectors) ? "ok" : vectors));
                Object notes = runner.execute("SELECT json_format(doc) || ' ' || CAST(at AS varchar) FROM notes WHERE id = 1").getOnlyValue();
                print("check json and nanoseconds " + ("{\"a\":\"x\",\"b\":[1,null]} 1969-12-31 23:59:59.123456789".equals(notes) ? "ok" : notes));
                Object shapes = runner.execute("SELECT json_format(CAST(array_agg(items ORDER BY id) AS json)) || ' ' || json_format(CAST(array_agg(grid ORDER BY id) AS json)) FROM shapes").getOnlyValue();
                print("check nested arrays " + ("[[{\"n\":1,\"tags\":[\"a\",null]},null,{\"n\":2,\"tags\":[]}],null] [[[1,2],null,[]],[]]".equals(shapes) ? "ok" : shapes));

                // the nearest rows by a distance Trino computes over vectors the Java reader reads
                Object nearest = runner.execute("SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM docs WHERE emb IS NOT NULL ORDER BY euclidean_distance(emb, ARRAY[REAL '1', 2, 3, 4]) LIMIT 1)").getOnlyValue();
                print("check nearest vectors " + (List.of(1L).equals(nearest) ? "ok" : nearest));

                refused(runner, runner.getDefaultSession(), "create_index", "ALTER TABLE orders EXECUTE create_index(column => 'orderkey', index_type => 'btree')");
                if (args.length > 1 && args[1].equals("no-sdk")) {
                    refused(runner, runner.getDefaultSession(), "vector_search", "SELECT id FROM TABLE(lance.system.vector_search(schema_name => 'jvm', table_name => 'docs', column => 'emb', query => ARRAY[1, 2, 3, 4], k => 2))");
                }
                print("dataset " + warehouse.toAbsolutePath().resolve("jvm/orders.lance"));
                Session sdkWriter = Session.builder(runner.getDefaultSession()).setCatalogSessionProperty("lance", "file_writer", "sdk").build();
                refused(runner, sdkWriter, "SDK writer", "INSERT INTO orders SELECT * FROM tpch.tiny.orders WHERE orderkey = 1");
            }
            finally {
                Files.write(Path.of(args[0]), LINES);
            }
            System.exit(0);
        }

        private static void run(QueryRunner runner, String sql)
        {
            runner.execute(sql);
            print("ran " + sql);
        }

        private static void refused(QueryRunner runner, Session session, String what, String sql)
        {
            try {
                runner.execute(session, sql);
                print("not refused " + what);
            }
            catch (RuntimeException e) {
                print("refused " + what + ": " + e.getMessage());
            }
        }

        private static void print(String line)
        {
            LINES.add("lance-jvm: " + line);
        }
    }
}
