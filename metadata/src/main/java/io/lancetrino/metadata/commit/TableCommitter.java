package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.fs.ExclusiveCreateUnsupportedException;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.index.IndexMaintenance;
import io.lancetrino.metadata.keys.InsertedKeys;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

import static io.lancetrino.metadata.LanceErrorKind.COMMIT_CONFLICT;
import static io.lancetrino.metadata.LanceErrorKind.EXCLUSIVE_CREATE_UNSUPPORTED;
import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static io.lancetrino.metadata.LanceErrorKind.INCOMPATIBLE_CHANGE;
import static io.lancetrino.metadata.LanceErrorKind.UNSUPPORTED_FEATURE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Lance's optimistic commit: write the transaction file, then create the next manifest only if it does not exist.
 * Data files are written before and the manifest last, so a failed or killed writer leaves at most unreferenced files.
 * When another writer took the version, the transactions committed since our read version are checked against ours
 * and the manifest is rebuilt on the new latest version, a bounded number of times. Deletions of other rows in the same
 * fragments, and compactions, are followed ({@link RowChangeRebase}); a compaction carries along deletions committed
 * while it ran ({@link CompactionRebase}) and drops only the groups it cannot ({@link CompactionYield}), so user writes
 * never lose to maintenance.
 */
public final class TableCommitter
{
    /** Writer features this committer can maintain; anything else is refused for writes */
    private static final long WRITABLE_FLAGS = FeatureFlags.DELETION_FILES | FeatureFlags.TABLE_CONFIG | FeatureFlags.BASE_PATHS
            | FeatureFlags.DISABLE_TRANSACTION_FILE | FeatureFlags.USE_V2_FORMAT_DEPRECATED;
    private static final String HINT_FILE = "latest_version_hint.json";

    private final int maxAttempts;
    private final Clock clock;

    public TableCommitter(int maxAttempts, Clock clock)
    {
        this.maxAttempts = maxAttempts;
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Creates version 1 of a new table from an {@code Overwrite} transaction; fails if any version exists.
     *
     * @param template manifest fields a new table starts with (data format, table metadata)
     */
    public CommitResult create(LanceTable table, Manifest template, Transaction transaction)
    {
        if (table.latestVersion(Optional.empty()).isPresent()) {
            throw new LanceTableException(INCOMPATIBLE_CHANGE, "Table %s already exists at %s".formatted(table.displayName(), table.root()));
        }
        String transactionFile = writeTransaction(table.fileSystem(), table.datasetLocation(Optional.empty()), transaction);
        Manifest manifest = ManifestBuilder.apply(template, transaction, 1, transactionFile, clock.instant());
        try {
            return new CommitResult(publish(table.fileSystem(), table.versionsDirectory(Optional.empty()), ManifestNaming.V2, manifest, Optional.empty()), 1, transaction);
        }
        catch (FileAlreadyExistsException e) {
            throw new LanceTableException(COMMIT_CONFLICT, "Table %s was created by another writer at the same time".formatted(table.displayName()), e);
        }
    }

    /**
     * Commits the transaction on top of the latest version of the branch. {@code transaction.read_version} is the
     * version the change was computed from.
     */
    public CommitResult commit(LanceTable table, Optional<String> branch, Transaction transaction)
    {
        return commit(table, branch, transaction, UnaryOperator.identity());
    }

    /**
     * @param settings applied to the built manifest, for what a transaction does not carry (an overwrite's data
     * format and table metadata)
     */
    public CommitResult commit(LanceTable table, Optional<String> branch, Transaction transaction, UnaryOperator<Manifest> settings)
    {
        return commit(table, branch, transaction, settings, Optional.empty());
    }

    /**
     * @param insertedKeys the primary key values an upsert inserted, which its transaction records in a filter: checked
     * against what other writers inserted meanwhile, key by key
     */
    public CommitResult commit(LanceTable table, Optional<String> branch, Transaction transaction, Optional<InsertedKeys> insertedKeys)
    {
        return commit(table, branch, transaction, UnaryOperator.identity(), insertedKeys);
    }

    private CommitResult commit(LanceTable table, Optional<String> branch, Transaction transaction, UnaryOperator<Manifest> settings, Optional<InsertedKeys> insertedKeys)
    {
        String location = table.datasetLocation(branch);
        Transaction current = transaction;
        String transactionFile = writeTransaction(table.fileSystem(), location, current);
        RowChangeRebase rebase = new RowChangeRebase(table, branch);
        CompactionRebase compaction = new CompactionRebase(table, branch);
        long checkedThrough = transaction.getReadVersion();
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            long latest = table.latestVersion(branch).orElseThrow(() -> new LanceTableException(LanceErrorKind.TABLE_NOT_FOUND, "Table %s has no versions".formatted(table.displayName())));
            TableSnapshot base = table.snapshot(branch, latest);
            checkWritable(table, base);
            for (long version = checkedThrough + 1; version <= latest; version++) {
                Transaction checked = checkConflict(table, branch, current, version, rebase, compaction, insertedKeys);
                if (checked != current) {
                    // the transaction file must name the fragments the published change really touches
                    current = checked;
                    transactionFile = writeTransaction(table.fileSystem(), location, current);
                }
            }
            checkedThrough = latest;
            Manifest manifest;
            try {
                manifest = settings.apply(ManifestBuilder.apply(base.manifest(), current, latest + 1, transactionFile, clock.instant()));
            }
            catch (LanceTableException e) {
                // the builder knows fragments, not tables
                throw new LanceTableException(e.kind(), "Table %s: %s".formatted(table.displayName(), e.getMessage()), e);
            }
            // indices live in their own section of the manifest file and follow the change as Lance's commit has them
            Optional<IndexSection> indices = IndexMaintenance.next(table.displayName(), base.manifest(), base.manifestFile().indexSection(), current, manifest);
            Transaction published = current;
            if (compaction.carriesDeletions()) {
                // the new fragments' ids, which deletion files are named by, exist from here on
                CompactionRebase.Carried carried = compaction.apply(manifest, current, location);
                published = carried.transaction();
                manifest = carried.manifest().toBuilder().setTransactionFile(writeTransaction(table.fileSystem(), location, published)).build();
            }
            try {
                return new CommitResult(publish(table.fileSystem(), table.versionsDirectory(branch), naming(base), manifest, indices), attempt, published);
            }
            catch (FileAlreadyExistsException e) {
                backOff(attempt);
            }
        }
        throw new LanceTableException(COMMIT_CONFLICT, "Table %s: gave up committing after %s attempts because other writers kept committing first; the statement can be retried"
                .formatted(table.displayName(), maxAttempts));
    }

