package io.lancetrino.metadata.index;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.FragmentReuseIndexDetails;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Lance's fragment reuse index ({@code __lance_frag_reuse}): a record, per compaction, of where the rows of the
 * rewritten fragments went, so that indexes built before a compaction keep answering for its rows without being
 * rebuilt. Lance's own compaction writes it with {@code defer_index_remap}; this connector follows it and does not
 * write it (the Lance SDK 7.0 itself loses index answers when it later compacts the fragments such a record names).
 * An index segment's {@code fragment_bitmap} and the row addresses in its files stay as they were built, and readers
 * map both through every recorded compaction, oldest first.
 *
 * <p>A group's old fragments, in order, hold the live rows listed in {@code changed_row_addrs}; those rows fill the new
 * fragments in order. An address of an old fragment that is not listed was deleted; an address of no group is kept.
 * A segment covers a group's new fragments when it covered all its old ones; one that covered only some of them loses
 * them all (Lance's rule for a group that straddles an index's coverage).
 */
public final class FragmentReuse
{
    public static final String INDEX_NAME = "__lance_frag_reuse";

    private final List<Version> versions;

    private FragmentReuse(List<Version> versions)
    {
        this.versions = List.copyOf(versions);
    }

    public static FragmentReuse none()
    {
        return new FragmentReuse(List.of());
    }

    public boolean isEmpty()
    {
        return versions.isEmpty();
    }

    /** The fragment reuse index an index section lists, if any. */
    public static FragmentReuse of(String table, Optional<IndexSection> indices)
    {
        return of(table, indices.map(IndexSection::getIndicesList).orElse(List.of()));
    }

    public static FragmentReuse of(String table, List<IndexMetadata> indices)
    {
        return indices.stream()
                .filter(index -> IndexKind.of(index).orElse(IndexKind.OTHER) == IndexKind.FRAGMENT_REUSE)
                .findFirst()
                .map(index -> parse(table, index))
                .orElseGet(FragmentReuse::none);
    }

    static FragmentReuse parse(String table, IndexMetadata index)
    {
        try {
            FragmentReuseIndexDetails details = FragmentReuseIndexDetails.parseFrom(index.getIndexDetails().getValue());
            if (!details.hasInline()) {
                throw new LanceTableException(LanceErrorKind.UNSUPPORTED_FEATURE, "Table %s: the fragment reuse index %s keeps its details in an external file, which this connector does not read yet"
                        .formatted(table, index.getName()));
            }
            List<Version> versions = new ArrayList<>();
            for (FragmentReuseIndexDetails.Version version : details.getInline().getVersionsList()) {
                List<Group> groups = new ArrayList<>();
                for (FragmentReuseIndexDetails.Group group : version.getGroupsList()) {
                    groups.add(new Group(
                            group.getOldFragmentsList().stream().map(Digest::of).toList(),
                            readTreemap(group.getChangedRowAddrs()),
                            group.getNewFragmentsList().stream().map(Digest::of).toList()));
                }
                versions.add(new Version(version.getDatasetVersion(), groups));
            }
            versions.sort((left, right) -> Long.compare(left.datasetVersion(), right.datasetVersion()));
            return new FragmentReuse(versions);
        }
        catch (InvalidProtocolBufferException | RuntimeException e) {
            if (e instanceof LanceTableException lance) {
                throw lance;
            }
            throw new LanceTableException(LanceErrorKind.CORRUPT_MANIFEST, "Table %s: corrupt fragment reuse index %s: %s".formatted(table, index.getName(), e.getMessage()), e);
        }
    }

    /**
     * The fragments a segment covers now, from the fragments it was built over: Lance's remap of a
     * {@code fragment_bitmap} through every recorded compaction.
     */
    public RoaringBitmap remapFragments(RoaringBitmap built)
    {
        if (versions.isEmpty()) {
            return built;
        }
        RoaringBitmap covered = built.clone();
        for (Version version : versions) {
            for (Group group : version.groups()) {
                int removed = 0;
                for (Digest old : group.oldFragments()) {
                    if (covered.checkedRemove((int) old.id())) {
                        removed++;
                    }
                }
                if (removed > 0 && removed == group.oldFragments().size()) {
                    group.newFragments().forEach(fragment -> covered.add((int) fragment.id()));
                }
            }
        }
        return covered;
    }

