package io.lancetrino.tests;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.ServeProcess;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.lance.Dataset;
import org.lance.ReadOptions;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.lancetrino.tests.fixtures.JdbcStatements.awaitActiveWorkers;
import static io.lancetrino.tests.fixtures.JdbcStatements.scalar;
import static io.lancetrino.tests.fixtures.JdbcStatements.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Load through a real cluster ({@code bin/serve --workers 2}): 8 writers (INSERT, DELETE, UPDATE, MERGE; two of them on
 * a branch), 16 readers and an {@code optimize} of main and of the branch every 15 seconds, for a bounded time. Each
 * writer owns its rows, so what every successful statement did is known and checked afterwards, row by row; every
 * version must open in the Lance SDK with the row count Trino reads; after a cleanup of everything it may remove, the
 * branch merged into main must leave every writer's rows on main as its line left them. Then the coordinator is
 * killed with SIGKILL between a commit's transaction file and its manifest, three times: the table must hold the previous or the new
 * version, never a mix, and the next write must succeed. Last, a worker is killed during 8 concurrent readers, without
 * retries (queries may fail, none started after the loss was seen, none answers wrongly) and under TASK retries (all
 * complete). Prints the figures the README quotes. It runs on
 * request: {@code bin/test -pl src/test -Dtest=TestClusterLoad -Dlance.tests.cluster-load=true
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dlance.tests.cluster-load.seconds=120} by default).
 */
