package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Applying a compaction ({@code Rewrite}) to the latest manifest as Lance does: each group's old fragments are
 * replaced in place by its new ones, which get ids after {@code max_fragment_id}; everything else is carried forward.
 */
final class TestManifestBuilder
{
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

    @Test
    void testRewriteReplacesGroupsInPlaceWithNewIds()
    {
        // list order, not id order, decides what is contiguous
        Manifest base = manifest(5, fragment(0, 10), fragment(1, 10), fragment(2, 10), fragment(4, 100), fragment(5, 10), fragment(3, 7));
        Transaction rewrite = rewrite(
                group(List.of(fragment(0, 10), fragment(1, 10), fragment(2, 10)), List.of(fragment(0, 30))),
                group(List.of(fragment(5, 10), fragment(3, 7)), List.of(fragment(0, 12), fragment(0, 5))));

        Manifest next = ManifestBuilder.apply(base, rewrite, 8, "7-x.txn", NOW);

        assertThat(next.getFragmentsList()).extracting(DataFragment::getId).containsExactly(6L, 4L, 7L, 8L);
        assertThat(next.getFragmentsList()).extracting(DataFragment::getPhysicalRows).containsExactly(30L, 100L, 12L, 5L);
        assertThat(next.getFragments(0).getFiles(0).getPath()).isEqualTo("new-30.lance");
        assertThat(next.getMaxFragmentId()).isEqualTo(8);
        assertThat(next.getVersion()).isEqualTo(8);
        assertThat(next.getTransactionFile()).isEqualTo("7-x.txn");
    }

    @Test
    void testRewriteKeepsIndicesConfigAndBasePathsAndRecomputesFlags()
    {
        Manifest base = manifest(2, fragment(0, 10).toBuilder()
                        .setDeletionFile(DeletionFile.newBuilder().setId(9).setReadVersion(2).setNumDeletedRows(3))
                        .build(),
                fragment(1, 10), fragment(2, 10))
                .toBuilder()
                .setIndexSection(0)
                .putConfig("lance.auto_cleanup.interval", "20")
                .addBasePaths(BasePath.newBuilder().setId(0).setIsDatasetRoot(true).setPath("/somewhere/else"))
                .setBranch("dev")
                .setReaderFeatureFlags(FeatureFlags.DELETION_FILES | FeatureFlags.BASE_PATHS)
                .setWriterFeatureFlags(FeatureFlags.DELETION_FILES | FeatureFlags.BASE_PATHS | FeatureFlags.TABLE_CONFIG)
                .build();
        Transaction rewrite = rewrite(group(List.of(base.getFragments(0), base.getFragments(1)), List.of(fragment(0, 17))));

        Manifest next = ManifestBuilder.apply(base, rewrite, 5, "4-x.txn", NOW);

        assertThat(next.getFragmentsList()).extracting(DataFragment::getId).containsExactly(3L, 2L);
        assertThat(next.hasIndexSection()).isTrue();
        assertThat(next.getConfigMap()).containsEntry("lance.auto_cleanup.interval", "20");
        assertThat(next.getBasePathsList()).isEqualTo(base.getBasePathsList());
        assertThat(next.getBranch()).isEqualTo("dev");
        // the only deletion file went with the compaction
        assertThat(next.getReaderFeatureFlags()).isEqualTo(FeatureFlags.BASE_PATHS);
        assertThat(next.getWriterFeatureFlags()).isEqualTo(FeatureFlags.BASE_PATHS | FeatureFlags.TABLE_CONFIG);
    }

    @Test
    void testRewriteOfFragmentsNoLongerContiguousIsAConflict()
    {
        // another writer's compaction put fragment 6 between 1 and 2
        Manifest base = manifest(6, fragment(0, 10), fragment(1, 10), fragment(6, 10), fragment(2, 10));
        Transaction rewrite = rewrite(group(List.of(fragment(0, 10), fragment(1, 10), fragment(2, 10)), List.of(fragment(0, 30))));

        assertThatThrownBy(() -> ManifestBuilder.apply(base, rewrite, 8, "7-x.txn", NOW))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.COMMIT_CONFLICT))
                .hasMessageContaining("Fragment 2, which this rewrite replaces, no longer follows fragment 1");
    }

    @Test
    void testRewriteOfMissingFragmentIsAConflict()
    {
        Manifest base = manifest(3, fragment(0, 10), fragment(2, 10), fragment(3, 10));
        Transaction rewrite = rewrite(group(List.of(fragment(1, 10), fragment(2, 10)), List.of(fragment(0, 20))));

        assertThatThrownBy(() -> ManifestBuilder.apply(base, rewrite, 8, "7-x.txn", NOW))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.COMMIT_CONFLICT))
                .hasMessageContaining("Fragment 1, which this rewrite replaces, no longer exists");
    }

    @Test
    void testRewriteInTheDeprecatedFieldsIsOneGroup()
    {
        Manifest base = manifest(2, fragment(0, 10), fragment(1, 10), fragment(2, 10));
        Transaction rewrite = Transaction.newBuilder()
                .setReadVersion(3)
                .setRewrite(Transaction.Rewrite.newBuilder()
                        .addOldFragments(fragment(1, 10))
                        .addOldFragments(fragment(2, 10))
                        .addNewFragments(fragment(0, 20)))
                .build();

        assertThat(ManifestBuilder.apply(base, rewrite, 4, "3-x.txn", NOW).getFragmentsList()).extracting(DataFragment::getId).containsExactly(0L, 3L);
    }

    private static Manifest manifest(int maxFragmentId, DataFragment... fragments)
    {
        return Manifest.newBuilder()
                .setVersion(maxFragmentId + 1)
                .setMaxFragmentId(maxFragmentId)
                .addAllFragments(Arrays.asList(fragments))
                .build();
    }

    private static DataFragment fragment(long id, long rows)
    {
        String path = id == 0 ? "new-%s.lance".formatted(rows) : "f%s.lance".formatted(id);
        return DataFragment.newBuilder()
                .setId(id)
                .setPhysicalRows(rows)
                .addFiles(DataFile.newBuilder().setPath(path).addFields(0).addColumnIndices(0).setFileMajorVersion(2).setFileMinorVersion(1))
                .build();
    }

    private static Transaction.RewriteGroup group(List<DataFragment> old, List<DataFragment> replacements)
    {
        return Transaction.RewriteGroup.newBuilder().addAllOldFragments(old).addAllNewFragments(replacements).build();
    }

    private static Transaction rewrite(Transaction.RewriteGroup... groups)
    {
        return Transaction.newBuilder()
                .setReadVersion(3)
                .setUuid("00000000-0000-0000-0000-000000000001")
                .setRewrite(Transaction.Rewrite.newBuilder().addAllGroups(Arrays.asList(groups)))
                .build();
    }
}
