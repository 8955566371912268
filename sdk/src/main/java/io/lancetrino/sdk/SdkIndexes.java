package io.lancetrino.sdk;

import io.lancetrino.plugin.index.IndexSpec;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.split.fs.LanceFileSystems;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.OptimizeOptions;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.scalar.BitmapIndexParams;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.index.scalar.LabelListIndexParams;
import org.lance.index.scalar.NGramIndexParams;
import org.lance.index.scalar.ZoneMapIndexParams;
import org.lance.index.vector.HnswBuildParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.PQBuildParams;
import org.lance.index.vector.SQBuildParams;
import org.lance.index.vector.VectorIndexParams;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one place index files are built: through the Lance SDK, which trains, writes and commits the index (a Lance
 * {@code CreateIndex} version) on the dataset of one branch. Nothing on the read path loads this class.
 */
final class SdkIndexes
{
    private SdkIndexes() {}

    /**
     * @param dimension the vector column's dimension, for vector kinds
     * @param liveRows rows of the branch, for the default number of IVF partitions
     */
    public static void create(String datasetLocation, Map<String, String> storageOptions, IndexSpec spec, boolean replace, int dimension, long liveRows)
    {
        IndexParams params = params(spec, dimension, liveRows);
        withDataset(datasetLocation, storageOptions, dataset ->
                dataset.createIndex(List.of(spec.column()), sdkType(spec.type()), Optional.of(spec.name()), params, replace));
    }

    /** Brings the rows written since the index was built into it: Lance's optimize, a new delta segment merged in. */
    public static void optimize(String datasetLocation, Map<String, String> storageOptions, String name)
    {
        withDataset(datasetLocation, storageOptions, dataset ->
                dataset.optimizeIndices(OptimizeOptions.builder().indexNames(List.of(name)).build()));
    }

    private static void withDataset(String datasetLocation, Map<String, String> storageOptions, Consumer<Dataset> action)
    {
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open()
                        .allocator(allocator)
                        .uri(LanceFileSystems.nativeLocation(datasetLocation))
                        .readOptions(new ReadOptions.Builder().setStorageOptions(storageOptions).build())
                        .build()) {
            action.accept(dataset);
        }
    }

    private static IndexType sdkType(IndexSpec.IndexType type)
    {
        return IndexType.valueOf(type.name());
    }

    private static IndexParams params(IndexSpec spec, int dimension, long liveRows)
    {
        IndexParams.Builder params = IndexParams.builder();
        switch (spec.type()) {
            case BTREE -> {
                BTreeIndexParams.Builder btree = new BTreeIndexParams.Builder();
                spec.option("zone_size").ifPresent(value -> btree.zoneSize(Long.parseLong(value)));
                params.setScalarIndexParams(btree.build());
            }
            case BITMAP -> params.setScalarIndexParams(new BitmapIndexParams.Builder().build());
            case LABEL_LIST -> params.setScalarIndexParams(new LabelListIndexParams.Builder().build());
            case NGRAM -> params.setScalarIndexParams(new NGramIndexParams.Builder().build());
            case ZONEMAP -> {
                ZoneMapIndexParams.Builder zonemap = new ZoneMapIndexParams.Builder();
                spec.option("rows_per_zone").ifPresent(value -> zonemap.rowsPerZone(Long.parseLong(value)));
                params.setScalarIndexParams(zonemap.build());
            }
            case INVERTED -> params.setScalarIndexParams(inverted(spec));
            case IVF_FLAT, IVF_PQ, IVF_SQ, IVF_HNSW_SQ -> params.setVectorIndexParams(vector(spec, dimension, liveRows));
        }
        return params.build();
    }

    private static org.lance.index.scalar.ScalarIndexParams inverted(IndexSpec spec)
    {
        // the SDK needs a tokenizer named even when the defaults are wanted
        InvertedIndexParams.Builder text = new InvertedIndexParams.Builder()
                .baseTokenizer(spec.option("base_tokenizer").orElse("simple"))
                .language(spec.option("language").orElse("English"));
        spec.option("with_position").ifPresent(value -> text.withPosition(Boolean.parseBoolean(value)));
        spec.option("lower_case").ifPresent(value -> text.lowerCase(Boolean.parseBoolean(value)));
        spec.option("stem").ifPresent(value -> text.stem(Boolean.parseBoolean(value)));
        spec.option("remove_stop_words").ifPresent(value -> text.removeStopWords(Boolean.parseBoolean(value)));
        spec.option("ascii_folding").ifPresent(value -> text.asciiFolding(Boolean.parseBoolean(value)));
        spec.option("max_token_length").ifPresent(value -> text.maxTokenLength(Integer.parseInt(value)));
        return text.build();
    }

    private static VectorIndexParams vector(IndexSpec spec, int dimension, long liveRows)
    {
        DistanceType distance = switch (spec.option("distance_type").orElse("l2").toLowerCase(Locale.ROOT)) {
            case "cosine" -> DistanceType.Cosine;
            case "dot" -> DistanceType.Dot;
            default -> DistanceType.L2;
        };
        IvfBuildParams.Builder ivf = new IvfBuildParams.Builder()
                .setNumPartitions(spec.option("num_partitions").map(Integer::parseInt).orElse(defaultPartitions(liveRows)));
        spec.option("max_iters").ifPresent(value -> ivf.setMaxIters(Integer.parseInt(value)));
        spec.option("sample_rate").ifPresent(value -> ivf.setSampleRate(Integer.parseInt(value)));
        SQBuildParams.Builder sq = new SQBuildParams.Builder();
        spec.option("num_bits").ifPresent(value -> sq.setNumBits(Short.parseShort(value)));
        return switch (spec.type()) {
            case IVF_PQ -> {
                PQBuildParams.Builder pq = new PQBuildParams.Builder()
                        .setNumSubVectors(spec.option("num_sub_vectors").map(Integer::parseInt).orElse(defaultSubVectors(dimension)));
                spec.option("num_bits").ifPresent(value -> pq.setNumBits(Integer.parseInt(value)));
                spec.option("max_iters").ifPresent(value -> pq.setMaxIters(Integer.parseInt(value)));
                yield VectorIndexParams.withIvfPqParams(distance, ivf.build(), pq.build());
            }
            case IVF_SQ -> new VectorIndexParams.Builder(ivf.build()).setDistanceType(distance).setSqParams(sq.build()).build();
            case IVF_HNSW_SQ -> {
                HnswBuildParams.Builder hnsw = new HnswBuildParams.Builder();
                spec.option("m").ifPresent(value -> hnsw.setM(Integer.parseInt(value)));
                spec.option("ef_construction").ifPresent(value -> hnsw.setEfConstruction(Integer.parseInt(value)));
                yield VectorIndexParams.withIvfHnswSqParams(distance, ivf.build(), hnsw.build(), sq.build());
            }
            default -> new VectorIndexParams.Builder(ivf.build()).setDistanceType(distance).build();
        };
    }

    /** Lance's rule of thumb: about the square root of the rows. */
    static int defaultPartitions(long liveRows)
    {
        return (int) Math.max(1, Math.min(Math.round(Math.sqrt(liveRows)), 4096));
    }

    /** A sixteenth of the dimension, as lance-spark defaults, lowered until it divides the dimension. */
    static int defaultSubVectors(int dimension)
    {
        int subVectors = Math.max(1, dimension / 16);
        while (dimension % subVectors != 0) {
            subVectors--;
        }
        return subVectors;
    }
}
