package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import com.google.protobuf.Timestamp;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the manifest of the next version by applying a transaction to the latest manifest, as Lance does: new
 * fragments get ids after {@code max_fragment_id}, flags are recomputed, and everything the operation does not
 * change (indices, config, base paths, branch, unknown fields) is carried forward.
 */
public final class ManifestBuilder
{
    private ManifestBuilder() {}

    /**
     * @param base the latest manifest, or the default instance for a table's first version
     */
    public static Manifest apply(Manifest base, Transaction transaction, long version, String transactionFile, Instant now)
    {
        Manifest.Builder next = base.toBuilder();
        long maxFragmentId = base.hasMaxFragmentId() ? Integer.toUnsignedLong(base.getMaxFragmentId()) : -1;
        switch (transaction.getOperationCase()) {
            case APPEND -> {
                List<DataFragment> fragments = new ArrayList<>(base.getFragmentsList());
                maxFragmentId = assignIds(transaction.getAppend().getFragmentsList(), maxFragmentId, fragments);
                next.clearFragments().addAllFragments(fragments);
            }
            case DELETE -> {
                Transaction.Delete delete = transaction.getDelete();
                next.clearFragments().addAllFragments(replace(base.getFragmentsList(), delete.getUpdatedFragmentsList(), Set.copyOf(delete.getDeletedFragmentIdsList())));
            }
            case UPDATE -> {
                Transaction.Update update = transaction.getUpdate();
                List<DataFragment> fragments = replace(base.getFragmentsList(), update.getUpdatedFragmentsList(), Set.copyOf(update.getRemovedFragmentIdsList()));
                maxFragmentId = assignIds(update.getNewFragmentsList(), maxFragmentId, fragments);
                next.clearFragments().addAllFragments(fragments);
            }
            case OVERWRITE -> {
                Transaction.Overwrite overwrite = transaction.getOverwrite();
                // like Lance, an overwrite starts fragment ids again and drops indices
                List<DataFragment> fragments = new ArrayList<>();
                maxFragmentId = assignIds(overwrite.getFragmentsList(), -1, fragments);
                next.clearFragments().addAllFragments(fragments)
                        .clearFields().addAllFields(overwrite.getSchemaList())
                        .clearSchemaMetadata().putAllSchemaMetadata(overwrite.getSchemaMetadataMap())
                        .putAllConfig(overwrite.getConfigUpsertValuesMap())
                        .clearIndexSection();
                if (!overwrite.getInitialBasesList().isEmpty()) {
                    next.clearBasePaths().addAllBasePaths(overwrite.getInitialBasesList());
                }
            }
            case PROJECT -> next.clearFields().addAllFields(transaction.getProject().getSchemaList());
            case MERGE -> {
                Transaction.Merge merge = transaction.getMerge();
                next.clearFragments().addAllFragments(merge.getFragmentsList())
                        .clearFields().addAllFields(merge.getSchemaList());
                if (!merge.getSchemaMetadataMap().isEmpty()) {
                    next.clearSchemaMetadata().putAllSchemaMetadata(merge.getSchemaMetadataMap());
                }
                for (DataFragment fragment : merge.getFragmentsList()) {
                    maxFragmentId = Math.max(maxFragmentId, fragment.getId());
                }
            }
            case REWRITE -> {
                List<DataFragment> fragments = new ArrayList<>(base.getFragmentsList());
                for (Transaction.RewriteGroup group : rewriteGroups(transaction.getRewrite())) {
                    maxFragmentId = rewrite(fragments, group, maxFragmentId, version);
                }
                next.clearFragments().addAllFragments(fragments);
            }
            case UPDATE_CONFIG -> applyConfig(next, transaction.getUpdateConfig());
            // the index section is built apart (IndexMaintenance)
            case CREATE_INDEX -> {}
            default -> throw new LanceTableException(LanceErrorKind.UNSUPPORTED_FEATURE, "This connector cannot commit a %s operation".formatted(transaction.getOperationCase()));
        }
        stamp(next.setVersion(version), transactionFile, now);
        if (maxFragmentId >= 0) {
            next.setMaxFragmentId((int) maxFragmentId);
        }
        return withFlags(next).build();
    }

