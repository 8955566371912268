package io.lancetrino.metadata.maintenance;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which fragments a compaction rewrites: contiguous runs of small fragments or of fragments with many deleted rows,
 * cut at the target, never a fragment an index covers.
 */
final class TestCompactionPlanner
{
    @Test
    void testSmallFragmentsAreGroupedUpToTheTarget()
    {
        // 3 + 3 + 3 fits a target of 10; the fourth starts a new group; the full fragment 5 ends the run
        Manifest manifest = manifest(fragment(0, 3), fragment(1, 3), fragment(2, 3), fragment(3, 3), fragment(4, 3), fragment(5, 10), fragment(6, 4), fragment(7, 6));
        CompactionPlan plan = CompactionPlanner.plan("t", manifest, Optional.empty(), 10);

        assertThat(groups(plan)).containsExactly(List.of(0L, 1L, 2L), List.of(3L, 4L), List.of(6L, 7L));
        assertThat(plan.fragmentsBefore()).isEqualTo(8);
        assertThat(plan.fragmentsRewritten()).isEqualTo(7);
        assertThat(plan.rowsRewritten()).isEqualTo(25);
        assertThat(plan.deletedRowsPurged()).isZero();
        assertThat(plan.readVersion()).isEqualTo(manifest.getVersion());
    }

    @Test
    void testASingleSmallFragmentIsLeftAlone()
    {
        assertThat(CompactionPlanner.plan("t", manifest(fragment(0, 10), fragment(1, 3), fragment(2, 10)), Optional.empty(), 10).isEmpty()).isTrue();
        assertThat(CompactionPlanner.plan("t", manifest(fragment(0, 8), fragment(1, 8)), Optional.empty(), 10).isEmpty()).isTrue();
        assertThat(CompactionPlanner.plan("t", manifest(), Optional.empty(), 10).isEmpty()).isTrue();
    }

    @Test
    void testFragmentsWithManyDeletedRowsAreRewrittenAlone()
    {
        // 11 of 100 deleted is over Lance's 10% threshold; 10 of 100 is not, and 95 live rows alone gain nothing
        Manifest manifest = manifest(deleted(fragment(0, 100), 11), fragment(1, 100), deleted(fragment(2, 100), 10), fragment(3, 100), deleted(fragment(4, 150), 40));
        CompactionPlan plan = CompactionPlanner.plan("t", manifest, Optional.empty(), 100);

        assertThat(groups(plan)).containsExactly(List.of(0L), List.of(4L));
        assertThat(plan.rowsRewritten()).isEqualTo(89 + 110);
        assertThat(plan.deletedRowsPurged()).isEqualTo(51);
    }

    @Test
    void testFragmentsWithDeletionsJoinTheirSmallNeighbours()
    {
        Manifest manifest = manifest(fragment(0, 2), deleted(fragment(1, 100), 95), fragment(2, 2));
        CompactionPlan plan = CompactionPlanner.plan("t", manifest, Optional.empty(), 1000);

        assertThat(groups(plan)).containsExactly(List.of(0L, 1L, 2L));
        assertThat(plan.rowsRewritten()).isEqualTo(9);
        assertThat(plan.deletedRowsPurged()).isEqualTo(95);
    }

    @Test
    void testIndexedFragmentsStayAsTheyAre()
    {
        Manifest manifest = manifest(fragment(0, 1), fragment(1, 1), fragment(2, 1), fragment(3, 1), fragment(4, 1), fragment(5, 1), fragment(6, 1));
        // fragments 2 and 3 are indexed: every index keeps answering for their rows at the addresses it names
        Optional<IndexSection> indices = Optional.of(IndexSection.newBuilder()
                .addIndices(index("id_idx", RoaringBitmap.bitmapOf(2)))
                .addIndices(index("other_idx", RoaringBitmap.bitmapOf(3)))
                .build());
        assertThat(groups(CompactionPlanner.plan("t", manifest, indices, 100))).containsExactly(List.of(0L, 1L), List.of(4L, 5L, 6L));

        // an index that does not say which fragments it covers may cover any
        Optional<IndexSection> unknown = Optional.of(IndexSection.newBuilder().addIndices(IndexMetadata.newBuilder().setName("old_idx")).build());
        assertThat(CompactionPlanner.plan("t", manifest, unknown, 100).isEmpty()).isTrue();
    }

    @Test
    void testStableRowIdsAreRefused()
    {
        Manifest manifest = manifest(fragment(0, 1), fragment(1, 1)).toBuilder()
                .setReaderFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
                .setWriterFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
                .build();
        assertThatThrownBy(() -> CompactionPlanner.plan("s.t main version 2", manifest, Optional.empty(), 100))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.UNSUPPORTED_FEATURE))
                .hasMessage("Table s.t main version 2 uses stable row ids; this connector cannot compact it because the rewritten rows would need row-id sequences it does not write");
    }

    private static List<List<Long>> groups(CompactionPlan plan)
    {
        return plan.groups().stream().map(group -> group.fragments().stream().map(DataFragment::getId).toList()).toList();
    }

    private static Manifest manifest(DataFragment... fragments)
    {
        return Manifest.newBuilder().setVersion(7).setMaxFragmentId(Math.max(fragments.length - 1, 0)).addAllFragments(Arrays.asList(fragments)).build();
    }

    private static DataFragment fragment(long id, long rows)
    {
        return DataFragment.newBuilder().setId(id).setPhysicalRows(rows).build();
    }

    private static DataFragment deleted(DataFragment fragment, long rows)
    {
        return fragment.toBuilder().setDeletionFile(DeletionFile.newBuilder().setId(1).setReadVersion(1).setNumDeletedRows(rows)).build();
    }

    private static IndexMetadata index(String name, RoaringBitmap fragments)
    {
        ByteBuffer bytes = ByteBuffer.allocate(fragments.serializedSizeInBytes());
        fragments.serialize(bytes);
        return IndexMetadata.newBuilder().setName(name).setFragmentBitmap(ByteString.copyFrom(bytes.array())).build();
    }
}
