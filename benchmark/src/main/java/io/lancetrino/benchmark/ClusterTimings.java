package io.lancetrino.benchmark;

import io.trino.jdbc.QueryStats;
import io.trino.jdbc.TrinoResultSet;
import io.trino.jdbc.TrinoStatement;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The benchmark's queries on real Trino servers started by {@code bin/serve --iceberg} over the benchmark's own data:
 * one node, then a coordinator with two workers; and on the cluster, CTAS of lineitem without a retry policy and under
 * {@code retry_policy = 'TASK'} (fault-tolerant execution, the file-system exchange manager spooling to local disk), for
 * Lance and Iceberg alike. Times are wall time of the JDBC statement and the CPU time Trino reports for it.
 */
public final class ClusterTimings
{
    public static final int WORKERS = 2;
    private static final String READY = "Trino with the Lance connector is ready at ";

    private ClusterTimings() {}

    public record QueryTime(String name, QueryTimings.Stats singleLance, QueryTimings.Stats singleIceberg, QueryTimings.Stats clusterLance, QueryTimings.Stats clusterIceberg) {}

    public record CtasTime(String retryPolicy, QueryTimings.Stats lance, QueryTimings.Stats iceberg) {}

    private record Ctas(List<CtasTime> times, List<Double> roundRatiosOfRatios) {}

    /**
     * @param ctas without a retry policy, then with {@code TASK}
     * @param roundRatiosOfRatios the ratio of ratios of each round's four statements, run back to back
     */
    public record Result(int workers, long lineitemRows, List<QueryTime> queries, List<CtasTime> ctas, List<Double> roundRatiosOfRatios)
    {
        public Result
        {
            queries = List.copyOf(queries);
            ctas = List.copyOf(ctas);
            roundRatiosOfRatios = List.copyOf(roundRatiosOfRatios);
        }

        public double medianRoundRatioOfRatios()
        {
            return Measurements.median(roundRatiosOfRatios);
        }

        /**
         * What fault tolerance costs Lance relative to what it costs Iceberg: (Lance TASK / Lance none) / (Iceberg TASK / Iceberg none).
         */
        public double faultToleranceRatioOfRatios()
        {
            CtasTime none = ctas.get(0);
            CtasTime task = ctas.get(1);
            return (task.lance().medianSeconds() / none.lance().medianSeconds()) / (task.iceberg().medianSeconds() / none.iceberg().medianSeconds());
        }
    }

