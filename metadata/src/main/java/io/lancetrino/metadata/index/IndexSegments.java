package io.lancetrino.metadata.index;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.proto.IndexMetadata;
import org.roaringbitmap.RoaringBitmap;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * One logical index of a version: every segment (Lance's delta indices) sharing a name.
 *
 * @param coveredFragments fragments of the version some segment covers
 * @param liveRowsCovered rows of covered fragments that are not deleted
 * @param liveRowsNotCovered rows of the version's other fragments that are not deleted
 */
public record IndexSegments(
        String name,
        IndexKind kind,
        String typeName,
        List<Integer> fieldIds,
        List<IndexMetadata> segments,
        RoaringBitmap coveredFragments,
        long liveRowsCovered,
        long liveRowsNotCovered)
{
    public IndexSegments
    {
        requireNonNull(name, "name is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(typeName, "typeName is null");
        fieldIds = ImmutableList.copyOf(fieldIds);
        segments = ImmutableList.copyOf(segments);
        requireNonNull(coveredFragments, "coveredFragments is null");
    }

    /** The version the newest segment was built at. */
    public long datasetVersion()
    {
        return segments.stream().mapToLong(IndexMetadata::getDatasetVersion).max().orElseThrow();
    }

    public OptionalInt indexVersion()
    {
        return segments.stream().filter(IndexMetadata::hasIndexVersion).mapToInt(IndexMetadata::getIndexVersion).max();
    }

    public Optional<Instant> createdAt()
    {
        return segments.stream().filter(IndexMetadata::hasCreatedAt).mapToLong(IndexMetadata::getCreatedAt).max().stream().mapToObj(Instant::ofEpochMilli).findFirst();
    }
}
