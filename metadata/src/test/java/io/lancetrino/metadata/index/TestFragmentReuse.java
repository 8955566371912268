package io.lancetrino.metadata.index;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.FragmentReuseIndexDetails;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TestFragmentReuse
{
    /**
     * The details the Lance SDK 7.0 wrote when it compacted fragments 0 (4 rows, offset 1 deleted), 1 (4 rows, offset 2
     * deleted) and 2 (4 rows) into fragment 4 with {@code defer_index_remap}.
     */
    private static final String SDK_DETAILS = "0a7a0a7808041a740a580300000000000000000000003a300000010000000000020010000000000002000300010000003a30000001000000"
            + "0000020010000000000001000300020000003a300000010000000000030010000000000001000200030012041004180112060801100418011204080210041a040804100a";

    @Test
    void testReadsWhatTheSdkWrote()
    {
        FragmentReuse reuse = FragmentReuse.of("t", section(entry(HexFormat.of().parseHex(SDK_DETAILS))));

        assertThat(reuse.remapAddress(address(0, 0))).hasValue(address(4, 0));
        assertThat(reuse.remapAddress(address(0, 1))).isEmpty();
        assertThat(reuse.remapAddress(address(0, 3))).hasValue(address(4, 2));
        assertThat(reuse.remapAddress(address(1, 2))).isEmpty();
        assertThat(reuse.remapAddress(address(1, 3))).hasValue(address(4, 5));
        assertThat(reuse.remapAddress(address(2, 3))).hasValue(address(4, 9));
        // a fragment no compaction rewrote keeps its addresses
        assertThat(reuse.remapAddress(address(3, 1))).hasValue(address(3, 1));
        assertThat(reuse.remapFragments(RoaringBitmap.bitmapOf(0, 1, 2))).isEqualTo(RoaringBitmap.bitmapOf(4));
        assertThat(reuse.remapFragments(RoaringBitmap.bitmapOf(0, 1, 2, 3))).isEqualTo(RoaringBitmap.bitmapOf(3, 4));
        assertThat(reuse.oldPhysicalRows(1)).hasValue(4);
    }

    @Test
    void testCompactionsChainAndAGroupAnIndexPartlyCoveredLeavesIt()
    {
        FragmentReuseIndexDetails.InlineContent details = FragmentReuseIndexDetails.InlineContent.newBuilder()
                // listed newest first: readers order them by version
                .addVersions(version(8,
                        // fragments 10, 7 and 11 (one live row each, two in 7) into 20
                        group(Map.of(10L, RoaringBitmap.bitmapOf(0), 7L, RoaringBitmap.bitmapOf(0, 1), 11L, RoaringBitmap.bitmapOf(0)),
                                List.of(digest(10, 1), digest(7, 2), digest(11, 1)), List.of(digest(20, 4)))))
                .addVersions(version(5,
                        // fragment 1 (3 rows, the middle one deleted) split into 10 and 11
                        group(Map.of(1L, RoaringBitmap.bitmapOf(0, 2)), List.of(digest(1, 3)), List.of(digest(10, 1), digest(11, 1))),
                        // fragment 3 dropped whole
                        group(Map.of(), List.of(digest(3, 2)), List.of())))
                .build();
        FragmentReuse reuse = FragmentReuse.of("t", section(entry(FragmentReuseIndexDetails.newBuilder().setInline(details).build().toByteArray())));

        assertThat(reuse.remapAddress(address(1, 0))).hasValue(address(20, 0));
        assertThat(reuse.remapAddress(address(1, 1))).isEmpty();
        assertThat(reuse.remapAddress(address(1, 2))).hasValue(address(20, 3));
        assertThat(reuse.remapAddress(address(7, 1))).hasValue(address(20, 2));
        assertThat(reuse.remapAddress(address(3, 0))).isEmpty();
        // covering 1 and 7 follows them into 20; covering 1 but not 7 loses the rows of 1 at the second compaction
        assertThat(reuse.remapFragments(RoaringBitmap.bitmapOf(1, 7))).isEqualTo(RoaringBitmap.bitmapOf(20));
        assertThat(reuse.remapFragments(RoaringBitmap.bitmapOf(1))).isEqualTo(new RoaringBitmap());
        assertThat(reuse.remapFragments(RoaringBitmap.bitmapOf(3, 9))).isEqualTo(RoaringBitmap.bitmapOf(9));
    }

    @Test
    void testTreemapOfManyBitmapsAndRuns()
    {
        Map<Long, RoaringBitmap> rows = Map.of(7L, RoaringBitmap.bitmapOfRange(0, 100_000), 2L, RoaringBitmap.bitmapOf(1, 5, 70_000), 4_000_000_000L, RoaringBitmap.bitmapOf(3));
        assertThat(FragmentReuse.readTreemap(treemap(rows))).isEqualTo(rows);
    }

    @Test
    void testMoreLiveRowsThanTheNewFragmentsHoldIsCorrupt()
    {
        FragmentReuseIndexDetails.InlineContent details = FragmentReuseIndexDetails.InlineContent.newBuilder()
                .addVersions(version(3, group(Map.of(1L, RoaringBitmap.bitmapOf(0, 1)), List.of(digest(1, 2)), List.of(digest(2, 1)))))
                .build();
        assertThatThrownBy(() -> FragmentReuse.of("s.t", section(entry(FragmentReuseIndexDetails.newBuilder().setInline(details).build().toByteArray()))))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.CORRUPT_MANIFEST))
                .hasMessageContaining("Table s.t: corrupt fragment reuse index __lance_frag_reuse: 2 live rows do not fit in new fragments of 1 rows");
    }

    private static FragmentReuseIndexDetails.Version version(long datasetVersion, FragmentReuseIndexDetails.Group... groups)
    {
        return FragmentReuseIndexDetails.Version.newBuilder().setDatasetVersion(datasetVersion).addAllGroups(List.of(groups)).build();
    }

    private static FragmentReuseIndexDetails.Group group(Map<Long, RoaringBitmap> live, List<FragmentReuseIndexDetails.FragmentDigest> old, List<FragmentReuseIndexDetails.FragmentDigest> created)
    {
        return FragmentReuseIndexDetails.Group.newBuilder().setChangedRowAddrs(treemap(live)).addAllOldFragments(old).addAllNewFragments(created).build();
    }

    private static FragmentReuseIndexDetails.FragmentDigest digest(long id, long rows)
    {
        return FragmentReuseIndexDetails.FragmentDigest.newBuilder().setId(id).setPhysicalRows(rows).build();
    }

    /** Rust's roaring treemap layout: a u64 count, then per bitmap in ascending order its high bits (u32) and the bitmap. */
    private static ByteString treemap(Map<Long, RoaringBitmap> byHighBits)
    {
        TreeMap<Long, RoaringBitmap> sorted = new TreeMap<>(byHighBits);
        sorted.values().forEach(RoaringBitmap::runOptimize);
        ByteBuffer buffer = ByteBuffer.allocate(8 + sorted.values().stream().mapToInt(bitmap -> 4 + bitmap.serializedSizeInBytes()).sum()).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(sorted.size());
        sorted.forEach((high, bitmap) -> {
            buffer.putInt((int) (long) high);
            bitmap.serialize(buffer);
        });
        return ByteString.copyFrom(buffer.array());
    }

    private static long address(long fragment, long offset)
    {
        return (fragment << 32) | offset;
    }

    private static IndexMetadata entry(byte[] details)
    {
        return IndexMetadata.newBuilder()
                .setName(FragmentReuse.INDEX_NAME)
                .setIndexDetails(Any.newBuilder().setTypeUrl(IndexKind.FRAGMENT_REUSE.typeUrl()).setValue(ByteString.copyFrom(details)))
                .build();
    }

    private static Optional<IndexSection> section(IndexMetadata... indices)
    {
        return Optional.of(IndexSection.newBuilder().addAllIndices(List.of(indices)).build());
    }
}