    /**
     * Where the row at {@code address} (as an index built before the recorded compactions names it) is now; empty
     * when a compaction dropped it as deleted.
     */
    public OptionalLong remapAddress(long address)
    {
        long current = address;
        for (Version version : versions) {
            OptionalLong moved = version.remap(current);
            if (moved.isEmpty()) {
                return moved;
            }
            current = moved.getAsLong();
        }
        return OptionalLong.of(current);
    }

    /** The physical rows of a fragment some recorded compaction rewrote, as it was then; empty for any other. */
    public OptionalLong oldPhysicalRows(long fragmentId)
    {
        for (Version version : versions) {
            Group group = version.groupByOldFragment().get(fragmentId);
            if (group != null) {
                return group.oldFragments().stream().filter(old -> old.id() == fragmentId).mapToLong(Digest::physicalRows).findFirst();
            }
        }
        return OptionalLong.empty();
    }

    /** A fragment as a compaction found or made it. */
    record Digest(long id, long physicalRows)
    {
        static Digest of(FragmentReuseIndexDetails.FragmentDigest digest)
        {
            return new Digest(digest.getId(), digest.getPhysicalRows());
        }
    }

    /**
     * One rewrite group: the live rows of the old fragments, by fragment id, fill the new fragments in order.
     */
    record Group(List<Digest> oldFragments, Map<Long, RoaringBitmap> liveRows, List<Digest> newFragments)
    {
        public Group
        {
            oldFragments = List.copyOf(oldFragments);
            liveRows = Map.copyOf(liveRows);
            newFragments = List.copyOf(newFragments);
            long live = liveRows.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum();
            long room = newFragments.stream().mapToLong(Digest::physicalRows).sum();
            checkArgument(live <= room, "%s live rows do not fit in new fragments of %s rows", live, room);
        }

        OptionalLong remap(long fragmentId, int offset)
        {
            long position = 0;
            for (Digest old : oldFragments) {
                RoaringBitmap live = liveRows.getOrDefault(old.id(), new RoaringBitmap());
                if (old.id() != fragmentId) {
                    position += live.getLongCardinality();
                    continue;
                }
                if (!live.contains(offset)) {
                    return OptionalLong.empty();
                }
                position += live.rank(offset) - 1;
                for (Digest created : newFragments) {
                    if (position < created.physicalRows()) {
                        return OptionalLong.of((created.id() << 32) | position);
                    }
                    position -= created.physicalRows();
                }
                return OptionalLong.empty();
            }
            throw new IllegalStateException("fragment %s is not in the group".formatted(fragmentId));
        }
    }

    private record Version(long datasetVersion, List<Group> groups, Map<Long, Group> groupByOldFragment)
    {
        Version(long datasetVersion, List<Group> groups)
        {
            this(datasetVersion, groups, byOldFragment(groups));
        }

        private static Map<Long, Group> byOldFragment(List<Group> groups)
        {
            Map<Long, Group> result = new HashMap<>();
            groups.forEach(group -> group.oldFragments().forEach(fragment -> result.put(fragment.id(), group)));
            return result;
        }

        OptionalLong remap(long address)
        {
            Group group = groupByOldFragment.get(address >>> 32);
            return group == null ? OptionalLong.of(address) : group.remap(address >>> 32, (int) address);
        }
    }

    /**
     * A Roaring treemap in the layout of Rust's {@code roaring} crate: the number of 32-bit bitmaps (u64), then for each,
     * in ascending order of the high 32 bits, those bits (u32) and the bitmap in the portable format; all little-endian.
     */
    static Map<Long, RoaringBitmap> readTreemap(ByteString bytes)
    {
        ByteBuffer buffer = bytes.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long count = buffer.getLong();
        Map<Long, RoaringBitmap> result = new HashMap<>();
        for (long i = 0; i < count; i++) {
            long high = Integer.toUnsignedLong(buffer.getInt());
            RoaringBitmap bitmap = new RoaringBitmap();
            try {
                // a slice, as the bitmap's reader does not say how far it read
                bitmap.deserialize(buffer.slice().order(ByteOrder.LITTLE_ENDIAN));
            }
            catch (IOException e) {
                throw new IllegalArgumentException("corrupt row address treemap: " + e.getMessage(), e);
            }
            buffer.position(buffer.position() + bitmap.serializedSizeInBytes());
            result.put(high, bitmap);
        }
        return result;
    }

    @Override
    public String toString()
    {
        return "FragmentReuse" + versions.stream().map(version -> version.datasetVersion()).toList();
    }
}
