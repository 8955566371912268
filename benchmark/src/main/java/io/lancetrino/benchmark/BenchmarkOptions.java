package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What {@code bin/bench} measures and where it keeps the data.
 *
 * @param scale TPC-H scale factor; the data is generated once per scale and reused by later runs
 * @param runs timed runs of each query on each connector, after one warm-up run each
 * @param fragmentCounts fragment counts of the synthetic tables split planning is timed on
 * @param versionCount versions of the synthetic table latest-version resolution and {@code $versions} are timed on
 * @param compactionInserts single-row INSERTs that build the table compaction is timed on
 * @param queries names of the queries to run, all when empty
 * @param lanceProperties extra catalog properties of the {@code lance} catalog, to compare settings
 * @param lanceTableProperties table properties of the generated Lance tables; data generated with other table
 * properties lives in its own directory
 * @param sharingRecipients recipients reading one share at once in the sharing load
 * @param sharingSeconds how long the sharing load runs
 * @param seed seed of the random keys the indexes part looks up
 * @param annQueries query vectors (and text queries) per setting in the approximate search part
 * @param parts what to measure: {@link #PARTS}, all when empty (a run of chosen queries measures only them)
 */
public record BenchmarkOptions(
        double scale,
        int runs,
        Path dataDirectory,
        Path outputDirectory,
        boolean regenerate,
        List<Integer> fragmentCounts,
        int versionCount,
        int compactionInserts,
        List<String> queries,
        Map<String, String> lanceProperties,
        Map<String, String> lanceTableProperties,
        int sharingRecipients,
        double sharingSeconds,
        long seed,
        int annQueries,
        List<String> parts)
{
    public static final String CLUSTER = "cluster";
    public static final String FOOTPRINT = "footprint";
    public static final List<String> PARTS = List.of("queries", "operators", "storage", "writes", "reader", "planning", "versions", "clones", "compaction", "merges", "cleanup", "vectors", "indexes", "search", "ann", "sharing", CLUSTER, FOOTPRINT);

    public BenchmarkOptions
    {
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(outputDirectory, "outputDirectory is null");
        fragmentCounts = ImmutableList.copyOf(fragmentCounts);
        queries = ImmutableList.copyOf(queries);
        lanceProperties = ImmutableMap.copyOf(lanceProperties);
        lanceTableProperties = ImmutableMap.copyOf(lanceTableProperties);
        parts = ImmutableList.copyOf(parts);
        List<String> unknownParts = parts.stream().filter(part -> !PARTS.contains(part)).toList();
        if (!unknownParts.isEmpty()) {
            throw new IllegalArgumentException("Unknown parts %s; the parts are %s".formatted(unknownParts, PARTS));
        }
        if (scale <= 0 || runs <= 0 || versionCount < 2 || compactionInserts < 2 || sharingRecipients < 1 || sharingSeconds <= 0 || annQueries < 1) {
            throw new IllegalArgumentException("scale, runs, sharing recipients and seconds must be positive, versions and compaction inserts at least 2");
        }
    }

    public static BenchmarkOptions parse(String[] args, Path projectRoot)
    {
        double scale = 1;
        int runs = 5;
        boolean regenerate = false;
        List<Integer> fragments = List.of(1_000, 10_000, 100_000);
        int versions = 10_000;
        int compactionInserts = 1_000;
        List<String> queries = List.of();
        Map<String, String> lanceProperties = new LinkedHashMap<>();
        Map<String, String> lanceTableProperties = new LinkedHashMap<>();
        Path output = projectRoot.resolve("target/benchmark");
        int sharingRecipients = 32;
        double sharingSeconds = 30;
        long seed = 1;
        int annQueries = 100;
        List<String> parts = List.of();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--scale" -> scale = Double.parseDouble(required(args[i], value));
                case "--runs" -> runs = Integer.parseInt(required(args[i], value));
                case "--output" -> output = Path.of(required(args[i], value));
                case "--fragments" -> fragments = Arrays.stream(required(args[i], value).split(",")).map(String::trim).map(Integer::parseInt).toList();
                case "--versions" -> versions = Integer.parseInt(required(args[i], value));
                case "--compaction-inserts" -> compactionInserts = Integer.parseInt(required(args[i], value));
                case "--lance-property" -> putProperty(lanceProperties, args[i], required(args[i], value));
                case "--lance-table-property" -> putProperty(lanceTableProperties, args[i], required(args[i], value));
                case "--sharing-recipients" -> sharingRecipients = Integer.parseInt(required(args[i], value));
                case "--parts" -> parts = Arrays.stream(required(args[i], value).split(",")).map(String::trim).toList();
                case "--sharing-seconds" -> sharingSeconds = Double.parseDouble(required(args[i], value));
                case "--ann-queries" -> annQueries = Integer.parseInt(required(args[i], value));
                case "--seed" -> seed = Long.parseLong(required(args[i], value));
                case "--queries" -> queries = Arrays.stream(required(args[i], value).split(",")).map(String::trim).toList();
                case "--regenerate" -> {
                    regenerate = true;
                    continue;
                }
                default -> throw new IllegalArgumentException("Unknown option " + args[i] + "; options: --scale N --runs N --output DIR --fragments N,N --versions N --compaction-inserts N --queries NAME,NAME --lance-property NAME=VALUE --lance-table-property NAME=VALUE --parts NAME,NAME --sharing-recipients N --sharing-seconds S --seed N --ann-queries N --regenerate");
            }
            i++;
        }
        String dataName = "sf" + scaleName(scale) + lanceTableProperties.entrySet().stream()
                .map(entry -> "-" + entry.getKey() + "-" + entry.getValue())
                .collect(java.util.stream.Collectors.joining());
        return new BenchmarkOptions(scale, runs, output.resolve("data").resolve(dataName), output, regenerate, fragments, versions, compactionInserts, queries, lanceProperties, lanceTableProperties, sharingRecipients, sharingSeconds, seed, annQueries, parts);
    }

    private static void putProperty(Map<String, String> properties, String option, String value)
    {
        String[] property = value.split("=", 2);
        if (property.length != 2) {
            throw new IllegalArgumentException(option + " needs name=value, not " + value);
        }
        properties.put(property[0], property[1]);
    }

    /**
     * The {@code WITH} clause for the generated Lance tables, empty for the defaults.
     */
    public String lanceTableWithClause()
    {
        if (lanceTableProperties.isEmpty()) {
            return "";
        }
        return lanceTableProperties.entrySet().stream()
                .map(entry -> "%s = %s".formatted(entry.getKey(), entry.getValue().matches("\\d+") ? entry.getValue() : "'" + entry.getValue().replace("'", "''") + "'"))
                .collect(java.util.stream.Collectors.joining(", ", " WITH (", ")"));
    }

    private static String required(String option, String value)
    {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /**
     * The TPC-H connector's schema for the scale as a SQL identifier: {@code tiny} is 0.01, others are
     * {@code sf<scale>}, quoted because a fractional scale has a dot in its name ({@code "sf0.1"}).
     */
    public String tpchSchema()
    {
        return scale == 0.01 ? "tiny" : "\"sf" + scaleName(scale) + "\"";
    }

    /**
     * Whether a part is measured: every part by default, only the queries when queries are chosen.
     */
    public boolean measures(String part)
    {
        if (!parts.isEmpty()) {
            return parts.contains(part);
        }
        // real servers take minutes to start: only when asked for
        if (part.equals(CLUSTER) || part.equals(FOOTPRINT)) {
            return false;
        }
        return queries.isEmpty() || part.equals("queries");
    }

    public List<BenchmarkQuery> selectedQueries()
    {
        if (queries.isEmpty()) {
            return BenchmarkQuery.ALL;
        }
        List<String> unknown = queries.stream().filter(name -> BenchmarkQuery.ALL.stream().noneMatch(query -> query.name().equals(name))).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown queries %s; the queries are %s".formatted(unknown, BenchmarkQuery.ALL.stream().map(BenchmarkQuery::name).toList()));
        }
        return BenchmarkQuery.ALL.stream().filter(query -> queries.contains(query.name())).toList();
    }

    /**
     * The scale as written in schema names, directory names and the report: {@code 1}, {@code 0.1}, {@code 0.0001}
     * (never {@code 1.0E-4} as {@code Double.toString} writes it).
     */
    static String scaleName(double scale)
    {
        return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }
}
