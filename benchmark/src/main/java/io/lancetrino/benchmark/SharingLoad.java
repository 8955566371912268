package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.sharing.server.LanceSharingServer;
import io.trino.Session;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many recipients reading one share at once: a sharing server over the benchmark warehouse, one recipient catalog
 * (own profile, own token) per recipient in the same Trino, and one thread per recipient running a mix of scans,
 * aggregations and point lookups on the shared {@code orders} for a fixed time. Every answer is compared with the
 * owner's catalog; errors and wrong answers are counted, never retried.
 */
public final class SharingLoad
{
    private static final int KEY_GROUPS = 16;
    private static final String SHARED_SCHEMA = "bench.tpch";

    private SharingLoad() {}

    /**
     * @param shared the recipients, each through its own catalog, after each ran one query
     * @param local the same threads and queries on the owner's catalog, for what sharing costs
     * @param firstQuerySeconds median time of each recipient catalog's first query, run one after another before the
     * load: it fetches the version's manifest, the file footers and the version and ref listings the first time
     */
    public record Result(Run shared, Run local, double firstQuerySeconds, ServerCost sharedServer, Run objectStoreShared, ServerCost objectStoreServer) {}

    /**
     * What the sharing server itself spent during a run.
     *
     * @param cpuSeconds CPU time of its request threads (protocol answers and file bodies)
     * @param fileBytesServed bytes of table files it sent itself (zero when the store serves them)
     */
    public record ServerCost(double cpuSeconds, long fileBytesServed) {}

    /**
     * @param p99Seconds 99th percentile of query latency over all threads
     * @param firstErrors up to five error messages, for the report
     */
    public record Run(int threads, double seconds, long queries, double queriesPerSecond, double p50Seconds, double p99Seconds, long errors, long wrongResults, List<String> firstErrors)
    {
        public Run
        {
            firstErrors = List.copyOf(firstErrors);
        }
    }

    public static Result measure(BenchmarkEnvironment environment, int recipients, double seconds)
            throws Exception
    {
        QueryRunner runner = environment.runner();
        Path directory = Files.createDirectories(environment.lanceWarehouse().resolveSibling("sharing"));
        Map<String, String> tokens = new LinkedHashMap<>();
        for (int i = 0; i < recipients; i++) {
            tokens.put("recipient" + i, randomHex(32));
        }
        List<String> queries = queries();
        Session owner = BenchmarkEnvironment.session("lance", BenchmarkEnvironment.SCHEMA);
        Map<String, List<MaterializedRow>> expected = new LinkedHashMap<>();
        for (String query : queries) {
            expected.put(query, runner.execute(owner, query).getMaterializedRows());
        }
        Run local = run(runner, Collections.nCopies(tokens.size(), "lance"), BenchmarkEnvironment.SCHEMA, queries, expected, seconds);

        Path config = directory.resolve("shares.json");
        Files.writeString(config, serverConfig(environment.lanceWarehouse().toAbsolutePath().toString(), "", tokens));
        SharedRun disk = sharedRun(runner, config, directory, "share_", tokens, queries, expected, seconds);

        // the same table on an S3-compatible store, copied as it is: file URLs become the store's pre-signed URLs
        Path storeDirectory = Files.createDirectories(directory.resolve("s3"));
        try (BenchmarkObjectStore store = BenchmarkObjectStore.start(storeDirectory)) {
            Path table = environment.lanceWarehouse().resolve(BenchmarkEnvironment.SCHEMA).resolve("orders.lance");
            Path copy = store.bucket("bench").resolve("warehouse").resolve(BenchmarkEnvironment.SCHEMA).resolve("orders.lance");
            copyTree(table, copy);
            String storage = store.properties().entrySet().stream()
                    .map(entry -> "\"%s\": \"%s\"".formatted(entry.getKey(), entry.getValue()))
                    .collect(java.util.stream.Collectors.joining(", "));
            Path storeConfig = storeDirectory.resolve("shares.json");
            Files.writeString(storeConfig, serverConfig("s3://bench/warehouse", "\"storage\": {%s},".formatted(storage), tokens));
            SharedRun objectStore = sharedRun(runner, storeConfig, storeDirectory, "share_s3_", tokens, queries, expected, seconds);
            return new Result(disk.run(), local, disk.firstQuerySeconds(), disk.cost(), objectStore.run(), objectStore.cost());
        }
    }

    private record SharedRun(Run run, double firstQuerySeconds, ServerCost cost) {}

