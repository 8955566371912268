package io.lancetrino.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code bin/bench}: TPC-H on the Lance connector against Trino's Iceberg connector in the same engine, the page
 * source against the Lance SDK's own scan, and coordinator-side metadata costs. See docs/benchmark.md.
 */
public final class Benchmark
{
    // single-row lookups of the reader part: a few hundred, the same rows for every writer and reader
    static final int RANDOM_LOOKUPS = 300;
    static final long RANDOM_SEED = 20261205L;

    private Benchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        BenchmarkOptions options = BenchmarkOptions.parse(args, Path.of(System.getProperty("project.root", ".")));
        BenchmarkReport report = run(options);
        System.out.println(report.markdown());
        System.out.println("Written to " + options.outputDirectory().resolve("benchmark.md") + " and benchmark.json");
        // the query runner leaves non-daemon threads behind
        System.exit(0);
    }

    private static String settings(BenchmarkOptions options)
    {
        List<String> settings = new ArrayList<>();
        options.lanceProperties().forEach((name, value) -> settings.add("catalog %s=%s".formatted(name, value)));
        options.lanceTableProperties().forEach((name, value) -> settings.add("table %s=%s".formatted(name, value)));
        return String.join(", ", settings);
    }

    public static BenchmarkReport run(BenchmarkOptions options)
            throws Exception
    {
        try (BenchmarkEnvironment environment = BenchmarkEnvironment.start(options.dataDirectory(), options.lanceProperties())) {
            double generation = TpchData.ensureGenerated(environment, options);
            List<QueryTimings.QueryResult> queries = options.measures("queries") ? QueryTimings.run(environment.runner(), options.selectedQueries(), options.runs()) : List.of();
            List<OperatorTimings.QueryNodes> operators = options.measures("operators") ? OperatorTimings.measure(environment.runner(), options.runs()) : List.of();
            List<TpchData.TableStorage> storage = new ArrayList<>();
            Optional<ReaderThroughput.Result> reader = Optional.empty();
            List<RandomAccessTimings.Lookups> randomAccess = List.of();
            List<MetadataTimings.SplitPlanning> planning = List.of();
            List<MetadataTimings.VersionResolution> versions = List.of();
            List<CloneTimings.CloneTime> clones = List.of();
            Optional<CompactionTimings.Compaction> compaction = Optional.empty();
            List<IndexedCompactionTimings.IndexedCompaction> indexedCompactions = List.of();
            List<CleanupTimings.CleanupTime> cleanups = List.of();
            List<MergeTimings.MergeTime> merges = List.of();
            Optional<VectorTextTimings.Result> vectors = Optional.empty();
            Optional<IndexTimings.Result> indexes = Optional.empty();
            Optional<VectorSearchTimings.Result> search = Optional.empty();
            Optional<AnnSearchTimings.Result> ann = Optional.empty();
            Optional<SharingLoad.Result> sharing = Optional.empty();
            Optional<ClusterTimings.Result> cluster = Optional.empty();
            Optional<WriteTimings.Result> writes = Optional.empty();
            Optional<Footprint.Result> footprint = Optional.empty();
            List<String> notMeasured = new ArrayList<>();
            if (options.measures("storage")) {
                for (String table : List.of("lineitem", "orders")) {
                    storage.add(TpchData.storage(environment, table));
                }
            }
            if (options.measures("writes")) {
                writes = Optional.of(WriteTimings.measure(environment, options.runs(), options.lanceTableWithClause()));
            }
            if (options.measures("reader")) {
                reader = Optional.of(ReaderThroughput.measure(environment.lanceTable(BenchmarkEnvironment.SCHEMA, "lineitem"), "lineitem", options.runs(), ReaderThroughput.config(options.lanceProperties())));
                randomAccess = RandomAccessTimings.measure(environment, RANDOM_LOOKUPS, RANDOM_SEED);
            }
            if (options.measures("planning")) {
                planning = MetadataTimings.splitPlanning(environment, options.fragmentCounts());
            }
            if (options.measures("versions")) {
                versions = MetadataTimings.versionResolution(environment, options.versionCount());
            }
            if (options.measures("clones")) {
                clones = CloneTimings.measure(environment);
            }
            if (options.measures("compaction")) {
                compaction = Optional.of(CompactionTimings.measure(environment, options.compactionInserts(), options.runs()));
                indexedCompactions = IndexedCompactionTimings.measure(environment, options.runs());
            }
            if (options.measures("merges")) {
                merges = MergeTimings.measure(environment);
            }
            if (options.measures("cleanup")) {
                cleanups = CleanupTimings.measure(environment, List.of(Math.min(1000, options.versionCount()), options.versionCount()));
            }
            if (options.measures("vectors")) {
                vectors = Optional.of(VectorTextTimings.measure(environment, options));
                if (VectorTextTimings.READERS.stream().noneMatch(fileReader -> fileReader.name().equals("java"))) {
                    notMeasured.add(VectorTextTimings.JAVA_READER_NOT_MEASURED);
                }
            }
            if (options.measures("indexes")) {
                indexes = Optional.of(IndexTimings.measure(environment, options));
            }
            if (options.measures("search")) {
                search = Optional.of(VectorSearchTimings.measure(environment, options));
            }
            if (options.measures("ann")) {
                ann = Optional.of(new AnnSearchTimings.Result(
                        AnnSearchTimings.measure(environment, options, options.annQueries()),
                        TextSearchTimings.measure(environment, options, options.annQueries())));
            }
            if (options.measures("sharing")) {
                sharing = Optional.of(SharingLoad.measure(environment, options.sharingRecipients(), options.sharingSeconds()));
            }
            if (options.measures(BenchmarkOptions.FOOTPRINT)) {
                footprint = Optional.of(Footprint.measure(environment, options.outputDirectory().resolve("footprint")));
            }
            if (options.measures("cluster")) {
                cluster = Optional.of(ClusterTimings.measure(environment, options, options.outputDirectory().resolve("cluster")));
            }
            BenchmarkReport report = new BenchmarkReport(
                    options.scale(),
                    options.runs(),
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.getRuntime().maxMemory(),
                    Runtime.version().toString(),
                    settings(options),
                    generation,
                    queries,
                    operators,
                    storage,
                    writes.map(WriteTimings.Result::writes).orElse(List.of()),
                    writes.map(WriteTimings.Result::columns).orElse(List.of()),
                    reader,
                    randomAccess,
                    planning,
                    versions,
                    clones,
                    compaction,
                    indexedCompactions,
                    merges,
                    cleanups,
                    vectors,
                    indexes,
                    search,
                    ann,
                    sharing,
                    cluster,
                    footprint,
                    notMeasured);
            report.write(options.outputDirectory());
            return report;
        }
    }
}
