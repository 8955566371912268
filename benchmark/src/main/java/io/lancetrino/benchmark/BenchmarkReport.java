package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The figures of one {@code bin/bench} run, written as Markdown (printed, and {@code benchmark.md}) and JSON
 * ({@code benchmark.json}).
 */
public record BenchmarkReport(
        double scale,
        int runs,
        int cores,
        long maxHeapBytes,
        String javaVersion,
        String lanceSettings,
        double generationSeconds,
        List<QueryTimings.QueryResult> queries,
        List<OperatorTimings.QueryNodes> operators,
        List<TpchData.TableStorage> storage,
        List<WriteTimings.WriteResult> writes,
        List<WriteTimings.ColumnComparison> columnEncodings,
        Optional<ReaderThroughput.Result> reader,
        List<RandomAccessTimings.Lookups> randomAccess,
        List<MetadataTimings.SplitPlanning> splitPlanning,
        List<MetadataTimings.VersionResolution> versionResolution,
        List<CloneTimings.CloneTime> clones,
        Optional<CompactionTimings.Compaction> compaction,
        List<IndexedCompactionTimings.IndexedCompaction> indexedCompactions,
        List<MergeTimings.MergeTime> merges,
        List<CleanupTimings.CleanupTime> cleanups,
        Optional<VectorTextTimings.Result> vectors,
        Optional<IndexTimings.Result> indexes,
        Optional<VectorSearchTimings.Result> search,
        Optional<AnnSearchTimings.Result> ann,
        Optional<SharingLoad.Result> sharing,
        Optional<ClusterTimings.Result> cluster,
        Optional<Footprint.Result> footprint,
        List<String> notMeasured)
{
    public BenchmarkReport
    {
        requireNonNull(javaVersion, "javaVersion is null");
        requireNonNull(lanceSettings, "lanceSettings is null");
        queries = List.copyOf(queries);
        operators = List.copyOf(operators);
        storage = List.copyOf(storage);
        writes = List.copyOf(writes);
        columnEncodings = List.copyOf(columnEncodings);
        requireNonNull(reader, "reader is null");
        randomAccess = List.copyOf(randomAccess);
        splitPlanning = List.copyOf(splitPlanning);
        versionResolution = List.copyOf(versionResolution);
        clones = List.copyOf(clones);
        requireNonNull(compaction, "compaction is null");
        indexedCompactions = List.copyOf(indexedCompactions);
        merges = List.copyOf(merges);
        cleanups = List.copyOf(cleanups);
        requireNonNull(vectors, "vectors is null");
        requireNonNull(indexes, "indexes is null");
        requireNonNull(search, "search is null");
        requireNonNull(ann, "ann is null");
        requireNonNull(sharing, "sharing is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(footprint, "footprint is null");
        notMeasured = List.copyOf(notMeasured);
    }

    public static final String RECALL_CHART = "benchmark-recall.svg";

    public void write(Path directory)
            throws IOException
    {
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("benchmark.md"), markdown());
        if (ann.isPresent()) {
            Files.writeString(directory.resolve(RECALL_CHART), RecallChart.svg(ann.get().vectors()));
        }
        new ObjectMapper()
                .registerModule(new Jdk8Module())
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(directory.resolve("benchmark.json").toFile(), this);
    }

    public String markdown()
    {
        StringBuilder out = new StringBuilder();
        out.append("## TPC-H SF%s, %s runs per query, %s cores, heap %s MB, Java %s%n%n".formatted(
                BenchmarkOptions.scaleName(scale), runs, cores, maxHeapBytes >> 20, javaVersion));
        if (!lanceSettings.isEmpty()) {
            out.append("Lance settings: %s%n%n".formatted(lanceSettings));
        }
        if (!queries.isEmpty()) {
            out.append("| query | lance s (median) | iceberg s (median) | lance/iceberg | lance min–max s | iceberg min–max s | lance CPU s | iceberg CPU s | same result |\n");
            out.append("|---|---:|---:|---:|---|---|---:|---:|---|\n");
        }
        for (QueryTimings.QueryResult query : queries) {
            out.append("| %s | %.3f | %.3f | %.2f | %.3f–%.3f | %.3f–%.3f | %.2f | %.2f | %s |%n".formatted(
                    query.name(), query.lance().medianSeconds(), query.iceberg().medianSeconds(), query.ratio(),
                    query.lance().minSeconds(), query.lance().maxSeconds(), query.iceberg().minSeconds(), query.iceberg().maxSeconds(),
                    query.lance().medianCpuSeconds(), query.iceberg().medianCpuSeconds(), query.sameResult() ? "yes" : "**NO**"));
        }
        if (!operators.isEmpty()) {
            out.append("\n| query | plan node | lance CPU ms | iceberg CPU ms | lance/iceberg |\n|---|---|---:|---:|---:|\n");
        }
        for (OperatorTimings.QueryNodes query : operators) {
            for (OperatorTimings.NodeCpu node : query.measurable()) {
                out.append("| %s | %s | %.1f | %.1f | %.2f |%n".formatted(query.query(), node.node(), node.lanceMillis(), node.icebergMillis(), node.lanceMillis() / node.icebergMillis()));
            }
        }
        // a run of chosen queries measures nothing else: print only the tables that have rows
        if (!storage.isEmpty()) {
            out.append("\n| table | lance data bytes | iceberg data bytes | lance/iceberg | lance table bytes | iceberg table bytes |\n");
            out.append("|---|---:|---:|---:|---:|---:|\n");
        }
        for (TpchData.TableStorage table : storage) {
            out.append("| %s | %,d | %,d | %.2f | %,d | %,d |%n".formatted(table.table(), table.lanceDataBytes(), table.icebergDataBytes(), table.ratio(), table.lanceTotalBytes(), table.icebergTotalBytes()));
        }
        if (!writes.isEmpty()) {
            out.append("\n| write | rows | lance (java writer) s | lance (SDK writer) s | iceberg s | java/iceberg | sdk/iceberg | lance java CPU s | lance SDK CPU s (JVM only) | iceberg CPU s |\n");
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        }
        for (WriteTimings.WriteResult write : writes) {
            out.append("| %s | %,d | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f |%n".formatted(write.name(), write.rows(),
                    write.lance().medianSeconds(), write.lanceSdk().medianSeconds(), write.iceberg().medianSeconds(), write.ratio(), write.sdkRatio(),
                    write.lance().medianCpuSeconds(), write.lanceSdk().medianCpuSeconds(), write.iceberg().medianCpuSeconds()));
        }
        if (!columnEncodings.isEmpty()) {
            out.append("\n| column | java writer bytes | SDK writer bytes | Parquet bytes | java/Parquet | decode CPU ms (java file) | decode CPU ms (SDK file) | java writer encodings (pages) | SDK writer encodings (pages) |\n");
            out.append("|---|---:|---:|---:|---:|---:|---:|---|---|\n");
            long java = 0;
            long sdk = 0;
            long parquet = 0;
            for (WriteTimings.ColumnComparison column : columnEncodings) {
                out.append("| %s | %,d | %,d | %,d | %.2f | %.0f | %.0f | %s | %s |%n".formatted(column.column(), column.javaBytes(), column.sdkBytes(), column.parquetBytes(),
                        (double) column.javaBytes() / column.parquetBytes(), column.javaDecodeCpuSeconds() * 1e3, column.sdkDecodeCpuSeconds() * 1e3, column.javaEncodings(), column.sdkEncodings()));
                java += column.javaBytes();
                sdk += column.sdkBytes();
                parquet += column.parquetBytes();
            }
            out.append("| all | %,d | %,d | %,d | %.2f | %.0f | %.0f | | |%n".formatted(java, sdk, parquet, (double) java / parquet,
                    columnEncodings.stream().mapToDouble(WriteTimings.ColumnComparison::javaDecodeCpuSeconds).sum() * 1e3,
                    columnEncodings.stream().mapToDouble(WriteTimings.ColumnComparison::sdkDecodeCpuSeconds).sum() * 1e3));
        }
        footprint.ifPresent(footprint -> {
            out.append("\n| footprint | bytes |\n|---|---:|\n");
            out.append("| plugin zip (reads and writes tables) | %,d |%n".formatted(footprint.zipBytes()));
            out.append("| SDK add-on zip (indexes, searches, the SDK reader and writer) | %,d |%n".formatted(footprint.sdkAddOnBytes()));
            out.append("| lance-core jar in the add-on (the SDK with its native libraries) | %,d |%n".formatted(footprint.lanceCoreBytes()));
            out.append("| server RSS after Java-only reads and writes (native library mapped: %s) | %,d |%n".formatted(footprint.javaPathLibraryMapped() ? "**yes**" : "no", footprint.javaPathRssBytes()));
            out.append("| server RSS after a scan through the SDK | %,d |%n".formatted(footprint.sdkPathRssBytes()));
            out.append("| of which lance-core's native library, resident | %,d |%n".formatted(footprint.nativeLibraryRssBytes()));
        });
        reader.ifPresent(reader -> {
            out.append("\n| reader (%s, all columns, %,d rows) | rows/s |\n|---|---:|\n".formatted(reader.table(), reader.rows()));
            out.append("| Lance SDK dataset scan | %,.0f |%n".formatted(reader.sdkRowsPerSecond()));
            out.append("| connector page source (%s splits) | %,.0f |%n".formatted(reader.pageSourceSplits(), reader.pageSourceRowsPerSecond()));
            out.append("| page source / SDK | %.0f%% |%n".formatted(100 * reader.pageSourceShare()));
        });
        if (!randomAccess.isEmpty()) {
            out.append("\n| single-row lookups by row address (%,d rows of lineitem, every column, one split of one row each) | files written by | reader | median µs | p90 µs |%n|---|---|---|---:|---:|%n".formatted(randomAccess.getFirst().lookups()));
            for (RandomAccessTimings.Lookups lookups : randomAccess) {
                out.append("| | %s writer | %s | %,.0f | %,.0f |%n".formatted(lookups.files(), lookups.reader(), lookups.medianMicros(), lookups.p90Micros()));
            }
        }
        if (!splitPlanning.isEmpty()) {
            out.append("\n| fragments | splits | planning s (manifest read and parsed) | planning s (manifest cached) |\n|---:|---:|---:|---:|\n");
        }
        for (MetadataTimings.SplitPlanning planning : splitPlanning) {
            out.append("| %,d | %,d | %.3f | %.3f |%n".formatted(planning.fragments(), planning.splits(), planning.coldSeconds(), planning.warmSeconds()));
        }
        if (!versionResolution.isEmpty()) {
            out.append("\n| versions | latest version s (hint) | latest version s (listing) | SELECT count(*) s | $versions s |\n|---:|---:|---:|---:|---:|\n");
        }
        for (MetadataTimings.VersionResolution versions : versionResolution) {
            out.append("| %,d | %.4f | %.4f | %.3f | %.3f |%n".formatted(versions.versions(), versions.hintedLatestSeconds(), versions.listedLatestSeconds(), versions.countQuerySeconds(), versions.versionsTableSeconds()));
        }
        if (!clones.isEmpty()) {
            out.append("\n| cloned table | rows | data bytes | shallow clone s | deep clone s |\n");
            out.append("|---|---:|---:|---:|---:|\n");
            for (CloneTimings.CloneTime clone : clones) {
                out.append("| %s | %,d | %,d | %.4f | %.3f |%n".formatted(clone.table(), clone.rows(), clone.dataBytes(), clone.shallowSeconds(), clone.deepSeconds()));
            }
        }
        compaction.ifPresent(compaction -> {
            out.append("\n| compaction (%,d single-row INSERTs, %.1f s) | fragments | full scan s (median) |\n|---|---:|---:|\n".formatted(compaction.inserts(), compaction.insertSeconds()));
            out.append("| before optimize | %,d | %.3f |%n".formatted(compaction.fragmentsBefore(), compaction.scanSecondsBefore()));
            out.append("| after optimize (%.3f s%s) | %,d | %.3f |%n".formatted(compaction.optimizeSeconds(), compaction.sameResult() ? "" : ", **different result**", compaction.fragmentsAfter(), compaction.scanSecondsAfter()));
        });
        if (!indexedCompactions.isEmpty()) {
            out.append("\n| optimize of lineitem after %s small appends | rows | fragments before | after | rewritten | optimize s | `l_partkey = k` lookup s before | after | indexes listed after |%n|---|---:|---:|---:|---:|---:|---:|---:|---:|%n"
                    .formatted(IndexedCompactionTimings.APPENDS));
            for (IndexedCompactionTimings.IndexedCompaction run : indexedCompactions) {
                out.append("| %s%s | %,d | %,d | %,d | %,d | %.3f | %.4f | %.4f | %,d |%n".formatted(run.indexes() == 0 ? "no index" : run.indexes() + " indexes (2 btree, 2 bitmap, zonemap)",
                        run.sameAnswers() ? "" : " (**different answers**)", run.rows(), run.fragmentsBefore(), run.fragmentsAfter(), run.fragmentsRewritten(), run.optimizeSeconds(),
                        run.lookupSecondsBefore(), run.lookupSecondsAfter(), run.indexesAfter()));
            }
        }
        if (!merges.isEmpty()) {
            out.append("\n| merge_branch of a branch that updated 1% of lineitem | rows | rows changed on the branch | fragments optimize rewrote first | merge s | bytes written | table bytes |\n|---|---:|---:|---:|---:|---:|---:|\n");
            for (MergeTimings.MergeTime merge : merges) {
                out.append("| %s%s | %,d | %,d | %,d | %.3f | %,d | %,d |%n".formatted(merge.compacted() ? "after optimize on both sides" : "no compaction in between",
                        merge.rightResult() ? "" : " (**wrong result**)", merge.rows(), merge.rowsChangedOnBranch(), merge.rewrittenByOptimize(), merge.mergeSeconds(), merge.bytesWritten(), merge.tableBytes()));
            }
        }
        if (!cleanups.isEmpty()) {
            out.append("\n| versions | fragments | cleanup dry run s | cleanup keeping all s | cleanup to latest s | versions removed | files removed |\n");
            out.append("|---:|---:|---:|---:|---:|---:|---:|\n");
            for (CleanupTimings.CleanupTime cleanup : cleanups) {
                out.append("| %,d | %,d | %.2f | %.2f | %.2f | %,d | %,d |%n".formatted(cleanup.versions(), cleanup.fragments(), cleanup.dryRunSeconds(), cleanup.keepAllSeconds(),
                        cleanup.cleanupSeconds(), cleanup.versionsRemoved(), cleanup.filesRemoved()));
            }
        }
        vectors.ifPresent(vectors -> {
            out.append("\n| %s table (%,d rows, %s-dimension float vector `v`, text `text` of %,d–%,d bytes; %,d data bytes) | reader | Trino full scan s (median) | Trino CPU s | page source splits | page source rows/s | page source MB/s decoded | Lance SDK dataset scan rows/s | page source / SDK |%n".formatted(
                    VectorTextData.TABLE, vectors.rows(), vectors.dimension(), VectorTextData.MIN_TEXT_BYTES, VectorTextData.MAX_TEXT_BYTES, vectors.dataBytes()));
            out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (String column : List.of("v", "text")) {
                for (VectorTextTimings.ReaderResult reader : vectors.readers()) {
                    VectorTextTimings.ColumnScan scan = reader.columns().stream().filter(candidate -> candidate.column().equals(column)).findFirst().orElseThrow();
                    out.append("| %s | %s | %.3f | %.2f | %,d | %,.0f | %,.0f | %,.0f | %.0f%% |%n".formatted(column, reader.reader(), scan.query().medianSeconds(), scan.query().medianCpuSeconds(),
                            scan.pageSource().pageSourceSplits(), scan.pageSource().pageSourceRowsPerSecond(), scan.pageSourceMegabytesPerSecond(), scan.pageSource().sdkRowsPerSecond(), 100 * scan.pageSource().pageSourceShare()));
                }
                // the place of the Java reader's row until lance.file-reader exists
                if (vectors.readers().stream().noneMatch(reader -> reader.reader().equals("java"))) {
                    out.append("| %s | java (not measured yet: no lance.file-reader) | – | – | – | – | – | – | – |%n".formatted(column));
                }
            }
            if (!vectors.sameResults()) {
                out.append("\n**The vectors table scans returned wrong or differing sums.**\n");
            }
        });
        indexes.ifPresent(indexes -> indexesMarkdown(out, indexes));
        search.ifPresent(search -> searchMarkdown(out, search));
        ann.ifPresent(ann -> annMarkdown(out, ann));
        sharing.ifPresent(load -> {
            out.append("\n| sharing load (%d recipients at once, each its own catalog and token; orders: filtered sums, point lookups, a grouped count) | queries | queries/s | p50 s | p99 s | errors | wrong results |%n".formatted(load.shared().threads()));
            out.append("|---|---:|---:|---:|---:|---:|---:|\n");
            for (SharingLoad.Run run : List.of(load.shared(), load.objectStoreShared(), load.local())) {
                String label = run == load.shared() ? "recipient catalogs over the sharing server, local-disk warehouse"
                        : run == load.objectStoreShared() ? "recipient catalogs over the sharing server, S3-compatible warehouse (pre-signed URLs)"
                        : "the owner's catalog (local disk), same threads and queries";
                out.append("| %s (%.0f s) | %,d | %.1f | %.3f | %.3f | %,d | %,d |%n".formatted(label,
                        run.seconds(), run.queries(), run.queriesPerSecond(), run.p50Seconds(), run.p99Seconds(), run.errors(), run.wrongResults()));
                run.firstErrors().forEach(error -> out.append("\nError: ").append(error).append('\n'));
            }
            out.append("\n| sharing server during the load | queries/s of the recipients | server CPU s | server CPU ms per query | table-file bytes the server sent |%n|---|---:|---:|---:|---:|%n".formatted());
            for (boolean objectStore : new boolean[] {false, true}) {
                SharingLoad.Run run = objectStore ? load.objectStoreShared() : load.shared();
                SharingLoad.ServerCost cost = objectStore ? load.objectStoreServer() : load.sharedServer();
                out.append("| %s | %.1f | %.1f | %.2f | %,d |%n".formatted(objectStore ? "S3-compatible warehouse" : "local-disk warehouse",
                        run.queriesPerSecond(), cost.cpuSeconds(), run.queries() == 0 ? 0 : cost.cpuSeconds() * 1000 / run.queries(), cost.fileBytesServed()));
            }
            out.append("\nEach recipient catalog ran one query before the load (its first, median %.3f s: it fetches the manifest, file footers and listings).%n".formatted(load.firstQuerySeconds()));
        });
        cluster.ifPresent(result -> clusterMarkdown(out, result));
        if (!notMeasured.isEmpty()) {
            out.append("\nNot measured yet: ").append(String.join("; ", notMeasured)).append('\n');
        }
        return out.toString();
    }

    private static void annMarkdown(StringBuilder out, AnnSearchTimings.Result ann)
    {
        out.append("\n| index build | rows | options | Trino `create_index` s | Lance SDK `createIndex` s | Trino / SDK |%n|---|---:|---|---:|---:|---:|%n".formatted());
        for (AnnSearchTimings.WorkloadResult workload : ann.vectors()) {
            buildRow(out, "%s.v %s".formatted(workload.table(), workload.build().indexType()), workload.rows(), workload.build());
        }
        buildRow(out, TextSearchTimings.TABLE + ".body inverted", ann.text().rows(), ann.text().build());
        for (AnnSearchTimings.WorkloadResult workload : ann.vectors()) {
            out.append("\n| approximate top-%s, %s (%,d x %s, %s; %s queries per setting) | recall@10 Trino | recall@10 SDK | Trino p50 s | Trino p99 s | SDK p50 s | SDK p99 s | SDK p50 + `SELECT 1` p50 s | goal | `SELECT cardinality(<query vector>)` p50 s | same rows as SDK |%n"
                    .formatted(AnnSearchTimings.K, workload.table(), workload.rows(), workload.dimension(), workload.build().indexType(), workload.queries()));
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n");
            for (AnnSearchTimings.Point point : workload.sweep()) {
                String label = point.setting().describe() + (point.equals(workload.defaults()) ? " (default)" : "") + (workload.highRecall().map(point::equals).orElse(false) ? " (fastest at recall ≥ 0.95)" : "");
                out.append("| %s | %.3f | %.3f | %.4f | %.4f | %.4f | %.4f | %.4f | %s | %.4f | %s |%n".formatted(label, point.trinoRecall(), point.sdkRecall(), point.trino().p50Seconds(), point.trino().p99Seconds(),
                        point.sdk().p50Seconds(), point.sdk().p99Seconds(), point.sdk().p50Seconds() + point.selectOne().p50Seconds(), point.goalMet() ? "PASS" : "MISS", point.literal().p50Seconds(), point.sameRows() ? "yes" : "**NO**"));
            }
            out.append("| `SELECT id FROM` a ten-row Lance table (no search) | | | %.4f | %.4f | | | | | | |%n".formatted(workload.answerScan().p50Seconds(), workload.answerScan().p99Seconds()));
            if (workload.highRecall().isEmpty()) {
                out.append("\nNo setting swept reached recall 0.95 on %s.%n".formatted(workload.table()));
            }
            if (workload.generationSeconds() > 0) {
                out.append("\n%s was written in %.1f s.%n".formatted(workload.table(), workload.generationSeconds()));
            }
        }
        TextSearchTimings.Result text = ann.text();
        out.append("\n| BM25 top-%s, %s (%,d rows of 200-399 words; %s queries) | p50 s | p99 s | goal | same rows and scores |%n|---|---:|---:|---|---|%n".formatted(AnnSearchTimings.K, TextSearchTimings.TABLE, text.rows(), text.queries()));
        out.append("| Trino `text_search` | %.4f | %.4f | %s | %s |%n".formatted(text.trino().p50Seconds(), text.trino().p99Seconds(), text.goalMet() ? "PASS" : "MISS", text.sameRows() ? "yes" : "**NO**"));
        out.append("| Lance SDK `fullTextQuery` | %.4f | %.4f | | |%n".formatted(text.sdk().p50Seconds(), text.sdk().p99Seconds()));
        out.append("| `SELECT 1` | %.4f | %.4f | | |%n".formatted(text.selectOne().p50Seconds(), text.selectOne().p99Seconds()));
        out.append("| `SELECT id FROM` a ten-row Lance table (no search) | %.4f | %.4f | | |%n".formatted(text.answerScan().p50Seconds(), text.answerScan().p99Seconds()));
        out.append("\nGoal: Trino's p50 at most the SDK's p50 plus `SELECT 1`'s. Recall/latency curves: %s.%n".formatted(RECALL_CHART));
    }

    private static void buildRow(StringBuilder out, String index, long rows, AnnSearchTimings.Build build)
    {
        out.append("| %s | %,d | `%s` | %.1f | %.1f | %.2f |%n".formatted(index, rows, build.options(), build.trinoSeconds(), build.sdkSeconds(), build.trinoSeconds() / build.sdkSeconds()));
    }

    private static void searchMarkdown(StringBuilder out, VectorSearchTimings.Result search)
    {
        out.append("\n| exact top-%s, %,d x %s-dim float32 vectors (a new query vector every run) | variant | median s | p90 s | same rows as the engine | same ids as the SDK |%n"
                .formatted(VectorSearchTimings.K, search.rows(), search.dimension()));
        out.append("|---|---|---:|---:|---|---|\n");
        for (VectorSearchTimings.SearchResult result : search.searches()) {
            for (VectorSearchTimings.Variant variant : List.of(result.pushed(), result.engine(), result.sdk())) {
                out.append("| `%s` | %s | %.4f | %.4f | %s | %s |%n".formatted(result.sql(), variant.name(), variant.medianSeconds(), variant.p90Seconds(),
                        variant == result.pushed() ? (result.sameRows() ? "yes" : "**NO**") : "", variant == result.pushed() ? (result.sdkSameIds() ? "yes" : "no") : ""));
            }
        }
        out.append("| `SELECT 1` | | %.4f | %.4f | | |%n".formatted(search.selectOne().medianSeconds(), search.selectOne().p90Seconds()));
        out.append("\n| search | no pushdown / pushdown (goal ≥ %.0f) | |%n|---|---:|---|%n".formatted(VectorSearchTimings.PUSHDOWN_GOAL));
        for (VectorSearchTimings.SearchResult result : search.searches()) {
            out.append("| %s | %.2f | %s |%n".formatted(result.name(), result.speedup(), result.goalMet() ? "PASS" : "MISS"));
        }
        if (search.generationSeconds() > 0) {
            out.append("\nThe table was written in %.1f s (CREATE TABLE with `dimension`, then INSERT ... SELECT).%n".formatted(search.generationSeconds()));
        }
    }

    private static void indexesMarkdown(StringBuilder out, IndexTimings.Result indexes)
    {
        out.append("\n| index (built on a CTAS copy of its table) | type | rows | CTAS copy s | index build s | build / CTAS | index bytes | table data bytes | rows indexed | fragments covered |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (IndexTimings.IndexBuild build : indexes.builds()) {
            out.append("| %s.%s (`%s`) | %s | %,d | %.3f | %.3f | %.2f | %,d | %,d | %,d | %,d |%n".formatted(build.table(), build.column(), build.name(), build.indexType(), build.tableRows(),
                    build.ctasSeconds(), build.buildSeconds(), build.buildSeconds() / build.ctasSeconds(), build.indexSizeBytes(), build.tableDataBytes(), build.rowsIndexed(), build.fragmentsCovered()));
        }
        out.append("\n| indexed query (keys drawn with seed %s, new ones every run) | variant | median s | p90 s | CPU s | bytes read | rows read | Lance file reads | Lance file bytes read | index bytes read | rows skipped by index | rows returned | same rows |%n".formatted(indexes.seed()));
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (IndexTimings.LookupResult lookup : indexes.lookups()) {
            for (IndexTimings.VariantStats variant : lookup.variants()) {
                out.append("| %s | %s | %.4f | %.4f | %.3f | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %s |%n".formatted(lookup.description(), variant.variant(), variant.medianSeconds(), variant.p90Seconds(),
                        variant.medianCpuSeconds(), variant.medianInputBytes(), variant.medianInputRows(), variant.medianLanceFileReads(), variant.medianLanceFileBytes(), variant.medianIndexBytes(), variant.medianIndexRowsSkipped(), variant.medianOutputRows(),
                        lookup.sameRows() ? "yes" : "**NO**"));
            }
        }
        List<IndexTimings.VariantStats> references = ImmutableList.<IndexTimings.VariantStats>builder().add(indexes.selectOne()).addAll(indexes.floors()).build();
        for (IndexTimings.VariantStats reference : references) {
            out.append("| %s | | %.4f | %.4f | %.3f | %,d | %,d | %,d | %,d | %,d | %,d | %,d | |%n".formatted(reference.variant(), reference.medianSeconds(), reference.p90Seconds(),
                    reference.medianCpuSeconds(), reference.medianInputBytes(), reference.medianInputRows(), reference.medianLanceFileReads(), reference.medianLanceFileBytes(), reference.medianIndexBytes(), reference.medianIndexRowsSkipped(), reference.medianOutputRows()));
        }
        out.append("\n| indexed query | index / SELECT 1 (goal ≤ %.1f) | | index / iceberg (goal ≤ %.1f) | | no index / index |%n".formatted(IndexTimings.SELECT_ONE_GOAL, IndexTimings.ICEBERG_GOAL));
        out.append("|---|---:|---|---:|---|---:|\n");
        for (IndexTimings.LookupResult lookup : indexes.lookups()) {
            out.append("| %s | %.2f | %s | %.2f | %s | %.2f |%n".formatted(lookup.description(), lookup.indexToSelectOne(), goal(lookup.goals(), lookup.selectOneGoalMet()),
                    lookup.indexToIceberg(), goal(lookup.goals(), lookup.icebergGoalMet()), lookup.unindexedToIndexed()));
        }
        IndexTimings.VariantStats lanceAnswer = indexes.floors().stream().filter(floor -> floor.variant().equals(IndexTimings.LANCE_ANSWER_SCAN)).findFirst().orElseThrow();
        IndexTimings.VariantStats icebergAnswer = indexes.floors().stream().filter(floor -> floor.variant().equals(IndexTimings.ICEBERG_ANSWER_SCAN)).findFirst().orElseThrow();
        out.append("\nThe answer of one `l_partkey = k` lookup alone (%,d rows, one fragment or file per fragment of `lineitem`), with no index work: Lance %.4f s (%.2fx `SELECT 1`), Iceberg %.4f s (%.2fx).%n"
                .formatted(lanceAnswer.medianOutputRows(), lanceAnswer.medianSeconds(), lanceAnswer.medianSeconds() / indexes.selectOne().medianSeconds(),
                        icebergAnswer.medianSeconds(), icebergAnswer.medianSeconds() / indexes.selectOne().medianSeconds()));
    }

    private static String goal(boolean applies, boolean met)
    {
        if (!applies) {
            return "(no goal)";
        }
        return met ? "PASS" : "MISS";
    }

    private static void clusterMarkdown(StringBuilder out, ClusterTimings.Result result)
    {
        out.append("\n| query on real servers (`bin/serve`), median s (CPU s) | one node: lance | one node: iceberg | %d workers: lance | %d workers: iceberg | lance: cluster / one node | iceberg: cluster / one node |%n".formatted(result.workers(), result.workers()));
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (ClusterTimings.QueryTime query : result.queries()) {
            out.append("| %s | %.3f (%.2f) | %.3f (%.2f) | %.3f (%.2f) | %.3f (%.2f) | %.2f | %.2f |%n".formatted(query.name(),
                    query.singleLance().medianSeconds(), query.singleLance().medianCpuSeconds(),
                    query.singleIceberg().medianSeconds(), query.singleIceberg().medianCpuSeconds(),
                    query.clusterLance().medianSeconds(), query.clusterLance().medianCpuSeconds(),
                    query.clusterIceberg().medianSeconds(), query.clusterIceberg().medianCpuSeconds(),
                    query.clusterLance().medianSeconds() / query.singleLance().medianSeconds(),
                    query.clusterIceberg().medianSeconds() / query.singleIceberg().medianSeconds()));
        }
        out.append("\n| CTAS of lineitem (%,d rows) on %d workers, median s (CPU s) | lance | iceberg |%n|---|---:|---:|%n".formatted(result.lineitemRows(), result.workers()));
        for (ClusterTimings.CtasTime ctas : result.ctas()) {
            out.append("| retry_policy %s | %.3f (%.2f) | %.3f (%.2f) |%n".formatted(ctas.retryPolicy(),
                    ctas.lance().medianSeconds(), ctas.lance().medianCpuSeconds(), ctas.iceberg().medianSeconds(), ctas.iceberg().medianCpuSeconds()));
        }
        out.append("\nCost of fault tolerance, (lance TASK / lance NONE) / (iceberg TASK / iceberg NONE): %.2f from the medians, %.2f as the median of %d rounds' own ratios %s (goal <= 1.1)%n".formatted(
                result.faultToleranceRatioOfRatios(), result.medianRoundRatioOfRatios(), result.roundRatiosOfRatios().size(),
                result.roundRatiosOfRatios().stream().map("%.2f"::formatted).toList()));
    }
}