    /**
     * Writes the first version of a new dataset (a branch directory or a clone) from a manifest built elsewhere; the
     * manifest keeps its version number, as Lance's branches and clones do. Fails if the dataset has that version.
     */
    public ManifestFile createDataset(TableFileSystem fileSystem, String datasetLocation, Manifest manifest, Optional<IndexSection> indices, Transaction transaction)
    {
        String transactionFile = writeTransaction(fileSystem, datasetLocation, transaction);
        Manifest.Builder first = ManifestBuilder.stamp(manifest.toBuilder(), transactionFile, clock.instant());
        String versions = TableFileSystem.join(datasetLocation, LanceTable.VERSIONS_DIR);
        try {
            return publish(fileSystem, versions, ManifestNaming.V2, ManifestBuilder.withFlags(first).build(), indices);
        }
        catch (FileAlreadyExistsException e) {
            throw new LanceTableException(LanceErrorKind.ALREADY_EXISTS, "A Lance dataset already exists at %s".formatted(datasetLocation), e);
        }
    }

    /**
     * @return the transaction to commit: {@code mine}, or {@code mine} rebased over a change it can follow, or a
     * compaction without the groups {@code version} changed
     */
    private static Transaction checkConflict(LanceTable table, Optional<String> branch, Transaction mine, long version, RowChangeRebase rebase, CompactionRebase compaction, Optional<InsertedKeys> insertedKeys)
    {
        TableSnapshot committed = table.snapshot(branch, version);
        Optional<Transaction> theirs = Transactions.read(table.fileSystem(), committed);
        if (theirs.isEmpty()) {
            throw new LanceTableException(COMMIT_CONFLICT, "Table %s: %s was committed without a transaction, so this change cannot be checked against it; re-run the statement"
                    .formatted(table.displayName(), committed.describe()));
        }
        InsertedKeyConflicts.check(table.displayName(), mine, insertedKeys, committed, theirs.get());
        return switch (ConflictChecker.check(mine, theirs.get())) {
            case COMPATIBLE -> mine;
            case RETRYABLE -> {
                Optional<Transaction> rebased = Optional.empty();
                if (RowChangeRebase.applies(mine, theirs.get())) {
                    rebased = rebase.rebase(mine, theirs.get(), version);
                }
                else if (CompactionRebase.applies(mine, theirs.get())) {
                    rebased = compaction.rebase(mine, theirs.get(), version);
                }
                else if (CompactionYield.applies(mine, theirs.get())) {
                    rebased = CompactionYield.without(mine, theirs.get());
                }
                // two row changes that cannot be united deleted or replaced the same rows
                String what = RowChangeRebase.applies(mine, theirs.get()) && !theirs.get().hasRewrite() ? "rows" : "fragments";
                yield rebased.orElseThrow(() -> new LanceTableException(COMMIT_CONFLICT, "Table %s: %s (%s) changed the same %s as this %s; re-run the statement"
                        .formatted(table.displayName(), committed.describe(), Transactions.operationName(theirs.get()), what, Transactions.operationName(mine))));
            }
            case INCOMPATIBLE -> throw new LanceTableException(INCOMPATIBLE_CHANGE, "Table %s: %s (%s) replaced what this %s was computed from"
                    .formatted(table.displayName(), committed.describe(), Transactions.operationName(theirs.get()), Transactions.operationName(mine)));
        };
    }

