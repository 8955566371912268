package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.proto.Transaction;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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
    public static final String FAST_FORWARD = "lance-trino.merge.fast_forward";

    private MergeRecords() {}

    private static final String BRANCH_PREFIX = "branch:";
    private static final String MAIN = "main";

    public static String branchSource(Optional<String> branch)
    {
        return BRANCH_PREFIX + branch.orElse(MAIN);
    }

    public static String tableSource(String location)
    {
        return "table:" + location;
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
            Optional<Transaction> transaction = Transactions.read(table.fileSystem(), snapshot);
            if (transaction.isEmpty()) {
                continue;
            }
            String recorded = transaction.get().getTransactionPropertiesMap().get(SOURCE);
            OptionalLong version = parse(transaction.get().getTransactionPropertiesMap().get(SOURCE_VERSION));
            if (source.equals(recorded) && version.isPresent()) {
                return Optional.of(new Found(snapshot, version.getAsLong()));
            }
        }
        return Optional.empty();
    }

    /**
     * The version of a branch of the same table that the merge (or fast-forward) committed as this snapshot brought
     * over, if it was one and that version still exists.
     */
    static Optional<TableSnapshot> mergedBranchVersion(LanceTable table, TableSnapshot snapshot)
    {
        Optional<Transaction> transaction = Transactions.read(table.fileSystem(), snapshot);
        if (transaction.isEmpty()) {
            return Optional.empty();
        }
        String recorded = transaction.get().getTransactionPropertiesMap().get(SOURCE);
        OptionalLong version = parse(transaction.get().getTransactionPropertiesMap().get(SOURCE_VERSION));
        if (recorded == null || !recorded.startsWith(BRANCH_PREFIX) || version.isEmpty()) {
            return Optional.empty();
        }
        String name = recorded.substring(BRANCH_PREFIX.length());
        Optional<String> branch = name.equals(MAIN) ? Optional.empty() : Optional.of(name);
        if ((branch.isPresent() && table.refs().getBranch(name).isEmpty()) || table.manifestLocation(branch, version.getAsLong()).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(table.snapshot(branch, version.getAsLong()));
    }

    private static OptionalLong parse(String value)
    {
        try {
            return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
        }
        catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