    public static Result measure(BenchmarkEnvironment environment, BenchmarkOptions options, Path workDirectory)
            throws Exception
    {
        Map<String, String> versions = Map.of(
                "lance", TpchData.versionBeforeDelete(environment.runner(), "lance"),
                "iceberg", TpchData.versionBeforeDelete(environment.runner(), "iceberg"));
        List<BenchmarkQuery> queries = options.selectedQueries();
        List<List<QueryTimings.Stats>> single;
        try (Server server = Server.start(environment, workDirectory.resolve("single"), 0)) {
            single = timeQueries(server, queries, versions, options.runs());
        }
        List<List<QueryTimings.Stats>> cluster;
        Ctas ctas;
        long lineitemRows;
        try (Server server = Server.start(environment, workDirectory.resolve("cluster"), WORKERS)) {
            cluster = timeQueries(server, queries, versions, options.runs());
            try (Connection connection = server.connect("NONE"); Statement statement = connection.createStatement()) {
                lineitemRows = (long) scalar(statement, "SELECT count(*) FROM lance.tpch.lineitem");
            }
            ctas = timeCtas(server, Math.max(1, options.runs()));
        }
        List<QueryTime> times = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            times.add(new QueryTime(queries.get(i).name(), single.get(i).get(0), single.get(i).get(1), cluster.get(i).get(0), cluster.get(i).get(1)));
        }
        return new Result(WORKERS, lineitemRows, times, ctas.times(), ctas.roundRatiosOfRatios());
    }

    /**
     * CTAS of lineitem by each connector into itself, without a retry policy and under TASK: one untimed warm-up of
     * each, then rounds of all four statements in an order that rotates each round, so drift on a shared machine falls
     * on every combination alike. Each round also yields its own ratio of ratios.
     */
    private static Ctas timeCtas(Server server, int rounds)
            throws SQLException
    {
        List<String> policies = List.of("NONE", "TASK");
        List<String> catalogs = List.of("lance", "iceberg");
        for (String policy : policies) {
            for (String catalog : catalogs) {
                ctas(server, policy, catalog);
            }
        }
        Map<String, List<QueryTimings.Run>> runs = new HashMap<>();
        List<Double> roundRatios = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            Map<String, QueryTimings.Run> thisRound = new HashMap<>();
            for (int i = 0; i < 4; i++) {
                int slot = (i + round) % 4;
                String policy = policies.get(slot / 2);
                String catalog = catalogs.get(slot % 2);
                QueryTimings.Run run = ctas(server, policy, catalog);
                thisRound.put(policy + "/" + catalog, run);
                runs.computeIfAbsent(policy + "/" + catalog, _ -> new ArrayList<>()).add(run);
            }
            double ratio = (thisRound.get("TASK/lance").seconds() / thisRound.get("NONE/lance").seconds())
                    / (thisRound.get("TASK/iceberg").seconds() / thisRound.get("NONE/iceberg").seconds());
            roundRatios.add(ratio);
            System.out.printf("cluster CTAS lineitem round %d: lance none %.3fs task %.3fs, iceberg none %.3fs task %.3fs, ratio of ratios %.2f%n", round + 1,
                    thisRound.get("NONE/lance").seconds(), thisRound.get("TASK/lance").seconds(),
                    thisRound.get("NONE/iceberg").seconds(), thisRound.get("TASK/iceberg").seconds(), ratio);
        }
        List<CtasTime> times = policies.stream()
                .map(policy -> new CtasTime(policy, QueryTimings.Stats.of(runs.get(policy + "/lance")), QueryTimings.Stats.of(runs.get(policy + "/iceberg"))))
                .toList();
        return new Ctas(times, roundRatios);
    }

    /**
     * Per query: Lance's and Iceberg's stats, alternating runs after a warm-up of each.
     */
    private static List<List<QueryTimings.Stats>> timeQueries(Server server, List<BenchmarkQuery> queries, Map<String, String> versions, int runs)
            throws SQLException
    {
        List<List<QueryTimings.Stats>> results = new ArrayList<>();
        try (Connection lanceConnection = server.connect("NONE", "lance"); Connection icebergConnection = server.connect("NONE", "iceberg");
                Statement lance = lanceConnection.createStatement(); Statement iceberg = icebergConnection.createStatement()) {
            for (BenchmarkQuery query : queries) {
                String lanceSql = query.sqlFor(versions.get("lance"));
                String icebergSql = query.sqlFor(versions.get("iceberg"));
                timed(lance, lanceSql);
                timed(iceberg, icebergSql);
                List<QueryTimings.Run> lanceRuns = new ArrayList<>();
                List<QueryTimings.Run> icebergRuns = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    lanceRuns.add(timed(lance, lanceSql));
                    icebergRuns.add(timed(iceberg, icebergSql));
                }
                results.add(List.of(QueryTimings.Stats.of(lanceRuns), QueryTimings.Stats.of(icebergRuns)));
                System.out.printf("%s %-16s lance %.3fs  iceberg %.3fs%n", server.workers() == 0 ? "single " : "cluster", query.name(),
                        results.getLast().get(0).medianSeconds(), results.getLast().get(1).medianSeconds());
            }
        }
        return results;
    }

    private static QueryTimings.Run ctas(Server server, String policy, String catalog)
            throws SQLException
    {
        try (Connection connection = server.connect(policy, catalog); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS lineitem_ctas");
            QueryTimings.Run run = timedUpdate(statement, "CREATE TABLE lineitem_ctas AS SELECT * FROM lineitem");
            statement.execute("DROP TABLE lineitem_ctas");
            return run;
        }
    }

    private static QueryTimings.Run timed(Statement statement, String sql)
            throws SQLException
    {
        long start = System.nanoTime();
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                // drain
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new QueryTimings.Run(seconds, rows.unwrap(TrinoResultSet.class).getStats().getCpuTimeMillis() / 1e3);
        }
    }

    /**
     * An update returns no result set, so its CPU time comes from the last progress report of the statement.
     */
    private static QueryTimings.Run timedUpdate(Statement statement, String sql)
            throws SQLException
    {
        TrinoStatement trino = statement.unwrap(TrinoStatement.class);
        AtomicReference<QueryStats> last = new AtomicReference<>();
        trino.setProgressMonitor(last::set);
        try {
            long start = System.nanoTime();
            statement.execute(sql);
            double seconds = (System.nanoTime() - start) / 1e9;
            return new QueryTimings.Run(seconds, last.get() == null ? 0 : last.get().getCpuTimeMillis() / 1e3);
        }
        finally {
            trino.clearProgressMonitor();
        }
    }

    private static Object scalar(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getObject(1);
        }
    }

    /**
     * A {@code bin/serve} run over the benchmark's Lance warehouse and Iceberg catalog.
     */
    record Server(Process process, int port, int workers)
            implements AutoCloseable
    {
        static Server start(BenchmarkEnvironment environment, Path directory, int workers)
                throws Exception
        {
            Path root = Path.of(System.getProperty("project.root", "."));
            int port = freePorts(workers + 1);
            Process process = new ProcessBuilder(List.of(
                    "bash", root.resolve("bin/serve").toString(),
                    "--port", String.valueOf(port),
                    "--workers", String.valueOf(workers),
                    "--warehouse", environment.lanceWarehouse().toAbsolutePath().toString(),
                    "--sandbox", Files.createDirectories(directory.resolve("sandbox")).toString(),
                    "--server-dir", directory.resolve("server").toString(),
                    "--iceberg", environment.icebergCatalog().toAbsolutePath().toString()))
                    .redirectErrorStream(true)
                    .start();
            CompletableFuture<Boolean> ready = new CompletableFuture<>();
            List<String> output = new CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        output.add(line);
                        if (line.startsWith(READY)) {
                            ready.complete(true);
                        }
                    }
                    ready.complete(false);
                }
                catch (IOException e) {
                    ready.completeExceptionally(e);
                }
            }, "bin/serve output");
            reader.setDaemon(true);
            reader.start();
            Server server = new Server(process, port, workers);
            try {
                if (!ready.get(20, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("bin/serve exited before the server was ready:\n" + String.join("\n", output));
                }
            }
            catch (Exception e) {
                server.close();
                throw e;
            }
            return server;
        }

        Connection connect(String retryPolicy)
                throws SQLException
        {
            return connect(retryPolicy, "lance");
        }

        Connection connect(String retryPolicy, String catalog)
                throws SQLException
        {
            Properties properties = new Properties();
            properties.setProperty("user", "benchmark");
            properties.setProperty("sessionProperties", "retry_policy:" + retryPolicy);
            return DriverManager.getConnection("jdbc:trino://127.0.0.1:%s/%s/%s".formatted(port, catalog, BenchmarkEnvironment.SCHEMA), properties);
        }

        @Override
        public void close()
                throws InterruptedException
        {
            process.destroy();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }

        // the first of `count` consecutive free ports: bin/serve gives worker i the coordinator's port + i
        private static int freePorts(int count)
                throws IOException
        {
            for (int attempt = 0; attempt < 50; attempt++) {
                int first;
                try (ServerSocket socket = new ServerSocket(0)) {
                    first = socket.getLocalPort();
                }
                boolean free = first + count <= 65535;
                for (int port = first + 1; port < first + count && free; port++) {
                    try (ServerSocket _ = new ServerSocket(port)) {
                        // free
                    }
                    catch (IOException e) {
                        free = false;
                    }
                }
                if (free) {
                    return first;
                }
            }
            throw new IOException("No %s consecutive free ports".formatted(count));
        }
    }
}
