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
            case UPDATE_CONFIG -> applyConfig(next, transaction.getUpdateConfig());
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
