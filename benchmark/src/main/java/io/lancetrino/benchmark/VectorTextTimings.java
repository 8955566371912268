package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.split.LanceConfig;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.lancetrino.benchmark.BenchmarkEnvironment.SCHEMA;
import static io.lancetrino.benchmark.BenchmarkEnvironment.session;
import static java.util.Objects.requireNonNull;

/**
 * Full scans of the {@link VectorTextData} table's vector column and long-text column, through Trino and through the
 * page source alone, once per data file reader, so the readers' figures sit side by side in one table.
 */
public final class VectorTextTimings
{
    /**
     * A data file reader and the catalog properties that select it.
     */
    public record FileReader(String name, Map<String, String> catalogProperties)
    {
        public FileReader
        {
            requireNonNull(name, "name is null");
            catalogProperties = ImmutableMap.copyOf(catalogProperties);
        }
    }

    // both data file readers side by side; ReaderThroughput.config passes the property to the page source
    public static final List<FileReader> READERS = List.of(
            new FileReader("sdk", Map.of("lance.file-reader", "sdk")),
            new FileReader("java", Map.of("lance.file-reader", "java")));
    public static final String JAVA_READER_NOT_MEASURED = "vectors table with the Java file reader (catalog property lance.file-reader=java does not exist yet)";

    private static final List<Scan> SCANS = List.of(
            // cardinality needs the whole array block loaded, so every element is decoded
            new Scan("vector", "v", "SELECT sum(cardinality(v)) FROM " + VectorTextData.TABLE),
            new Scan("text", "text", "SELECT sum(length(text)) FROM " + VectorTextData.TABLE));

    private VectorTextTimings() {}

    private record Scan(String name, String column, String sql) {}

    /**
     * @param decodedBytes the column's values as Trino holds them: 4 bytes per vector element, the text's UTF-8 bytes
     */
    public record ColumnScan(String column, QueryTimings.Stats query, long result, long decodedBytes, ReaderThroughput.Result pageSource)
    {
        public double pageSourceMegabytesPerSecond()
        {
            return decodedBytes / (pageSource.rows() / pageSource.pageSourceRowsPerSecond()) / 1e6;
        }
    }

    public record ReaderResult(String reader, String catalogProperties, List<ColumnScan> columns)
    {
        public ReaderResult
        {
            columns = List.copyOf(columns);
        }
    }

    public record Result(long rows, int dimension, long dataBytes, double generationSeconds, List<ReaderResult> readers, boolean sameResults)
    {
        public Result
        {
            readers = List.copyOf(readers);
        }
    }

    public static Result measure(BenchmarkEnvironment environment, BenchmarkOptions options)
            throws Exception
    {
        double generation = VectorTextData.ensureGenerated(environment, options);
        Path table = environment.lanceTable(SCHEMA, VectorTextData.TABLE);
        DistributedQueryRunner runner = environment.runner();
        List<ReaderResult> readers = new ArrayList<>();
        boolean same = true;
        for (FileReader reader : READERS) {
            Map<String, String> properties = ImmutableMap.<String, String>builder()
                    .putAll(options.lanceProperties())
                    .putAll(reader.catalogProperties())
                    .buildKeepingLast();
            String catalog = "lance_" + reader.name();
            environment.addLanceCatalog(catalog, properties);
            Session session = session(catalog);
            List<ColumnScan> columns = new ArrayList<>();
            for (Scan scan : SCANS) {
                MaterializedResult warmUp = runner.execute(session, scan.sql());
                List<QueryTimings.Run> runs = new ArrayList<>();
                for (int i = 0; i < options.runs(); i++) {
                    runs.add(QueryTimings.timed(runner, session, scan.sql()));
                }
                ReaderThroughput.Result pageSource = ReaderThroughput.measure(table, VectorTextData.TABLE, List.of(scan.column()), options.runs(), ReaderThroughput.config(properties));
                long result = ((Number) warmUp.getOnlyValue()).longValue();
                long decodedBytes = scan.column().equals("v") ? result * Float.BYTES : result;
                columns.add(new ColumnScan(scan.column(), QueryTimings.Stats.of(runs), result, decodedBytes, pageSource));
                System.out.printf("%-8s %-6s trino %.3fs  page source %,.0f rows/s  SDK scan %,.0f rows/s%n", reader.name(), scan.name(),
                        QueryTimings.Stats.of(runs).medianSeconds(), pageSource.pageSourceRowsPerSecond(), pageSource.sdkRowsPerSecond());
            }
            // every vector has all its elements, and every reader sums the same text lengths
            same &= columns.getFirst().result() == VectorTextData.DIMENSION * columns.getFirst().pageSource().rows();
            if (!readers.isEmpty()) {
                for (int i = 0; i < columns.size(); i++) {
                    same &= columns.get(i).result() == readers.getFirst().columns().get(i).result();
                }
            }
            readers.add(new ReaderResult(reader.name(), settings(reader.catalogProperties()), columns));
        }
        long rows = (long) runner.execute(session("lance"), "SELECT count(*) FROM " + VectorTextData.TABLE).getOnlyValue();
        return new Result(rows, VectorTextData.DIMENSION, TpchData.directoryBytes(table.resolve("data")), generation, readers, same);
    }

    private static String settings(Map<String, String> properties)
    {
        if (properties.isEmpty()) {
            return "(no property: the only reader)";
        }
        return properties.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).reduce((a, b) -> a + ", " + b).orElseThrow();
    }

    /**
     * Whether the connector's configuration knows {@code lance.file-reader} yet; the smoke test uses it to fail once
     * the property exists and the Java row is still missing here.
     */
    static boolean fileReaderPropertyExists()
    {
        for (var method : LanceConfig.class.getMethods()) {
            io.airlift.configuration.Config config = method.getAnnotation(io.airlift.configuration.Config.class);
            if (config != null && config.value().equals("lance.file-reader")) {
                return true;
            }
        }
        return false;
    }
}