    /**
     * What every commit sets on the manifest it publishes: its transaction file, commit time and writer.
     */
    public static Manifest.Builder stamp(Manifest.Builder manifest, String transactionFile, Instant now)
    {
        return manifest
                .setTimestamp(Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
                .setWriterVersion(WriterIdentity.writerVersion())
                .setTransactionFile(transactionFile)
                .clearTransactionSection();
    }

    /**
     * Reader and writer flags follow from the manifest's content, as Lance recomputes them on every commit.
     */
    public static Manifest.Builder withFlags(Manifest.Builder manifest)
    {
        long flags = manifest.getWriterFeatureFlags() & FeatureFlags.STABLE_ROW_IDS;
        if (manifest.getFragmentsList().stream().anyMatch(DataFragment::hasDeletionFile)) {
            flags |= FeatureFlags.DELETION_FILES;
        }
        if (manifest.getBasePathsCount() > 0) {
            flags |= FeatureFlags.BASE_PATHS;
        }
        long writer = flags | (manifest.getConfigCount() > 0 ? FeatureFlags.TABLE_CONFIG : 0);
        return manifest.setReaderFeatureFlags(flags).setWriterFeatureFlags(writer);
    }

    private static long assignIds(List<DataFragment> fragments, long maxFragmentId, List<DataFragment> into)
    {
        long next = maxFragmentId;
        for (DataFragment fragment : fragments) {
            next++;
            into.add(fragment.toBuilder().setId(next).build());
        }
        return next;
    }

    /**
     * Lance's compaction writes groups; older writers put one group's fragments in the deprecated top-level fields.
     */
    public static List<Transaction.RewriteGroup> rewriteGroups(Transaction.Rewrite rewrite)
    {
        if (rewrite.getGroupsCount() > 0 || rewrite.getOldFragmentsCount() == 0) {
            return rewrite.getGroupsList();
        }
        return List.of(Transaction.RewriteGroup.newBuilder()
                .addAllOldFragments(rewrite.getOldFragmentsList())
                .addAllNewFragments(rewrite.getNewFragmentsList())
                .build());
    }

    /**
     * Replaces the group's old fragments, which must still be a contiguous run of the fragment list, in place by its
     * new fragments, as Lance does: rows keep their position in a scan, and the ids of fragments a concurrent append
     * added stay where they are. New fragments get ids after {@code maxFragmentId}.
     */
    private static long rewrite(List<DataFragment> fragments, Transaction.RewriteGroup group, long maxFragmentId, long version)
    {
        if (group.getOldFragmentsCount() == 0) {
            throw new LanceTableException(LanceErrorKind.INCOMPATIBLE_CHANGE, "A rewrite group for version %s names no fragments to replace".formatted(version));
        }
        long first = group.getOldFragments(0).getId();
        int start = 0;
        while (start < fragments.size() && fragments.get(start).getId() != first) {
            start++;
        }
        if (start == fragments.size()) {
            throw new LanceTableException(LanceErrorKind.COMMIT_CONFLICT, "Fragment %s, which this rewrite replaces, no longer exists in the table as of version %s".formatted(first, version - 1));
        }
        for (int i = 1; i < group.getOldFragmentsCount(); i++) {
            long expected = group.getOldFragments(i).getId();
            if (start + i >= fragments.size() || fragments.get(start + i).getId() != expected) {
                throw new LanceTableException(LanceErrorKind.COMMIT_CONFLICT, "Fragment %s, which this rewrite replaces, no longer follows fragment %s in the table as of version %s; Lance rewrites only contiguous fragments"
                        .formatted(expected, group.getOldFragments(i - 1).getId(), version - 1));
            }
        }
        List<DataFragment> replacements = new ArrayList<>();
        long assigned = assignIds(group.getNewFragmentsList(), maxFragmentId, replacements);
        List<DataFragment> range = fragments.subList(start, start + group.getOldFragmentsCount());
        range.clear();
        range.addAll(replacements);
        return assigned;
    }

    private static List<DataFragment> replace(List<DataFragment> base, List<DataFragment> updated, Set<Long> removed)
    {
        Map<Long, DataFragment> updates = new LinkedHashMap<>();
        updated.forEach(fragment -> updates.put(fragment.getId(), fragment));
        Set<Long> present = new HashSet<>();
        List<DataFragment> fragments = new ArrayList<>();
        for (DataFragment fragment : base) {
            present.add(fragment.getId());
            if (!removed.contains(fragment.getId())) {
                fragments.add(updates.getOrDefault(fragment.getId(), fragment));
            }
        }
        for (long id : updates.keySet()) {
            if (!present.contains(id)) {
                throw new LanceTableException(LanceErrorKind.INCOMPATIBLE_CHANGE, "Fragment %s no longer exists in the table".formatted(id));
            }
        }
        return fragments;
    }

    private static void applyConfig(Manifest.Builder manifest, Transaction.UpdateConfig update)
    {
        manifest.putAllConfig(update.getUpsertValuesMap());
        update.getDeleteKeysList().forEach(manifest::removeConfig);
        if (update.hasConfigUpdates()) {
            Map<String, String> config = applyMap(manifest.getConfigMap(), update.getConfigUpdates());
            manifest.clearConfig().putAllConfig(config);
        }
        if (update.hasTableMetadataUpdates()) {
            Map<String, String> metadata = applyMap(manifest.getTableMetadataMap(), update.getTableMetadataUpdates());
            manifest.clearTableMetadata().putAllTableMetadata(metadata);
        }
    }

    private static Map<String, String> applyMap(Map<String, String> current, Transaction.UpdateMap update)
    {
        Map<String, String> result = new LinkedHashMap<>(update.getReplace() ? Map.of() : current);
        for (Transaction.UpdateMapEntry entry : update.getUpdateEntriesList()) {
            if (entry.hasValue()) {
                result.put(entry.getKey(), entry.getValue());
            }
            else {
                result.remove(entry.getKey());
            }
        }
        return result;
    }
}
