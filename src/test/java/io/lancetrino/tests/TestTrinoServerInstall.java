package io.lancetrino.tests;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.S3ProxyServer;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.lancetrino.tests.server.ReadmeSection;
import io.lancetrino.tests.server.ServeProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.apache.arrow.memory.BufferAllocator;
import io.lancetrino.metadata.ArrowAllocators;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Ref;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The plugin zip installed into a real Trino 483 server process by {@code bin/serve}, the way the README tells users
 * to install it, with two local catalogs of this connector and one on S3 (S3Proxy); reached the way BI tools and users reach it: Trino JDBC and the
 * Trino CLI.
 */
@TestInstance(PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class TestTrinoServerInstall
{
    private static final String INSTALL_SECTION = "## Install the plugin into an existing Trino 483";
    private static final String OBJECT_STORAGE_SECTION = "## Object storage";
    private static final String BUCKET = "lake";

    private Path warehouse;
    private Path sandbox;
    private Path serverDirectory;
    private ServeProcess serve;
    private S3ProxyServer s3;

    @BeforeAll
    void startServer()
            throws Exception
    {
        Path root = TemporaryWarehouses.create("lance-serve");
        warehouse = root.resolve("warehouse");
        sandbox = root.resolve("sandbox");
        serverDirectory = root.resolve("server");
        DemoWarehouse.create(warehouse);
        // a packed struct: the columns after it are read through the SDK's dataset API, whose jars the zip trims around
        LanceFixtures.packedStruct(Files.createDirectories(warehouse.resolve("layouts")), "packed", "2.1", false, 100);
        // a third catalog, on S3: the README's S3 catalog file with this test's endpoint, bucket and keys filled in
        s3 = S3ProxyServer.start();
        s3.createBucket(BUCKET);
        Path catalogs = Files.createDirectories(serverDirectory.resolve("etc/catalog"));
        Files.writeString(catalogs.resolve("lake.properties"), readmeS3Catalog().entrySet().stream()
                .map(entry -> entry.getKey() + "=" + switch ((String) entry.getKey()) {
                    case "lance.warehouse" -> "s3://" + BUCKET + "/warehouse";
                    case "s3.endpoint" -> s3.endpoint();
                    case "s3.aws-access-key" -> S3ProxyServer.ACCESS_KEY;
                    case "s3.aws-secret-key" -> S3ProxyServer.SECRET_KEY;
                    default -> entry.getValue();
                })
                .collect(joining("\n", "", "\n")));
        // the first start in a fresh clone assembles the server from the package registry
        serve = ServeProcess.start(serverDirectory, warehouse, sandbox, 15, TimeUnit.MINUTES);
    }

    @AfterAll
    void closeServer()
            throws InterruptedException
    {
        if (serve != null) {
            serve.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    private static Properties readmeS3Catalog()
            throws IOException
    {
        String readme = ReadmeSection.read(ServeProcess.projectRoot().resolve("README.md"), OBJECT_STORAGE_SECTION).blockContaining("lance.warehouse=s3://");
        String manual = ReadmeSection.read(ServeProcess.projectRoot().resolve("docs/object-storage.md"), "# Object storage").blockContaining("lance.warehouse=s3://");
        assertThat(readme).isEqualTo(manual);
        return properties(readme);
    }

    @Test
    @Order(1)
    void testPluginInstalledAsTheReadmeSays()
            throws Exception
    {
        ReadmeSection install = ReadmeSection.read(ServeProcess.projectRoot().resolve("README.md"), INSTALL_SECTION);
        // the README's short install section and the manual's page give the same instructions
        assertThat(ReadmeSection.read(ServeProcess.projectRoot().resolve("docs/installation.md"), "# Installation").codeBlocks()).containsAll(install.codeBlocks());

        // the README's unzip lines (the plugin zip, then the SDK add-on), run word for word into a fresh TRINO_HOME, give
        // exactly the server's plugin directory
        List<String> unzipLines = install.blockContaining("unzip ").lines().filter(line -> line.startsWith("unzip ")).toList();
        assertThat(unzipLines).hasSize(2);
        String unzip = String.join(" && ", unzipLines);
        Path trinoHome = TemporaryWarehouses.create("trino-home");
        ProcessBuilder unzipInProjectRoot = new ProcessBuilder("bash", "-c", unzip)
                .directory(ServeProcess.projectRoot().toFile())
                .redirectErrorStream(true);
        unzipInProjectRoot.environment().put("TRINO_HOME", trinoHome.toString());
        Process process = unzipInProjectRoot.start();
        assertThat(process.waitFor()).as("%s", new String(process.getInputStream().readAllBytes(), UTF_8)).isZero();
        assertThat(listFiles(trinoHome.resolve("plugin"))).isEqualTo(listFiles(serverDirectory.resolve("plugin")).stream()
                // Trino's own plugins bin/serve adds beside ours
                .filter(file -> !file.startsWith("tpch/") && !file.startsWith("exchange-filesystem/"))
                .toList());

        // the catalog file users write, and the JVM options they add, are the ones the running server uses
        Properties readmeCatalog = properties(install.blockContaining("connector.name=lance"));
        Properties serverCatalog = properties(Files.readString(serverDirectory.resolve("etc/catalog/lance.properties")));
        assertThat(serverCatalog.keySet()).isEqualTo(readmeCatalog.keySet());
        assertThat(serverCatalog.getProperty("connector.name")).isEqualTo(readmeCatalog.getProperty("connector.name"));
        List<String> jvmConfig = Files.readAllLines(serverDirectory.resolve("etc/jvm.config"));
        List<String> readmeJvmOptions = install.blockContaining("--add-opens").lines().toList();
        assertThat(readmeJvmOptions).isNotEmpty();
        assertThat(jvmConfig).containsAll(readmeJvmOptions);
    }

    @Test
    @Order(2)
    void testDatabaseMetaDataAsBiToolsRead()
            throws SQLException
    {
        try (Connection connection = connect()) {
            DatabaseMetaData metaData = connection.getMetaData();
            assertThat(column(metaData.getCatalogs(), "TABLE_CAT")).contains("lance", "sandbox", "tpch");
            assertThat(column(metaData.getSchemas("lance", null), "TABLE_SCHEM")).contains("demo", "information_schema");
            try (ResultSet tables = metaData.getTables("lance", "demo", "%", null)) {
                assertThat(tables.next()).isTrue();
                assertThat(tables.getString("TABLE_NAME")).isEqualTo("trips");
                assertThat(tables.getString("TABLE_TYPE")).isEqualTo("TABLE");
                assertThat(tables.next()).as("only the table itself, no metadata tables").isFalse();
            }
            List<List<Object>> columns = new ArrayList<>();
            try (ResultSet resultSet = metaData.getColumns("lance", "demo", "trips", null)) {
                while (resultSet.next()) {
                    columns.add(List.of(resultSet.getString("COLUMN_NAME"), resultSet.getInt("DATA_TYPE"), resultSet.getString("TYPE_NAME"), resultSet.getString("IS_NULLABLE")));
                }
            }
            assertThat(columns).containsExactly(
                    List.of("trip_id", Types.BIGINT, "bigint", "NO"),
                    List.of("city", Types.VARCHAR, "varchar", "YES"),
                    List.of("fare", Types.DOUBLE, "double", "YES"),
                    List.of("started_at", Types.TIMESTAMP, "timestamp(6)", "YES"));

            // comments written through SQL in the second catalog come back through the driver's metadata
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE SCHEMA sandbox.browse");
                statement.execute("CREATE TABLE sandbox.browse.fares (trip_id bigint NOT NULL COMMENT 'the trip', fare double COMMENT 'in EUR') COMMENT 'fares per trip'");
            }
            // Trino's driver leaves getTables' REMARKS empty; table browsers read table comments from here
            try (Statement statement = connection.createStatement();
                    ResultSet comments = statement.executeQuery("SELECT comment FROM system.metadata.table_comments WHERE catalog_name = 'sandbox' AND schema_name = 'browse' AND table_name = 'fares'")) {
                assertThat(comments.next()).isTrue();
                assertThat(comments.getString(1)).isEqualTo("fares per trip");
            }
            Map<String, String> remarks = new java.util.LinkedHashMap<>();
            try (ResultSet resultSet = metaData.getColumns("sandbox", "browse", "fares", null)) {
                while (resultSet.next()) {
                    remarks.put(resultSet.getString("COLUMN_NAME"), resultSet.getString("REMARKS"));
                }
            }
            assertThat(remarks).containsExactly(Map.entry("trip_id", "the trip"), Map.entry("fare", "in EUR"));
        }
    }

    @Test
    @Order(2)
    void testFlatTablesReadAndWrittenWithoutNativeCode()
            throws Exception
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA sandbox.plain");
            statement.execute("CREATE TABLE sandbox.plain.orders AS SELECT orderkey, custkey, orderstatus, totalprice, orderdate, comment FROM tpch.tiny.orders");
            statement.execute("INSERT INTO sandbox.plain.orders SELECT orderkey + 1000000, custkey, orderstatus, totalprice, orderdate, comment FROM tpch.tiny.orders WHERE orderkey < 1000");
            statement.execute("UPDATE sandbox.plain.orders SET totalprice = 0 WHERE orderstatus = 'P'");
            statement.execute("DELETE FROM sandbox.plain.orders WHERE orderstatus = 'F' AND orderkey < 100");
            statement.execute("ALTER TABLE sandbox.plain.orders EXECUTE optimize");
            assertThat(scalar(statement, "SELECT count(*) FROM sandbox.plain.orders WHERE totalprice = 0"))
                    .isEqualTo(scalar(statement, "SELECT count(*) FROM tpch.tiny.orders WHERE orderstatus = 'P'") + scalar(statement, "SELECT count(*) FROM tpch.tiny.orders WHERE orderstatus = 'P' AND orderkey < 1000"));
        }
        // the Java reader and writer did all of it: the server never loaded lance-core's native library
        assertThat(mappedLanceLibraries()).isEmpty();
        assertThat(SdkScans.countRows(sandbox.resolve("plain/orders.lance"), Ref.ofMain())).isPositive();
    }

    @Test
    @Order(3)
    void testTimeTravelMatchesTheLanceSdk()
            throws SQLException
    {
        Path trips = warehouse.resolve("demo/trips.lance");
        Map<String, Ref> refs = ImmutableMap.of(
                "2", Ref.ofMain(2),
                "4", Ref.ofMain(4),
                "'baseline'", Ref.ofTag("baseline"),
                "'experiment'", Ref.ofBranch("experiment"));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (Map.Entry<String, Ref> ref : refs.entrySet()) {
                try (ResultSet resultSet = statement.executeQuery("SELECT count(*), sum(trip_id) FROM lance.demo.trips FOR VERSION AS OF " + ref.getKey())) {
                    assertThat(resultSet.next()).isTrue();
                    List<Long> ids = SdkScans.scan(trips, ref.getValue(), List.of("trip_id")).stream().map(row -> (Long) row.getFirst()).toList();
                    assertThat(resultSet.getLong(1)).as("rows at %s", ref.getKey()).isEqualTo(ids.size());
                    assertThat(resultSet.getLong(2)).as("sum of ids at %s", ref.getKey()).isEqualTo(ids.stream().mapToLong(Long::longValue).sum());
                }
            }
        }
    }

    @Test
    @Order(3)
    void testPackedStructMatchesTheLanceSdk()
            throws SQLException
    {
        List<Object> sdk = SdkScans.scan(warehouse.resolve("layouts/packed.lance"), Ref.ofMain(), List.of("id", "name", "score")).stream()
                .map(row -> (Object) (row.get(0) + "|" + row.get(1) + "|" + row.get(2)))
                .toList();
        List<Object> trino = new ArrayList<>();
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, name, score, ps.a FROM lance.layouts.packed ORDER BY id")) {
            while (rows.next()) {
                trino.add(rows.getLong(1) + "|" + rows.getString(2) + "|" + rows.getObject(3));
                assertThat(rows.getInt(4)).isEqualTo(rows.getLong(1) * 10);
            }
        }
        assertThat(trino).containsExactlyInAnyOrderElementsOf(sdk);
    }

    @Test
    @Order(4)
    void testWritesInBothCatalogs()
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            long versionBefore = scalar(statement, "SELECT max(version) FROM lance.demo.\"trips$versions\"");
            long rowsBefore = scalar(statement, "SELECT count(*) FROM lance.demo.trips");
            statement.execute("CREATE SCHEMA sandbox.copies");
            statement.execute("CREATE TABLE sandbox.copies.lisbon AS SELECT * FROM lance.demo.trips WHERE city = 'Lisbon'");
            long lisbon = scalar(statement, "SELECT count(*) FROM lance.demo.trips WHERE city = 'Lisbon'");
            assertThat(scalar(statement, "SELECT count(*) FROM sandbox.copies.lisbon")).isEqualTo(lisbon);
            statement.execute("INSERT INTO lance.demo.trips SELECT trip_id + 100000, city, fare, started_at FROM sandbox.copies.lisbon");
            assertThat(scalar(statement, "SELECT count(*) FROM lance.demo.trips")).isEqualTo(rowsBefore + lisbon);
            assertThat(scalar(statement, "SELECT max(version) FROM lance.demo.\"trips$versions\"")).isEqualTo(versionBefore + 1);
            assertThat(scalar(statement, "SELECT count(*) FROM lance.demo.trips FOR VERSION AS OF " + versionBefore)).isEqualTo(rowsBefore);
        }
        // what the server wrote, the Lance SDK reads
        assertThat(SdkScans.countRows(warehouse.resolve("demo/trips.lance"), Ref.ofMain())).isGreaterThan(0);
        assertThat(SdkScans.countRows(sandbox.resolve("copies/lisbon.lance"), Ref.ofMain())).isPositive();
    }

    @Test
    @Order(4)
    void testIndexSearchesInTheServer()
            throws SQLException
    {
        // the SDK's searches run in the server's plugin class loader, without Arrow's dataset module
        List<Long> approximate = new ArrayList<>();
        List<Long> viaFunction = new ArrayList<>();
        List<Long> text = new ArrayList<>();
        String query = "ARRAY[3e0, 1e0, 2e0, 1.5e0]";
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA sandbox.search");
            statement.execute("CREATE TABLE sandbox.search.docs (id bigint, v array(real) WITH (dimension = 4), body varchar)");
            statement.execute("INSERT INTO sandbox.search.docs SELECT x, ARRAY[CAST(x % 7 AS real), CAST(x % 5 AS real), CAST(x % 3 AS real), CAST(x % 11 AS real)], "
                    + "element_at(ARRAY['red fox', 'blue whale', 'red panda', 'grey wolf'], 1 + x % 4) FROM UNNEST(sequence(1, 600)) AS t(x)");
            statement.execute("ALTER TABLE sandbox.search.docs EXECUTE create_index(column => 'v', index_type => 'ivf_flat', options => '{\"num_partitions\": 2}')");
            statement.execute("ALTER TABLE sandbox.search.docs EXECUTE create_index(column => 'body', index_type => 'inverted')");
            statement.execute("SET SESSION sandbox.vector_search = 'approximate'");
            try (ResultSet rows = statement.executeQuery("SELECT id FROM sandbox.search.docs ORDER BY euclidean_distance(v, %s), id LIMIT 5".formatted(query))) {
                while (rows.next()) {
                    approximate.add(rows.getLong(1));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT id FROM TABLE(sandbox.system.vector_search(schema_name => 'search', table_name => 'docs', column => 'v', query => %s, k => 5)) ORDER BY _distance, id".formatted(query))) {
                while (rows.next()) {
                    viaFunction.add(rows.getLong(1));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT id FROM TABLE(sandbox.system.text_search(schema_name => 'search', table_name => 'docs', query => 'panda', k => 1000))")) {
                while (rows.next()) {
                    text.add(rows.getLong(1));
                }
            }
        }
        // both run the same search of the SDK: an IVF_FLAT index of two partitions, all probed
        assertThat(approximate).hasSize(5).isEqualTo(viaFunction);
        assertThat(text).hasSize(150).allMatch(id -> id % 4 == 2);
    }

    @Test
    @Order(5)
    void testCatalogOnS3FromTheReadme()
            throws Exception
    {
        assertThat(properties(Files.readString(serverDirectory.resolve("etc/catalog/lake.properties"))).keySet())
                .isEqualTo(readmeS3Catalog().keySet());
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA lake.shared");
            statement.execute("CREATE TABLE lake.shared.trips AS SELECT * FROM lance.demo.trips FOR VERSION AS OF 'baseline'");
            statement.execute("INSERT INTO lake.shared.trips SELECT * FROM lance.demo.trips FOR VERSION AS OF 'experiment' WHERE trip_id >= 5000");
            statement.execute("DELETE FROM lake.shared.trips WHERE city = 'Oslo'");
            long baselineWithoutOslo = scalar(statement, "SELECT count(*) FROM lance.demo.trips FOR VERSION AS OF 'baseline' WHERE city <> 'Oslo'");
            long experimentWithoutOslo = scalar(statement, "SELECT count(*) FROM lance.demo.trips FOR VERSION AS OF 'experiment' WHERE trip_id >= 5000 AND city <> 'Oslo'");
            assertThat(scalar(statement, "SELECT count(*) FROM lake.shared.trips")).isEqualTo(baselineWithoutOslo + experimentWithoutOslo);
            assertThat(scalar(statement, "SELECT count(*) FROM lake.shared.trips FOR VERSION AS OF 1")).isEqualTo(scalar(statement, "SELECT count(*) FROM lance.demo.trips FOR VERSION AS OF 'baseline'"));
            // the Lance SDK opens what the server wrote, from the same bucket
            try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                    Dataset dataset = Dataset.open()
                            .allocator(allocator)
                            .uri("s3://" + BUCKET + "/warehouse/shared/trips.lance")
                            .readOptions(new ReadOptions.Builder().setStorageOptions(s3.sdkStorageOptions()).build())
                            .build()) {
                assertThat(dataset.version()).isEqualTo(3);
                assertThat(dataset.countRows()).isEqualTo(baselineWithoutOslo + experimentWithoutOslo);
            }
        }
    }

    @Test
    @Order(6)
    void testNativeLibraryLoadedOnceForBothCatalogs()
            throws IOException
    {
        // both catalogs have read data files through the SDK by now (packed structs, index searches)
        assertThat(mappedLanceLibraries()).hasSize(1);
    }

    /** The copies of lance-core's native library the server process has mapped; only Linux exposes them. */
    private List<String> mappedLanceLibraries()
            throws IOException
    {
        ProcessHandle server = serve.serverJvm().orElseThrow();
        Path maps = Path.of("/proc", String.valueOf(server.pid()), "maps");
        assumeTrue(Files.exists(maps), "the process's mapped libraries are not visible on this system");
        return Files.readAllLines(maps).stream()
                .map(line -> line.substring(line.lastIndexOf(' ') + 1))
                .filter(path -> path.contains("lance_jni"))
                .distinct()
                .toList();
    }

    @Test
    @Order(7)
    void testTrinoCli()
            throws Exception
    {
        Path cli = Path.of(System.getProperty("lance.trino-cli.jar", "target/trino-cli/trino-cli.jar"));
        Process process = new ProcessBuilder(ImmutableList.of(
                ProcessHandle.current().info().command().orElse("java"), "-jar", cli.toString(),
                "--server", serve.httpUrl(), "--catalog", "lance", "--schema", "demo", "--output-format", "CSV_UNQUOTED",
                "--execute", "SELECT count(*) FROM trips FOR VERSION AS OF 'baseline'; SELECT count(*) FROM \"trips$versions\""))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<String> lines = new String(process.getInputStream().readAllBytes(), UTF_8).lines().toList();
        assertThat(process.waitFor()).isZero();
        long versions;
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            versions = scalar(statement, "SELECT count(*) FROM lance.demo.\"trips$versions\"");
        }
        assertThat(lines).containsExactly(
                String.valueOf(SdkScans.countRows(warehouse.resolve("demo/trips.lance"), Ref.ofTag("baseline"))),
                String.valueOf(versions));
    }

    @Test
    @Order(8)
    void testServerStopsCleanly()
            throws Exception
    {
        ProcessHandle server = serve.serverJvm().orElseThrow();
        int status = serve.stop(2, TimeUnit.MINUTES);
        // 143 = ended by the SIGTERM sent, after the JVM ran its shutdown hooks
        assertThat(status).as("bin/serve output: %s", serve.output()).isEqualTo(143);
        assertThat(server.isAlive()).isFalse();
        assertThat(serve.isAlive()).isFalse();
        String log = Files.readString(serve.serverLog());
        assertThat(log).as("stack frames of the connector in the server log").doesNotContain("at io.lancetrino");
        assertThat(log.lines().filter(line -> line.matches(".*\\bERROR\\b.*")).toList()).as("errors in the server log").isEmpty();
    }

    private Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(serve.jdbcUrl(), "analyst", null);
    }

    private static long scalar(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet resultSet = statement.executeQuery(sql)) {
            assertThat(resultSet.next()).isTrue();
            return resultSet.getLong(1);
        }
    }

    private static List<String> column(ResultSet resultSet, String name)
            throws SQLException
    {
        try (resultSet) {
            List<String> values = new ArrayList<>();
            while (resultSet.next()) {
                values.add(resultSet.getString(name));
            }
            return values;
        }
    }

    private static Properties properties(String text)
            throws IOException
    {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        return properties;
    }

    private static List<String> listFiles(Path directory)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> directory.relativize(file) + ":" + file.toFile().length())
                    .sorted()
                    .toList();
        }
    }
}
