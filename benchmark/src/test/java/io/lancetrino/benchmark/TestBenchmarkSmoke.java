package io.lancetrino.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole benchmark at TPC-H tiny scale with one run per query, so it keeps working; its figures mean nothing.
 */
class TestBenchmarkSmoke
{
    private static final long TINY_LINEITEM_ROWS = 60_175;

    @Test
    void runsEveryPartAndWritesTheReport(@TempDir Path output)
            throws Exception
    {
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] {"--scale", "0.01", "--runs", "1", "--fragments", "50,200", "--versions", "30", "--compaction-inserts", "12", "--sharing-seconds", "3", "--ann-queries", "3", "--output", output.toString()}, output);
        BenchmarkReport report = Benchmark.run(options);
        assertThat(report.generationSeconds()).isPositive();

        assertThat(report.queries()).extracting(QueryTimings.QueryResult::name)
                .containsExactlyElementsOf(BenchmarkQuery.ALL.stream().map(BenchmarkQuery::name).toList());
        assertThat(report.queries()).allSatisfy(query -> {
            assertThat(query.sameResult()).as("%s returns the same rows on both connectors", query.name()).isTrue();
            assertThat(query.lance().medianSeconds()).isPositive();
            assertThat(query.iceberg().medianSeconds()).isPositive();
        });
        // every query and column count has its scan, with CPU on both sides, and the aggregations above it
        assertThat(report.operators()).extracting(OperatorTimings.QueryNodes::query).hasSize(OperatorTimings.QUERIES.size() + OperatorTimings.LINEITEM_COLUMNS.size())
                .contains("q1", "q12", "count(l_comment)");
        assertThat(report.operators()).allSatisfy(query -> {
            assertThat(query.nodes()).extracting(OperatorTimings.NodeCpu::node).contains("scan lineitem");
            assertThat(query.nodes()).extracting(OperatorTimings.NodeCpu::node).anyMatch(node -> node.startsWith("Aggregate "));
            assertThat(query.nodes()).allSatisfy(node -> {
                assertThat(node.lanceMillis()).isNotNegative();
                assertThat(node.icebergMillis()).isNotNegative();
            });
        });
        assertThat(report.operators().stream().filter(query -> query.query().equals("q12")).findFirst().orElseThrow().nodes())
                .extracting(OperatorTimings.NodeCpu::node).contains("scan orders");
        assertThat(report.storage()).allSatisfy(table -> {
            assertThat(table.lanceDataBytes()).isPositive();
            assertThat(table.icebergDataBytes()).isPositive();
        });
        assertThat(report.writes()).extracting(WriteTimings.WriteResult::name).containsExactly("ctas_lineitem", "insert_1m");
        assertThat(report.writes().getFirst().rows()).isEqualTo(TINY_LINEITEM_ROWS);
        assertThat(report.writes()).allSatisfy(write -> {
            assertThat(write.lance().medianSeconds()).isPositive();
            assertThat(write.lanceSdk().medianSeconds()).isPositive();
            assertThat(write.iceberg().medianSeconds()).isPositive();
        });
        // every column of both Lance copies was found, measured and described
        assertThat(report.columnEncodings()).hasSize(16).allSatisfy(column -> {
            assertThat(column.javaBytes()).isPositive();
            assertThat(column.sdkBytes()).isPositive();
            assertThat(column.parquetBytes()).isPositive();
            assertThat(column.javaEncodings()).isNotEmpty();
        });
        assertThat(report.reader().orElseThrow().rows()).isEqualTo(TINY_LINEITEM_ROWS);
        // every writer's files by every reader, each lookup one row (the timing throws otherwise)
        assertThat(report.randomAccess()).extracting(lookups -> lookups.files() + " " + lookups.reader())
                .containsExactly("java java", "java sdk", "sdk java", "sdk sdk");
        assertThat(report.randomAccess()).allSatisfy(lookups -> {
            assertThat(lookups.lookups()).isEqualTo(Benchmark.RANDOM_LOOKUPS);
            assertThat(lookups.medianMicros()).isPositive().isLessThanOrEqualTo(lookups.p90Micros());
        });
        assertThat(report.splitPlanning()).extracting(MetadataTimings.SplitPlanning::splits).containsExactly(50, 200);
        assertThat(report.versionResolution()).extracting(MetadataTimings.VersionResolution::versions).containsExactly(10, 30);
        assertThat(report.clones()).extracting(CloneTimings.CloneTime::table).containsExactly("lineitem", "lineitem_1pct");
        assertThat(report.clones()).allSatisfy(clone -> {
            assertThat(clone.shallowSeconds()).isPositive();
            assertThat(clone.deepSeconds()).isPositive();
        });
        // versions 2 to 30 append 10 fragments each (no compaction before version 100): cleanup keeps only the latest,
        // which still names every data file
        assertThat(report.cleanups()).extracting(CleanupTimings.CleanupTime::versions).containsExactly(30, 30);
        assertThat(report.cleanups()).allSatisfy(cleanup -> {
            assertThat(cleanup.fragments()).isEqualTo(290);
            assertThat(cleanup.versionsRemoved()).isEqualTo(29);
            assertThat(cleanup.filesRemoved()).isBetween(29L, 29L + 29);
        });
        // about a hundredth of the rows
        assertThat(report.clones().get(1).rows() * 100).isBetween(report.clones().get(0).rows() / 2, report.clones().get(0).rows() * 2);

        CompactionTimings.Compaction compaction = report.compaction().orElseThrow();
        assertThat(compaction.fragmentsBefore()).isEqualTo(12);
        assertThat(compaction.fragmentsAfter()).isEqualTo(1);
        assertThat(compaction.sameResult()).isTrue();
        assertThat(compaction.optimizeSeconds()).isPositive();
        // optimize after appends to an indexed table compacts the appends and keeps every index answering
        assertThat(report.indexedCompactions()).extracting(IndexedCompactionTimings.IndexedCompaction::indexes).containsExactly(0, IndexedCompactionTimings.INDEXES.size());
        assertThat(report.indexedCompactions()).allSatisfy(run -> {
            assertThat(run.sameAnswers()).isTrue();
            assertThat(run.fragmentsAfter()).isLessThan(run.fragmentsBefore());
            assertThat(run.indexesAfter()).isEqualTo(run.indexes());
        });

        // a merge after optimize rewrote both sides gives the same rows as one without, and the report shows both
        assertThat(report.merges()).extracting(MergeTimings.MergeTime::compacted).containsExactly(false, true);
        assertThat(report.merges()).allSatisfy(merge -> {
            assertThat(merge.rightResult()).isTrue();
            assertThat(merge.rowsChangedOnBranch() * 100).isBetween(merge.rows() / 2, merge.rows() * 2);
        });
        assertThat(report.merges().get(0).rows()).isEqualTo(report.merges().get(1).rows());
        assertThat(report.merges().get(1).rewrittenByOptimize()).isPositive();
        assertThat(report.markdown()).contains("| after optimize on both sides |");

        // the vectors table at the smallest size: 100 rows would do, scale 0.01 gives 500
        VectorTextTimings.Result vectors = report.vectors().orElseThrow();
        assertThat(vectors.rows()).isEqualTo(VectorTextData.rows(0.01)).isEqualTo(500);
        assertThat(vectors.sameResults()).isTrue();
        assertThat(vectors.readers()).extracting(VectorTextTimings.ReaderResult::reader).contains("sdk");
        assertThat(vectors.readers()).allSatisfy(reader -> {
            assertThat(reader.columns()).extracting(VectorTextTimings.ColumnScan::column).containsExactly("v", "text");
            assertThat(reader.columns().getFirst().result()).isEqualTo(500L * VectorTextData.DIMENSION);
            assertThat(reader.columns().get(1).result()).isBetween(500L * VectorTextData.MIN_TEXT_BYTES, 500L * VectorTextData.MAX_TEXT_BYTES);
            assertThat(reader.columns()).allSatisfy(column -> assertThat(column.pageSource().rows()).isEqualTo(500));
        });
        // once the connector has lance.file-reader, the Java reader belongs in VectorTextTimings.READERS
        assertThat(VectorTextTimings.READERS.stream().anyMatch(reader -> reader.name().equals("java")))
                .as("VectorTextTimings.READERS has a java row exactly when LanceConfig has lance.file-reader")
                .isEqualTo(VectorTextTimings.fileReaderPropertyExists());

        // indexes on the CTAS copies: every build covers its table, and the indexed and unindexed Lance reads and
        // Iceberg return the same rows for every key
        IndexTimings.Result indexes = report.indexes().orElseThrow();
        assertThat(indexes.builds()).extracting(IndexTimings.IndexBuild::name).containsExactly("l_partkey_btree", "l_shipmode_bitmap", "o_custkey_btree");
        assertThat(indexes.builds()).allSatisfy(build -> {
            assertThat(build.rowsIndexed()).isEqualTo(build.tableRows());
            assertThat(build.rowsNotIndexed()).isZero();
            assertThat(build.indexSizeBytes()).isPositive();
            assertThat(build.ctasSeconds()).isPositive();
            assertThat(build.buildSeconds()).isPositive();
        });
        assertThat(indexes.builds().getFirst().tableRows()).isEqualTo(TINY_LINEITEM_ROWS);
        assertThat(indexes.lookups()).extracting(IndexTimings.LookupResult::name)
                .containsExactlyElementsOf(IndexTimings.LOOKUPS.stream().map(IndexTimings.Lookup::name).toList());
        assertThat(indexes.lookups()).allSatisfy(lookup -> {
            assertThat(lookup.sameRows()).as("%s returns the same rows with the index, without it and on Iceberg", lookup.name()).isTrue();
            assertThat(lookup.variants()).extracting(IndexTimings.VariantStats::variant).containsExactly(IndexTimings.INDEXED, IndexTimings.UNINDEXED, IndexTimings.ICEBERG);
            assertThat(lookup.variants()).allSatisfy(variant -> {
                assertThat(variant.medianSeconds()).isPositive();
                // keys are drawn from the values that exist
                assertThat(variant.medianOutputRows()).isPositive();
            });
            assertThat(lookup.indexToSelectOne()).isPositive();
        });
        assertThat(indexes.selectOne().medianSeconds()).isPositive();
        assertThat(indexes.floors()).extracting(IndexTimings.VariantStats::variant).containsExactly(IndexTimings.LANCE_TINY_SCAN, IndexTimings.ICEBERG_TINY_SCAN, IndexTimings.LANCE_ANSWER_SCAN, IndexTimings.ICEBERG_ANSWER_SCAN);
        assertThat(indexes.floors().subList(0, 2)).allSatisfy(scan -> assertThat(scan.medianOutputRows()).isEqualTo(5));
        // the answer of one lookup alone has rows of that key only
        assertThat(indexes.floors().get(2).medianOutputRows()).isPositive().isEqualTo(indexes.floors().get(3).medianOutputRows());
        // the copies and their schema are gone, so no other part or run sees them
        assertThat(options.dataDirectory().resolve("lance").resolve(IndexTimings.SCHEMA)).doesNotExist();
        assertThat(report.markdown()).contains("| lineitem.l_partkey (`l_partkey_btree`) | btree |", "| l_partkey = k | lance, no index |", "| SELECT 1 | |", "| lance, SELECT * FROM region | |", "index / SELECT 1 (goal ≤ 1.5)");

        // exact nearest neighbours: the pushdown returns the engine's own rows and distances for every function
        VectorSearchTimings.Result search = report.search().orElseThrow();
        assertThat(search.rows()).isEqualTo(VectorSearchTimings.rows(0.01)).isEqualTo(10_000);
        assertThat(search.searches()).extracting(VectorSearchTimings.SearchResult::name).containsExactly("euclidean", "cosine", "dot");
        assertThat(search.searches()).allSatisfy(result -> {
            assertThat(result.sameRows()).as(result.name()).isTrue();
            assertThat(result.pushed().medianSeconds()).isPositive();
            assertThat(result.sdk().medianSeconds()).isPositive();
        });
        assertThat(report.markdown()).contains("exact top-10, 10,000 x 128-dim", "no pushdown / pushdown (goal ≥ 5)");

        // approximate search through indexes built by Trino: the SDK's own rows, recall measured, an SVG of the curves
        AnnSearchTimings.Result ann = report.ann().orElseThrow();
        assertThat(ann.vectors()).extracting(AnnSearchTimings.WorkloadResult::table).containsExactly("ann128", "ann768");
        assertThat(ann.vectors()).allSatisfy(workload -> {
            assertThat(workload.build().trinoSeconds()).isPositive();
            assertThat(workload.build().sdkSeconds()).isPositive();
            assertThat(workload.sweep()).isNotEmpty().allSatisfy(point -> {
                assertThat(point.sameRows()).as("%s %s", workload.table(), point.setting()).isTrue();
                assertThat(point.trinoRecall()).isBetween(0.0, 1.0).isEqualTo(point.sdkRecall());
                assertThat(point.trino().p50Seconds()).isPositive();
            });
            assertThat(workload.defaults().setting()).isEqualTo(AnnSearchTimings.DEFAULTS);
        });
        assertThat(ann.text().sameRows()).isTrue();
        assertThat(ann.text().build().trinoSeconds()).isPositive();
        assertThat(Files.readString(output.resolve(BenchmarkReport.RECALL_CHART))).startsWith("<svg").contains("<polyline", "ann128", "ann768", "Lance SDK");
        assertThat(report.markdown()).contains("approximate top-10, ann128", "nprobes 20 (default)", "BM25 top-10, docs_text", "| ann128.v ivf_pq |");

        // 32 recipients at once, each through its own catalog and token: every answer right
        SharingLoad.Result sharing = report.sharing().orElseThrow();
        // on the object store the server sends no table byte: recipients read the store's pre-signed URLs
        assertThat(sharing.objectStoreServer().fileBytesServed()).isZero();
        assertThat(sharing.sharedServer().fileBytesServed()).isPositive();
        for (SharingLoad.Run run : List.of(sharing.shared(), sharing.objectStoreShared(), sharing.local())) {
            assertThat(run.threads()).isEqualTo(32);
            assertThat(run.errors()).as("errors: %s", run.firstErrors()).isZero();
            assertThat(run.wrongResults()).isZero();
            assertThat(run.queries()).isGreaterThanOrEqualTo(32);
            assertThat(run.p99Seconds()).isPositive();
        }

        // real servers take minutes to start: the cluster part runs only when asked for (bin/bench --parts cluster)
        assertThat(report.cluster()).isEmpty();
        assertThat(report.footprint()).isEmpty();

        JsonNode json = new ObjectMapper().readTree(output.resolve("benchmark.json").toFile());
        assertThat(json.get("queries")).hasSize(BenchmarkQuery.ALL.size());
        assertThat(json.get("reader").get("sdkRowsPerSecond").asDouble()).isPositive();
        assertThat(json.get("indexes").get("lookups")).hasSize(IndexTimings.LOOKUPS.size());
        String markdown = Files.readString(output.resolve("benchmark.md"));
        for (String name : List.of("q1", "q6_old_version", "| table |", "lineitem", "Lance SDK dataset scan", "page source / SDK", "| fragments |", "| versions |", "| cloned table |", "cleanup dry run s", "| before optimize |", "| vectors table (500 rows", "| v | sdk |", "| text | sdk |", "sharing load (32 recipients")) {
            assertThat(markdown).contains(name);
        }

        // a second run reuses the generated data; chosen queries are all it measures
        BenchmarkOptions again = BenchmarkOptions.parse(new String[] {"--scale", "0.01", "--runs", "1", "--queries", "q6,point_lookup", "--output", output.toString()}, output);
        BenchmarkReport second = Benchmark.run(again);
        assertThat(second.generationSeconds()).isZero();
        assertThat(second.queries()).extracting(QueryTimings.QueryResult::name).containsExactly("q6", "point_lookup");
        assertThat(second.reader()).isEmpty();
        assertThat(second.compaction()).isEmpty();
        assertThat(second.vectors()).isEmpty();
        assertThat(second.sharing()).isEmpty();
        assertThat(second.cluster()).isEmpty();
        assertThat(second.indexes()).isEmpty();
        assertThat(second.search()).isEmpty();
        assertThat(second.ann()).isEmpty();
        // no empty tables for what was not measured
        assertThat(second.markdown()).contains("| q6 |").doesNotContain("| table |", "| fragments |", "| versions |", "| cloned table |", "cleanup dry run s", "| before optimize |", "vectors table", "sharing load", "indexed query", "exact top-", "approximate top-", "BM25");
    }
}