    private static void checkWritable(LanceTable table, TableSnapshot base)
    {
        long unsupported = base.manifest().getWriterFeatureFlags() & ~WRITABLE_FLAGS;
        if (unsupported != 0) {
            throw new LanceTableException(UNSUPPORTED_FEATURE, "Table %s %s uses writer features this connector cannot maintain: %s; reads are still allowed"
                    .formatted(table.displayName(), base.describe(), String.join(", ", FeatureFlags.describe(unsupported))));
        }
    }

    private static ManifestNaming naming(TableSnapshot base)
    {
        String name = base.manifestFile().location().substring(base.manifestFile().location().lastIndexOf('/') + 1);
        return ManifestNaming.namingOf(name).orElse(ManifestNaming.V2);
    }

    private static String writeTransaction(TableFileSystem fileSystem, String datasetLocation, Transaction transaction)
    {
        String name = "%s-%s.txn".formatted(transaction.getReadVersion(), transaction.getUuid().isEmpty() ? UUID.randomUUID() : transaction.getUuid());
        try {
            fileSystem.writeFile(TableFileSystem.join(datasetLocation, "_transactions/" + name), transaction.toByteArray());
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot write transaction file %s in %s: %s".formatted(name, datasetLocation, e.getMessage()), e);
        }
        return name;
    }

    private static ManifestFile publish(TableFileSystem fileSystem, String versions, ManifestNaming naming, Manifest manifest, Optional<IndexSection> indices)
            throws FileAlreadyExistsException
    {
        String location = TableFileSystem.join(versions, naming.fileName(manifest.getVersion()));
        byte[] bytes = ManifestFile.serialize(manifest, Optional.empty(), indices);
        try {
            fileSystem.createExclusive(location, bytes);
        }
        catch (FileAlreadyExistsException e) {
            throw e;
        }
        catch (ExclusiveCreateUnsupportedException e) {
            throw new LanceTableException(EXCLUSIVE_CREATE_UNSUPPORTED, "Cannot commit manifest %s: %s".formatted(location, e.getMessage()), e);
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot write manifest %s: %s".formatted(location, e.getMessage()), e);
        }
        updateHint(fileSystem, versions, manifest.getVersion());
        return ManifestFile.parse(location, bytes);
    }

    // advisory only: readers confirm it, so a failure here is harmless
    private static void updateHint(TableFileSystem fileSystem, String versions, long version)
    {
        try {
            fileSystem.writeFile(TableFileSystem.join(versions, HINT_FILE), "{\"version\":%s}".formatted(version).getBytes(UTF_8));
        }
        catch (IOException | RuntimeException _) {
            // the next reader lists _versions instead
        }
    }

    private static void backOff(int attempt)
    {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(5, 20L * Math.min(attempt, 10)));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LanceTableException(COMMIT_CONFLICT, "Interrupted while retrying a commit", e);
        }
    }
}