@TestInstance(PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@EnabledIfSystemProperty(named = "lance.tests.cluster-load", matches = "true")
final class TestClusterLoad
{
    private static final int WRITERS = 8;
    private static final int BRANCH_WRITERS = 2;
    private static final int READERS = 16;
    private static final int ROWS_PER_WRITER = 1000;
    private static final long COMPACTION_PERIOD_MILLIS = 15_000;
    private static final String TABLE = "lance.load.events";

    private ServeProcess serve;
    private Path root;
    private Path warehouse;

    @BeforeAll
    void start()
            throws Exception
    {
        root = TemporaryWarehouses.create("lance-cluster-load");
        warehouse = Files.createDirectories(root.resolve("warehouse"));
        serve = startCluster();
    }

    private ServeProcess startCluster()
            throws Exception
    {
        return ServeProcess.start(root.resolve("server"), warehouse, Files.createDirectories(root.resolve("sandbox")), 2, 15, TimeUnit.MINUTES);
    }

    @AfterAll
    void stop()
            throws Exception
    {
        if (serve != null) {
            serve.stop(2, TimeUnit.MINUTES);
        }
    }

    @Test
    @Order(1)
    void testWritersReadersAndCompaction()
            throws Exception
    {
        long seconds = Long.getLong("lance.tests.cluster-load.seconds", 120);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA lance.load");
            statement.execute("CREATE TABLE %s (id bigint, writer integer, v bigint) WITH (max_rows_per_file = 1000)".formatted(TABLE));
            // each writer starts with rows of its own
            statement.execute("INSERT INTO %s SELECT n, CAST(n %% %s AS integer), 0 FROM UNNEST(sequence(0, %s)) AS t(n)".formatted(TABLE, WRITERS, WRITERS * ROWS_PER_WRITER - 1));
            statement.execute("CREATE BRANCH dev IN TABLE " + TABLE);
        }

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService executor = Executors.newFixedThreadPool(WRITERS + READERS + 1);
        Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
        List<String> userFailures = Collections.synchronizedList(new ArrayList<>());
        List<Future<Map<Long, Long>>> writers = new ArrayList<>();
        List<Future<?>> others = new ArrayList<>();
        try {
            for (int writer = 0; writer < WRITERS; writer++) {
                int id = writer;
                writers.add(executor.submit(() -> write(id, id >= WRITERS - BRANCH_WRITERS, deadline, counts, userFailures)));
            }
            for (int reader = 0; reader < READERS; reader++) {
                others.add(executor.submit(() -> read(deadline, counts)));
            }
            others.add(executor.submit(() -> compact(deadline, counts)));
            List<Map<Long, Long>> models = new ArrayList<>();
            for (Future<Map<Long, Long>> writer : writers) {
                models.add(writer.get());
            }
            for (Future<?> other : others) {
                other.get();
            }

            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                // every row as its writer's successful statements left it, on main and on the branch
                for (int writer = 0; writer < WRITERS; writer++) {
                    boolean onBranch = writer >= WRITERS - BRANCH_WRITERS;
                    Map<Long, Long> actual = rows(statement, "SELECT id, v FROM %s %s WHERE writer = %s".formatted(TABLE, onBranch ? "FOR VERSION AS OF 'dev'" : "", writer));
                    assertThat(actual).as("rows of writer %s", writer).isEqualTo(models.get(writer));
                }
                verifyEveryVersionOpensInTheSdk(statement);
                long rebased = (long) scalar(statement, """
                        SELECT count(*) FROM lance.load."events$transactions" w
                        WHERE w.statement IN ('DELETE', 'UPDATE', 'MERGE')
                          AND EXISTS (SELECT 1 FROM lance.load."events$transactions" c WHERE c.statement = 'OPTIMIZE' AND c.version > w.read_version AND c.version < w.version)""");
                counts.computeIfAbsent("main user writes committed over a compaction made after they read", _ -> new AtomicLong()).set(rebased);
                long carrying = (long) scalar(statement, """
                        SELECT count(*) FROM lance.load."events$transactions" c
                        WHERE c.statement = 'OPTIMIZE'
                          AND EXISTS (SELECT 1 FROM lance.load."events$transactions" w WHERE w.statement IN ('DELETE', 'UPDATE', 'MERGE') AND w.version > c.read_version AND w.version < c.version)""");
                counts.computeIfAbsent("main compactions committed over user writes made while they ran", _ -> new AtomicLong()).set(carrying);
                counts.computeIfAbsent("main versions", _ -> new AtomicLong()).set((long) scalar(statement, "SELECT count(*) FROM lance.load.\"events$versions\""));

                // then the owner cleans up everything cleanup may take and merges the branch: main holds each main
                // writer's rows as main left them and each branch writer's as the branch left them, row for row
                statement.execute("SET SESSION lance.cleanup_min_retention = '0s'");
                statement.execute("ALTER TABLE %s EXECUTE cleanup(retention_threshold => '0s')".formatted(TABLE));
                statement.execute("ALTER TABLE %s EXECUTE merge_branch(source => 'dev')".formatted(TABLE));
                for (int writer = 0; writer < WRITERS; writer++) {
                    Map<Long, Long> merged = rows(statement, "SELECT id, v FROM %s WHERE writer = %s".formatted(TABLE, writer));
                    assertThat(merged).as("rows of writer %s on main after the merge", writer).isEqualTo(models.get(writer));
                }
                counts.computeIfAbsent("main rows after cleanup and merge_branch, all as the writers left them", _ -> new AtomicLong())
                        .set((long) scalar(statement, "SELECT count(*) FROM " + TABLE));
            }
        }
        finally {
            executor.shutdownNow();
        }
        System.out.printf("cluster load, %s s, %s writers (%s on a branch), %s readers, optimize every %s s:%n", seconds, WRITERS, BRANCH_WRITERS, READERS, COMPACTION_PERIOD_MILLIS / 1000);
        new TreeMap<>(counts).forEach((name, count) -> System.out.printf("  %-70s %s%n", name, count.get()));
        userFailures.forEach(failure -> System.out.println("  user write failed: " + failure));
        assertThat(userFailures).as("failed user writes").isEmpty();
    }

    @Test
    @Order(2)
    void testCoordinatorKilledDuringCommit()
            throws Exception
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS lance.load");
            statement.execute("CREATE TABLE lance.load.commits AS SELECT n AS id FROM UNNEST(sequence(1, 1000)) AS t(n)");
        }
        Path transactions = warehouse.resolve("load/commits.lance/_transactions");
        Map<String, AtomicLong> outcomes = new TreeMap<>();
        for (int trial = 0; trial < 3; trial++) {
            long rows;
            long versions;
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                rows = (long) scalar(statement, "SELECT count(*) FROM lance.load.commits");
                versions = (long) scalar(statement, "SELECT count(*) FROM lance.load.\"commits$versions\"");
            }
            // the coordinator writes the transaction file, then creates the manifest: kill it in between
            try (WatchService watcher = FileSystems.getDefault().newWatchService(); Connection connection = connect(); Statement statement = connection.createStatement()) {
                transactions.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
                long first = 10_000_000L * (trial + 1);
                CompletableFuture<Long> running = CompletableFuture.supplyAsync(() -> update(statement, "INSERT INTO lance.load.commits SELECT n FROM UNNEST(sequence(%s, %s)) AS t(n)".formatted(first, first + 999)));
                WatchKey key = watcher.poll(2, TimeUnit.MINUTES);
                assertThat(key).as("a transaction file was written").isNotNull();
                serve.serverJvm().orElseThrow().destroyForcibly();
                assertThat(running).failsWithin(2, TimeUnit.MINUTES);
            }
            serve.awaitExit(2, TimeUnit.MINUTES);
            serve = startCluster();
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                long rowsAfter = (long) scalar(statement, "SELECT count(*) FROM lance.load.commits");
                long versionsAfter = (long) scalar(statement, "SELECT count(*) FROM lance.load.\"commits$versions\"");
                // the previous version or the new one, never a mix
                assertThat(List.of(rowsAfter - rows, versionsAfter - versions)).isIn(List.of(0L, 0L), List.of(1000L, 1L));
                outcomes.computeIfAbsent(rowsAfter == rows ? "killed before the manifest: previous version" : "killed after the manifest: new version", _ -> new AtomicLong()).incrementAndGet();
                try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                        Dataset dataset = Dataset.open(warehouse.resolve("load/commits.lance").toString(), allocator)) {
                    assertThat(dataset.countRows()).isEqualTo(rowsAfter);
                }
                // and the next write succeeds
                assertThat(statement.executeLargeUpdate("INSERT INTO lance.load.commits VALUES -1")).isEqualTo(1);
                assertThat(scalar(statement, "SELECT count(*) FROM lance.load.commits")).isEqualTo(rowsAfter + 1);
            }
        }
        System.out.println("coordinator killed with SIGKILL between transaction file and manifest, 3 trials:");
        outcomes.forEach((name, count) -> System.out.printf("  %-70s %s%n", name, count.get()));
    }

    @Test
    @Order(3)
    void testWorkerKilledDuringReads()
            throws Exception
    {
        String query = "SELECT orderstatus, count(*), sum(CAST(totalprice AS decimal(12, 2))) FROM lance.load.reads GROUP BY orderstatus ORDER BY orderstatus";
        String expected;
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS lance.load");
            statement.execute("CREATE TABLE lance.load.reads WITH (max_rows_per_file = 100000) AS SELECT * FROM tpch.sf1.orders");
            expected = answer(statement, query);
        }
        for (String policy : List.of("NONE", "TASK")) {
            int victim = policy.equals("NONE") ? 1 : 2;
            Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
            AtomicLong lossSeenAt = new AtomicLong(Long.MAX_VALUE);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            ExecutorService executor = Executors.newFixedThreadPool(8);
            List<Future<?>> readers = new ArrayList<>();
            try {
                for (int reader = 0; reader < 8; reader++) {
                    readers.add(executor.submit(() -> {
                        Properties properties = new Properties();
                        properties.setProperty("user", "load");
                        properties.setProperty("sessionProperties", "retry_policy:" + policy);
                        try (Connection connection = DriverManager.getConnection(serve.jdbcUrl(), properties); Statement statement = connection.createStatement()) {
                            // a query that meets the lost worker fails only after a minute: read on until 20 s after the loss was seen
                            while (System.nanoTime() < deadline || System.nanoTime() - lossSeenAt.get() < TimeUnit.SECONDS.toNanos(20)) {
                                long started = System.nanoTime();
                                try {
                                    String answer = answer(statement, query);
                                    counts.computeIfAbsent(answer.equals(expected) ? "completed" : "wrong answers", _ -> new AtomicLong()).incrementAndGet();
                                }
                                catch (SQLException e) {
                                    counts.computeIfAbsent(started > lossSeenAt.get() ? "failed, started after the loss was seen" : "failed", _ -> new AtomicLong()).incrementAndGet();
                                }
                            }
                        }
                        return null;
                    }));
                }
                Thread.sleep(10_000);
                List<String> killed = serve.killWorker(victim);
                try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                    awaitActiveWorkers(statement, 1);
                    lossSeenAt.set(System.nanoTime());
                    for (Future<?> reader : readers) {
                        reader.get();
                    }
                    serve.restartWorker(victim, killed);
                    awaitActiveWorkers(statement, 2);
                }
            }
            finally {
                executor.shutdownNow();
            }
            System.out.printf("worker %s killed during 8 concurrent readers of SF1 orders, retry_policy %s:%n", victim, policy);
            new TreeMap<>(counts).forEach((name, count) -> System.out.printf("  %-70s %s%n", name, count.get()));
            assertThat(counts).doesNotContainKeys("wrong answers", "failed, started after the loss was seen");
            assertThat(counts).containsKey("completed");
            if (policy.equals("TASK")) {
                assertThat(counts).doesNotContainKey("failed");
            }
        }
    }

    private static String answer(Statement statement, String sql)
            throws SQLException
    {
        StringBuilder answer = new StringBuilder();
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                answer.append(rows.getString(1)).append(',').append(rows.getLong(2)).append(',').append(rows.getString(3)).append('\n');
            }
        }
        return answer.toString();
    }

    /**
     * One writer's loop over its own rows; returns the rows it must have left, id to value.
     */
    private Map<Long, Long> write(int writer, boolean onBranch, long deadline, Map<String, AtomicLong> counts, List<String> failures)
            throws SQLException
    {
        String target = onBranch ? TABLE + " @ dev" : TABLE;
        Map<Long, Long> rows = new HashMap<>();
        for (long id = writer; id < WRITERS * ROWS_PER_WRITER; id += WRITERS) {
            rows.put(id, 0L);
        }
        long nextId = 1_000_000L * (writer + 1);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (int step = 0; System.nanoTime() < deadline; step++) {
                List<Long> ids = new ArrayList<>(rows.keySet());
                long some = ids.get(random.nextInt(ids.size()));
                long other = ids.get(random.nextInt(ids.size()));
                String kind = switch (step % 4) {
                    case 0 -> "INSERT";
                    case 1 -> "DELETE";
                    case 2 -> "UPDATE";
                    default -> "MERGE";
                };
                String sql = switch (kind) {
                    case "INSERT" -> "INSERT INTO %s SELECT n, %s, 0 FROM UNNEST(sequence(%s, %s)) AS t(n)".formatted(target, writer, nextId, nextId + 99);
                    case "DELETE" -> "DELETE FROM %s WHERE id = %s".formatted(target, some);
                    case "UPDATE" -> "UPDATE %s SET v = v + 1 WHERE id = %s".formatted(target, some);
                    default -> ("MERGE INTO %s t USING (VALUES (%s, 'delete'), (%s, 'insert')) s(id, action) ON t.id = s.id "
                            + "WHEN MATCHED AND s.action = 'delete' THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (s.id, %s, 7)").formatted(target, other, nextId, writer);
                };
                String branch = onBranch ? "branch" : "main";
                try {
                    statement.executeLargeUpdate(sql);
                }
                catch (SQLException e) {
                    failures.add("%s: %s".formatted(sql, e.getMessage()));
                    counts.computeIfAbsent("%s %s failed".formatted(branch, kind), _ -> new AtomicLong()).incrementAndGet();
                    continue;
                }
                counts.computeIfAbsent("%s %s committed".formatted(branch, kind), _ -> new AtomicLong()).incrementAndGet();
                switch (kind) {
                    case "INSERT" -> {
                        for (long id = nextId; id < nextId + 100; id++) {
                            rows.put(id, 0L);
                        }
                        nextId += 100;
                    }
                    case "DELETE" -> rows.remove(some);
                    case "UPDATE" -> rows.merge(some, 1L, Long::sum);
                    default -> {
                        rows.remove(other);
                        rows.put(nextId, 7L);
                        nextId++;
                    }
                }
            }
        }
        return rows;
    }

    private Void read(long deadline, Map<String, AtomicLong> counts)
            throws SQLException
    {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            while (System.nanoTime() < deadline) {
                String sql = switch (random.nextInt(3)) {
                    case 0 -> "SELECT count(*), sum(v) FROM " + TABLE;
                    case 1 -> "SELECT writer, count(*) FROM %s FOR VERSION AS OF 'dev' GROUP BY writer".formatted(TABLE);
                    // the versions that exist from the start: the empty table and its first rows
                    default -> "SELECT count(*) FROM %s FOR VERSION AS OF %s".formatted(TABLE, 1 + random.nextInt(2));
                };
                try (ResultSet rows = statement.executeQuery(sql)) {
                    while (rows.next()) {
                        // drain
                    }
                    counts.computeIfAbsent("reads completed", _ -> new AtomicLong()).incrementAndGet();
                }
                catch (SQLException e) {
                    counts.computeIfAbsent("reads failed", _ -> new AtomicLong()).incrementAndGet();
                    System.out.println("read failed: " + sql + ": " + e.getMessage());
                }
            }
        }
        return null;
    }

    private Void compact(long deadline, Map<String, AtomicLong> counts)
            throws Exception
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            while (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COMPACTION_PERIOD_MILLIS) < deadline) {
                Thread.sleep(COMPACTION_PERIOD_MILLIS);
                for (String branch : List.of("main", "dev")) {
                    try {
                        statement.execute("ALTER TABLE %s EXECUTE optimize(branch => '%s')".formatted(TABLE, branch));
                        counts.computeIfAbsent("optimize %s committed".formatted(branch), _ -> new AtomicLong()).incrementAndGet();
                    }
                    catch (SQLException e) {
                        // a compaction gives way when user writes changed every group it rewrote
                        counts.computeIfAbsent("optimize %s gave way".formatted(branch), _ -> new AtomicLong()).incrementAndGet();
                        System.out.println("optimize gave way: " + e.getMessage());
                    }
                }
            }
        }
        return null;
    }

    private void verifyEveryVersionOpensInTheSdk(Statement statement)
            throws SQLException
    {
        Map<Long, Long> expected = new TreeMap<>();
        try (ResultSet versions = statement.executeQuery("SELECT version FROM lance.load.\"events$versions\"")) {
            while (versions.next()) {
                expected.put(versions.getLong(1), null);
            }
        }
        for (long version : new ArrayList<>(expected.keySet())) {
            expected.put(version, (Long) scalar(statement, "SELECT count(*) FROM %s FOR VERSION AS OF %s".formatted(TABLE, version)));
        }
        String uri = warehouse.resolve("load/events.lance").toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            for (Map.Entry<Long, Long> version : expected.entrySet()) {
                try (Dataset dataset = Dataset.open(allocator, uri, new ReadOptions.Builder().setVersion(version.getKey()).build())) {
                    assertThat(dataset.countRows()).as("version %s", version.getKey()).isEqualTo(version.getValue());
                }
            }
        }
        System.out.printf("  %-70s %s%n", "main versions opened by the Lance SDK with Trino's row count", expected.size());
    }

    private static Map<Long, Long> rows(Statement statement, String sql)
            throws SQLException
    {
        Map<Long, Long> rows = new HashMap<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                assertThat(rows.put(result.getLong(1), result.getLong(2))).as("row %s appears once", result.getLong(1)).isNull();
            }
        }
        return rows;
    }

    private Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(serve.jdbcUrl(), "load", null);
    }
}
