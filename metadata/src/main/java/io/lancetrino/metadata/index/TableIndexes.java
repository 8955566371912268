package io.lancetrino.metadata.index;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The indexes a version lists, as users see them: one entry per name, system indexes left out.
 */
public final class TableIndexes
{
    // lance.index.pb.VectorIndexDetails: metric_type = 1, hnsw_index_config = 3, then the compression oneof
    private static final int METRIC_TYPE = 1;
    // the VectorMetricType enum, by number
    private static final List<String> METRICS = List.of("l2", "cosine", "dot", "hamming");
    private static final int HNSW = 3;
    // lance.table.InvertedIndexDetails: with_position = 3
    private static final int WITH_POSITION = 3;
    private static final int PQ = 4;
    private static final int SQ = 5;
    private static final int RQ = 6;

    private TableIndexes() {}

    public static List<IndexSegments> describe(String table, TableSnapshot snapshot)
    {
        return describe(table, snapshot, fragmentReuse(table, snapshot));
    }

    /**
     * @param reuse the version's {@link #fragmentReuse}, for a caller that follows rows through it too
     */
    public static List<IndexSegments> describe(String table, TableSnapshot snapshot, FragmentReuse reuse)
    {
        Map<String, List<IndexMetadata>> byName = new LinkedHashMap<>();
        for (IndexMetadata index : snapshot.manifestFile().indexSection().map(IndexSection::getIndicesList).orElse(List.of())) {
            if (IndexKind.of(index).map(IndexKind::isSystem).orElse(false)) {
                continue;
            }
            byName.computeIfAbsent(index.getName(), _ -> new ArrayList<>()).add(index);
        }
        List<IndexSegments> result = new ArrayList<>();
        for (Map.Entry<String, List<IndexMetadata>> entry : byName.entrySet()) {
            result.add(describe(table, snapshot, entry.getValue(), reuse));
        }
        return result;
    }

    public static Optional<IndexSegments> find(String table, TableSnapshot snapshot, String name)
    {
        return describe(table, snapshot).stream().filter(index -> index.name().equals(name)).findFirst();
    }

    /** The fragment reuse index of the version: how its compactions moved rows the indexes were built over. */
    public static FragmentReuse fragmentReuse(String table, TableSnapshot snapshot)
    {
        return FragmentReuse.of(table, snapshot.manifestFile().indexSection());
    }

    private static IndexSegments describe(String table, TableSnapshot snapshot, List<IndexMetadata> segments, FragmentReuse reuse)
    {
        IndexMetadata first = segments.getFirst();
        RoaringBitmap covered = new RoaringBitmap();
        boolean coversAll = false;
        for (IndexMetadata segment : segments) {
            Optional<RoaringBitmap> fragments = FragmentBitmaps.covered(table, segment);
            if (fragments.isPresent()) {
                covered.or(reuse.remapFragments(fragments.get()));
            }
            else {
                coversAll = true;
            }
        }
        RoaringBitmap coveredNow = new RoaringBitmap();
        long rowsCovered = 0;
        long rowsNotCovered = 0;
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            long live = fragment.getPhysicalRows() - VersionSummary.deletedRows(fragment);
            if (coversAll || covered.contains((int) fragment.getId())) {
                coveredNow.add((int) fragment.getId());
                rowsCovered += live;
            }
            else {
                rowsNotCovered += live;
            }
        }
        // an index without details is from before details existed: only vector indexes were written then
        IndexKind kind = first.hasIndexDetails() ? IndexKind.of(first).orElse(IndexKind.OTHER) : IndexKind.VECTOR_LEGACY;
        return new IndexSegments(first.getName(), kind, typeName(first),
                first.getFieldsList(), segments, coveredNow, rowsCovered, rowsNotCovered);
    }

    /**
     * The kind as SQL names it; for vector indexes the IVF sub-kind from the details ({@code ivf_pq}, {@code ivf_hnsw_sq}).
     */
    public static String typeName(IndexMetadata index)
    {
        Optional<IndexKind> kind = IndexKind.of(index);
        if (kind.isEmpty()) {
            return index.hasIndexDetails() ? index.getIndexDetails().getTypeUrl() : "vector";
        }
        if (kind.get() != IndexKind.VECTOR) {
            return kind.get().sqlName();
        }
        try {
            UnknownFieldSet details = UnknownFieldSet.parseFrom(index.getIndexDetails().getValue());
            String prefix = details.hasField(HNSW) ? "ivf_hnsw_" : "ivf_";
            if (details.hasField(PQ)) {
                return prefix + "pq";
            }
            if (details.hasField(SQ)) {
                return prefix + "sq";
            }
            if (details.hasField(RQ)) {
                return prefix + "rq";
            }
            return prefix + "flat";
        }
        catch (InvalidProtocolBufferException e) {
            return "vector";
        }
    }

    /**
     * The distance a vector index was trained for ({@code l2}, {@code cosine}, {@code dot}, {@code hamming}), or
     * empty for an index that does not record one (the older, empty details message) or is not a vector index.
     */
    public static Optional<String> vectorMetric(IndexMetadata index)
    {
        if (IndexKind.of(index).orElse(IndexKind.OTHER) != IndexKind.VECTOR) {
            return Optional.empty();
        }
        try {
            UnknownFieldSet details = UnknownFieldSet.parseFrom(index.getIndexDetails().getValue());
            if (!details.hasField(METRIC_TYPE)) {
                // proto3 leaves the first enum value, L2, unwritten
                return Optional.of(METRICS.getFirst());
            }
            List<Long> values = details.getField(METRIC_TYPE).getVarintList();
            long metric = values.isEmpty() ? -1 : values.getLast();
            return metric >= 0 && metric < METRICS.size() ? Optional.of(METRICS.get((int) metric)) : Optional.empty();
        }
        catch (InvalidProtocolBufferException e) {
            return Optional.empty();
        }
    }

    /** Whether an inverted index stores token positions ({@code with_position}), which phrase queries need. */
    public static boolean textIndexHasPositions(IndexMetadata index)
    {
        if (IndexKind.of(index).orElse(IndexKind.OTHER) != IndexKind.INVERTED) {
            return false;
        }
        try {
            UnknownFieldSet details = UnknownFieldSet.parseFrom(index.getIndexDetails().getValue());
            return details.hasField(WITH_POSITION) && !details.getField(WITH_POSITION).getVarintList().isEmpty()
                    && details.getField(WITH_POSITION).getVarintList().getLast() != 0;
        }
        catch (InvalidProtocolBufferException e) {
            return false;
        }
    }

    /** Bytes of every file of every segment's directory. */
    public static long sizeBytes(TableFileSystem fileSystem, TableSnapshot snapshot, IndexSegments index)
    {
        long bytes = 0;
        for (IndexMetadata segment : index.segments()) {
            String directory = FilePaths.indexDirectory(snapshot, segment);
            try {
                for (FileEntry file : fileSystem.listFiles(directory)) {
                    bytes += file.length();
                }
            }
            catch (IOException e) {
                throw new LanceTableException(LanceErrorKind.FILESYSTEM_ERROR, "Cannot list the files of index %s in %s: %s".formatted(index.name(), directory, e.getMessage()), e);
            }
        }
        return bytes;
    }
}
