package io.lancetrino.metadata.maintenance;

import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.index.IndexedFragments;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Plans a compaction as Lance's {@code plan_compaction} does, from the manifest alone: a fragment is a candidate when
 * it has fewer live rows than the target or more than 10% of its rows deleted (Lance's
 * {@code materialize_deletions_threshold}); contiguous runs of candidates are cut into groups; a group of one fragment
 * is rewritten only for its deleted rows, since it gains nothing in size. Unlike Lance, which fills a group up to at
 * least the target and splits its output into files of the target, a group here holds at most the target's live rows,
 * so it becomes one fragment (a single fragment with more rows than the target stays a group of its own).
 *
 * <p>Fragments an index covers stay as they are, so every index keeps answering for every row it covers, in every
 * Lance engine: rewritten rows get new fragment ids and offsets, which no index file names. Lance can follow them
 * through its fragment reuse index, but the SDK 7.0 does not in vector and full-text searches, and loses index answers
 * when it later compacts such fragments itself; rewriting the index files for the new addresses is what would let
 * them be compacted. Only an index that records no bitmap (older Lance) may cover any fragment, so its table is left
 * as it is. Tables with stable row ids are refused: their rewritten rows would need row-id sequences this connector
 * does not write.
 */
public final class CompactionPlanner
{
    /** Lance's default {@code materialize_deletions_threshold} */
    public static final double MATERIALIZE_DELETIONS_THRESHOLD = 0.1;

    private CompactionPlanner() {}

    public static CompactionPlan plan(String table, TableSnapshot snapshot, long targetRowsPerFragment)
    {
        return plan(table + " " + snapshot.describe(), snapshot.manifest(), snapshot.manifestFile().indexSection(), targetRowsPerFragment);
    }

    /**
     * @param table how errors name the table and version
     */
    public static CompactionPlan plan(String table, Manifest manifest, Optional<IndexSection> indices, long targetRowsPerFragment)
    {
        checkArgument(targetRowsPerFragment > 0, "targetRowsPerFragment must be positive");
        if ((manifest.getWriterFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
            throw new LanceTableException(LanceErrorKind.UNSUPPORTED_FEATURE, "Table %s uses stable row ids; this connector cannot compact it because the rewritten rows would need row-id sequences it does not write"
                    .formatted(table));
        }
        if (coversAnyFragment(indices)) {
            return new CompactionPlan(manifest.getVersion(), targetRowsPerFragment, manifest.getFragmentsCount(), List.of());
        }
        RoaringBitmap indexed = IndexedFragments.of(table, indices);
        List<CompactionPlan.Group> groups = new ArrayList<>();
        List<DataFragment> run = new ArrayList<>();
        for (DataFragment fragment : manifest.getFragmentsList()) {
            if (!indexed.contains((int) fragment.getId()) && isCandidate(fragment, targetRowsPerFragment)) {
                run.add(fragment);
                continue;
            }
            bin(run, targetRowsPerFragment, groups);
            run.clear();
        }
        bin(run, targetRowsPerFragment, groups);
        return new CompactionPlan(manifest.getVersion(), targetRowsPerFragment, manifest.getFragmentsCount(), groups);
    }

    static long liveRows(DataFragment fragment)
    {
        return fragment.getPhysicalRows() - VersionSummary.deletedRows(fragment);
    }

    private static boolean isCandidate(DataFragment fragment, long targetRowsPerFragment)
    {
        return liveRows(fragment) < targetRowsPerFragment || hasManyDeletions(fragment);
    }

    private static boolean hasManyDeletions(DataFragment fragment)
    {
        return fragment.getPhysicalRows() > 0 && VersionSummary.deletedRows(fragment) > MATERIALIZE_DELETIONS_THRESHOLD * fragment.getPhysicalRows();
    }

    /**
     * Cuts a contiguous run of candidates into groups of at most the target's live rows, in order.
     */
    private static void bin(List<DataFragment> run, long targetRowsPerFragment, List<CompactionPlan.Group> groups)
    {
        List<DataFragment> group = new ArrayList<>();
        long rows = 0;
        for (DataFragment fragment : run) {
            long live = liveRows(fragment);
            if (!group.isEmpty() && rows + live > targetRowsPerFragment) {
                emit(group, groups);
                group = new ArrayList<>();
                rows = 0;
            }
            group.add(fragment);
            rows += live;
        }
        emit(group, groups);
    }

    private static void emit(List<DataFragment> group, List<CompactionPlan.Group> groups)
    {
        if (group.size() > 1 || (group.size() == 1 && hasManyDeletions(group.getFirst()))) {
            groups.add(new CompactionPlan.Group(group));
        }
    }

    /**
     * Whether an index without a {@code fragment_bitmap} (older Lance) exists: it would claim the rewritten fragments too.
     */
    private static boolean coversAnyFragment(Optional<IndexSection> indices)
    {
        return indices.map(IndexSection::getIndicesList).orElse(List.of()).stream()
                .anyMatch(index -> index.getFragmentBitmap().isEmpty() && IndexKind.of(index).map(kind -> !kind.isSystem()).orElse(true));
    }
}