    private static SharedRun sharedRun(QueryRunner runner, Path config, Path directory, String catalogPrefix, Map<String, String> tokens, List<String> queries,
            Map<String, List<MaterializedRow>> expected, double seconds)
            throws Exception
    {
        try (LanceSharingServer server = LanceSharingServer.start(config, 0)) {
            List<String> catalogs = new ArrayList<>();
            for (Map.Entry<String, String> recipient : tokens.entrySet()) {
                Path profile = directory.resolve(recipient.getKey() + ".share");
                Files.writeString(profile, "{\"shareCredentialsVersion\": 1, \"endpoint\": \"%s\", \"bearerToken\": \"%s\"}".formatted(server.endpoint(), recipient.getValue()));
                String catalog = catalogPrefix + recipient.getKey();
                runner.createCatalog(catalog, "lance", ImmutableMap.of("lance.sharing.profile", profile.toString()));
                catalogs.add(catalog);
            }
            List<Double> firstQueries = new ArrayList<>();
            for (String catalog : catalogs) {
                long start = System.nanoTime();
                runner.execute(BenchmarkEnvironment.session(catalog, SHARED_SCHEMA), queries.getFirst());
                firstQueries.add((System.nanoTime() - start) / 1e9);
            }
            long cpuBefore = server.requestCpuNanos();
            long bytesBefore = server.fileBytesServed();
            Run run = run(runner, catalogs, SHARED_SCHEMA, queries, expected, seconds);
            ServerCost cost = new ServerCost((server.requestCpuNanos() - cpuBefore) / 1e9, server.fileBytesServed() - bytesBefore);
            System.out.printf("sharing server during %s...: %.1f CPU s, %,d file bytes served%n", catalogs.getFirst(), cost.cpuSeconds(), cost.fileBytesServed());
            return new SharedRun(run, Measurements.median(firstQueries), cost);
        }
    }

    private static void copyTree(Path source, Path target)
            throws IOException
    {
        try (var paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path destination = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(destination);
                }
                else {
                    Files.copy(path, destination, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static Run run(QueryRunner runner, List<String> catalogs, String schema, List<String> queries, Map<String, List<MaterializedRow>> expected, double seconds)
            throws InterruptedException
    {
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicLong errors = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        ConcurrentLinkedQueue<String> errorMessages = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(catalogs.size());
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        for (int i = 0; i < catalogs.size(); i++) {
            Session session = BenchmarkEnvironment.session(catalogs.get(i), schema);
            int first = i;
            Thread.ofPlatform().name("recipient-" + i).start(() -> {
                try {
                    for (int n = first; System.nanoTime() < deadline; n++) {
                        String query = queries.get(n % queries.size());
                        long queryStart = System.nanoTime();
                        try {
                            MaterializedResult result = runner.execute(session, query);
                            latencies.add(System.nanoTime() - queryStart);
                            if (!result.getMaterializedRows().equals(expected.get(query))) {
                                wrong.incrementAndGet();
                            }
                        }
                        catch (RuntimeException e) {
                            errors.incrementAndGet();
                            if (errorMessages.size() < 5) {
                                errorMessages.add(e.getMessage());
                            }
                        }
                    }
                }
                finally {
                    done.countDown();
                }
            });
        }
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        Run result = new Run(catalogs.size(), elapsed, sorted.size(), sorted.size() / elapsed, percentile(sorted, 0.50), percentile(sorted, 0.99), errors.get(), wrong.get(), ImmutableList.copyOf(errorMessages));
        System.out.printf("sharing load on %s...: %d threads, %.1f s, %d queries, %.1f queries/s, p50 %.3f s, p99 %.3f s, %d errors, %d wrong%n",
                catalogs.getFirst(), result.threads(), result.seconds(), result.queries(), result.queriesPerSecond(), result.p50Seconds(), result.p99Seconds(), result.errors(), result.wrongResults());
        return result;
    }

    // scans with a filter on the key, a grouped aggregation, and point lookups: what a partner's BI tool sends
    private static List<String> queries()
    {
        ImmutableList.Builder<String> queries = ImmutableList.builder();
        for (int group = 0; group < KEY_GROUPS; group++) {
            queries.add("SELECT count(*), sum(o_totalprice) FROM orders WHERE o_orderkey %% %d = %d".formatted(KEY_GROUPS, group));
            queries.add("SELECT o_orderkey, o_custkey, o_orderstatus, o_orderdate FROM orders WHERE o_orderkey = %d".formatted(group * 32 + 1));
        }
        queries.add("SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority ORDER BY o_orderpriority");
        return queries.build();
    }

    private static String serverConfig(String warehouse, String storage, Map<String, String> tokens)
    {
        StringBuilder recipients = new StringBuilder();
        for (Map.Entry<String, String> recipient : tokens.entrySet()) {
            recipients.append(recipients.isEmpty() ? "" : ",\n    ")
                    .append("{\"name\": \"%s\", \"bearerToken\": \"%s\", \"shares\": [\"bench\"]}".formatted(recipient.getKey(), recipient.getValue()));
        }
        return """
                {"warehouse": "%s", "signingKey": "%s", %s
                 "shares": [{"name": "bench", "schemas": [{"name": "tpch", "tables": [
                    {"name": "orders", "table": "%s.orders"}]}]}],
                 "recipients": [%s]}
                """.formatted(warehouse, randomHex(32), storage, BenchmarkEnvironment.SCHEMA, recipients);
    }

    private static double percentile(List<Long> sortedNanos, double fraction)
    {
        if (sortedNanos.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(fraction * sortedNanos.size()) - 1;
        return sortedNanos.get(Math.max(0, Math.min(index, sortedNanos.size() - 1))) / 1e9;
    }

    private static String randomHex(int bytes)
    {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
