package io.lancetrino.metadata.index;

import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.proto.UUID;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The index section of the next version, as Lance's own commit builds it, so that every index a version lists is
 * true of that version's data: a dropped column takes its indexes with it, and a fragment whose indexed column was
 * rewritten in place leaves the coverage of that column's indexes. Rows an index covers that were deleted since are
 * masked at read time by the deletion files, as in Lance.
 */
public final class IndexMaintenance
{
    private IndexMaintenance() {}

    /**
     * @param base the manifest the commit applies to
     * @param next the manifest the commit publishes (its fields and fragments)
     */
    public static Optional<IndexSection> next(String table, Manifest base, Optional<IndexSection> baseIndices, Transaction transaction, Manifest next)
    {
        List<IndexMetadata> indices = new ArrayList<>(baseIndices.map(IndexSection::getIndicesList).orElse(List.of()));
        switch (transaction.getOperationCase()) {
            case OVERWRITE, RESTORE -> indices.clear();
            case CREATE_INDEX -> {
                Transaction.CreateIndex create = transaction.getCreateIndex();
                Set<String> replacedNames = new HashSet<>();
                create.getNewIndicesList().forEach(index -> replacedNames.add(index.getName()));
                Set<UUID> removed = new HashSet<>(create.getRemovedIndicesList().stream().map(IndexMetadata::getUuid).toList());
                indices.removeIf(index -> replacedNames.contains(index.getName()) || removed.contains(index.getUuid()));
                indices.addAll(create.getNewIndicesList());
            }
            case UPDATE -> {
                Transaction.Update update = transaction.getUpdate();
                Map<Long, Set<Integer>> rewritten = rewrittenFields(base, update.getUpdatedFragmentsList());
                for (DataFragment fragment : update.getUpdatedFragmentsList()) {
                    rewritten.computeIfAbsent(fragment.getId(), _ -> new HashSet<>()).addAll(update.getFieldsModifiedList());
                }
                indices = uncover(table, indices, rewritten);
            }
            case MERGE -> indices = uncover(table, indices, rewrittenFields(base, next.getFragmentsList()));
            default -> {}
        }
        List<IndexMetadata> retained = retainRelevant(table, indices, next);
        if (retained.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(IndexSection.newBuilder().addAllIndices(retained).build());
    }

    /**
     * Per fragment changed in place, the fields now read from another data file than in the base: values of those
     * fields may have changed, while a deletion file alone changes none.
     */
    private static Map<Long, Set<Integer>> rewrittenFields(Manifest base, List<DataFragment> changed)
    {
        Map<Long, DataFragment> before = new HashMap<>();
        base.getFragmentsList().forEach(fragment -> before.put(fragment.getId(), fragment));
        Map<Long, Set<Integer>> fields = new HashMap<>();
        for (DataFragment fragment : changed) {
            DataFragment old = before.get(fragment.getId());
            if (old == null) {
                continue;
            }
            Map<Integer, String> oldFiles = filesByField(old);
            filesByField(fragment).forEach((field, path) -> {
                if (!path.equals(oldFiles.get(field))) {
                    fields.computeIfAbsent(fragment.getId(), _ -> new HashSet<>()).add(field);
                }
            });
        }
        return fields;
    }

    private static Map<Integer, String> filesByField(DataFragment fragment)
    {
        Map<Integer, String> files = new HashMap<>();
        for (DataFile file : fragment.getFilesList()) {
            String location = file.hasBaseId() ? file.getBaseId() + ":" + file.getPath() : file.getPath();
            file.getFieldsList().forEach(field -> files.put(field, location));
        }
        return files;
    }

    /** Removes each fragment from the coverage of the indexes on one of its rewritten fields. */
    private static List<IndexMetadata> uncover(String table, List<IndexMetadata> indices, Map<Long, Set<Integer>> rewritten)
    {
        if (rewritten.isEmpty()) {
            return indices;
        }
        FragmentReuse reuse = FragmentReuse.of(table, indices);
        List<IndexMetadata> result = new ArrayList<>();
        for (IndexMetadata index : indices) {
            Optional<RoaringBitmap> covered = FragmentBitmaps.covered(table, index);
            if (covered.isEmpty() || IndexKind.of(index).map(IndexKind::isSystem).orElse(false)) {
                result.add(index);
                continue;
            }
            // the fragments it covers now, which is what is written back when one leaves it (as Lance persists it)
            RoaringBitmap bitmap = reuse.remapFragments(covered.get());
            boolean changed = false;
            for (Map.Entry<Long, Set<Integer>> entry : rewritten.entrySet()) {
                int fragment = (int) (long) entry.getKey();
                if (bitmap.contains(fragment) && index.getFieldsList().stream().anyMatch(entry.getValue()::contains)) {
                    bitmap.remove(fragment);
                    changed = true;
                }
            }
            result.add(changed ? index.toBuilder().setFragmentBitmap(FragmentBitmaps.serialize(bitmap)).build() : index);
        }
        return result;
    }

    /**
     * Lance's {@code retain_relevant_indices}: indexes on a field the schema no longer has are dropped; of one index's
     * segments, those covering no fragment of the version are dropped while another still covers one; when none
     * does, a scalar index keeps its oldest segment and a vector index is dropped.
     */
    static List<IndexMetadata> retainRelevant(String table, List<IndexMetadata> indices, Manifest next)
    {
        Set<Integer> fieldIds = new HashSet<>();
        for (Field field : next.getFieldsList()) {
            fieldIds.add(field.getId());
        }
        RoaringBitmap fragments = new RoaringBitmap();
        next.getFragmentsList().forEach(fragment -> fragments.add((int) fragment.getId()));
        FragmentReuse reuse = FragmentReuse.of(table, indices);
        Map<String, List<IndexMetadata>> byName = new LinkedHashMap<>();
        for (IndexMetadata index : indices) {
            boolean system = IndexKind.of(index).map(IndexKind::isSystem).orElse(false);
            if (system || fieldIds.containsAll(index.getFieldsList())) {
                byName.computeIfAbsent(index.getName(), _ -> new ArrayList<>()).add(index);
            }
        }
        Set<IndexMetadata> kept = new HashSet<>();
        for (List<IndexMetadata> segments : byName.values()) {
            List<IndexMetadata> live = segments.stream()
                    .filter(segment -> FragmentBitmaps.covered(table, segment).map(covered -> RoaringBitmap.intersects(reuse.remapFragments(covered), fragments)).orElse(true))
                    .toList();
            if (!live.isEmpty()) {
                kept.addAll(live);
                continue;
            }
            IndexMetadata oldest = segments.stream().min(Comparator.comparingLong(IndexMetadata::getDatasetVersion)).orElseThrow();
            boolean vector = IndexKind.of(oldest).map(IndexKind::isVector).orElse(false);
            boolean system = IndexKind.of(oldest).map(IndexKind::isSystem).orElse(false);
            if (system) {
                kept.addAll(segments);
            }
            else if (!vector) {
                kept.add(oldest);
            }
        }
        return indices.stream().filter(kept::contains).toList();
    }
}
