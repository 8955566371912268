package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.RefResolver;

import java.util.List;
import java.util.Optional;

/**
 * What a merge commit records in its transaction properties, so later merges start from the nearest common state
 * (Lance history has one parent per version; lineage lives here).
 */
public final class MergeRecords
{
    /** {@code branch:<name>} for a branch of the same table, {@code table:<location>} for a clone */
    public static final String SOURCE = "lance-trino.merge.source";
    public static final String SOURCE_VERSION = "lance-trino.merge.source_version";
    public static final String BASE = "lance-trino.merge.base";
    /** the root of the table holding the merge base: the target's, or a clone's */
    public static final String BASE_TABLE = "lance-trino.merge.base_table";
    public static final String FAST_FORWARD = "lance-trino.merge.fast_forward";

    private MergeRecords() {}

    private static final String BRANCH_PREFIX = "branch:";
    private static final String TABLE_PREFIX = "table:";

    /**
     * The branch and version a merge commit brought over, as its transaction records them: empty when the
     * transaction is not a merge or merged a clone (another table).
     */
    public record BranchVersion(Optional<String> branch, long version) {}

    public static boolean isMergeCommit(Transaction transaction)
    {
        return transaction.getTransactionPropertiesMap().containsKey(SOURCE);
    }

    public static Optional<BranchVersion> mergedBranchVersion(Transaction transaction)
    {
        return recorded(transaction)
                .filter(merge -> merge.source().startsWith(BRANCH_PREFIX))
                .map(merge -> {
                    String name = merge.source().substring(BRANCH_PREFIX.length());
                    return new BranchVersion(name.equals(RefResolver.MAIN) ? Optional.empty() : Optional.of(name), merge.version());
                });
    }

    /** The clone (by table root) and version a merge commit brought over: empty when it is not a merge of a clone. */
    public record TableVersion(String root, long version) {}

    public static Optional<TableVersion> mergedTableVersion(Transaction transaction)
    {
        return recorded(transaction)
                .filter(merge -> merge.source().startsWith(TABLE_PREFIX))
                .map(merge -> new TableVersion(merge.source().substring(TABLE_PREFIX.length()), merge.version()));
    }

    public static String branchSource(Optional<String> branch)
    {
        return BRANCH_PREFIX + branch.orElse(RefResolver.MAIN);
    }

    public static String tableSource(String location)
    {
        return TABLE_PREFIX + location;
    }

    /**
     * A merge from {@code source} recorded in a version of the branch, found walking back from its head to
     * {@code afterVersion} (exclusive).
     */
    record Found(TableSnapshot mergeCommit, long sourceVersion) {}

    static Optional<Found> latestMergeFrom(LanceTable table, Optional<String> branch, long afterVersion, String source)
    {
        List<Long> versions = table.listVersions(branch);
        for (int i = versions.size() - 1; i >= 0 && versions.get(i) > afterVersion; i--) {
            TableSnapshot snapshot = table.snapshot(branch, versions.get(i));
            Optional<Recorded> recorded = recorded(table, snapshot);
            if (recorded.isPresent() && recorded.get().source().equals(source)) {
                return Optional.of(new Found(snapshot, recorded.get().version()));
            }
        }
        return Optional.empty();
    }

    private record Recorded(String source, long version) {}

    // the source and source version a merge commit records, if the snapshot was committed by one
    private static Optional<Recorded> recorded(LanceTable table, TableSnapshot snapshot)
    {
        return Transactions.read(table.fileSystem(), snapshot).flatMap(MergeRecords::recorded);
    }

    private static Optional<Recorded> recorded(Transaction transaction)
    {
        String source = transaction.getTransactionPropertiesMap().get(SOURCE);
        String version = transaction.getTransactionPropertiesMap().get(SOURCE_VERSION);
        if (source == null || version == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Recorded(source, Long.parseLong(version)));
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
