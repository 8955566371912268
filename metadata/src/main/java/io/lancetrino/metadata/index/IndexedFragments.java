package io.lancetrino.metadata.index;

import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Optional;

/**
 * Which fragments a version's indexes cover now: what they were built over, followed through the fragment reuse index.
 */
public final class IndexedFragments
{
    private IndexedFragments() {}

    /** The fragments some index (not a system index) covers. */
    public static RoaringBitmap of(String table, Optional<IndexSection> indices)
    {
        FragmentReuse reuse = FragmentReuse.of(table, indices);
        RoaringBitmap covered = new RoaringBitmap();
        for (IndexMetadata index : indices.map(IndexSection::getIndicesList).orElse(List.of())) {
            if (!IndexKind.of(index).map(IndexKind::isSystem).orElse(false)) {
                FragmentBitmaps.covered(table, index).ifPresent(built -> covered.or(reuse.remapFragments(built)));
            }
        }
        return covered;
    }
}
