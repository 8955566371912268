package io.lancetrino.procedures;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.airlift.units.Duration;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.maintenance.CleanupReport;
import io.lancetrino.metadata.maintenance.Locations;
import io.lancetrino.metadata.maintenance.TableCleanup;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.split.LanceConfig;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static io.lancetrino.procedures.LanceTableOperations.open;
import static io.lancetrino.procedures.LanceTableOperations.translated;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * {@code cleanup}: removes versions older than the retention threshold and the files only they (or nothing) name,
 * keeping everything a branch, tag or clone still reads. Clones are found through the pins the clone procedures
 * leave and by scanning the catalog's warehouse for tables whose base paths point into this one.
 */
public final class CleanupOperations
{
    public static final String MIN_RETENTION_PROPERTY = "cleanup_min_retention";
    public static final String MIN_RETENTION_CONFIG = "lance.cleanup.min-retention";
    public static final String DEFAULT_RETENTION = "7d";
    public static final String AUTO_CLEANUP_PREFIX = "lance.auto_cleanup.";
    private static final String AUTO_CLEANUP_INTERVAL = AUTO_CLEANUP_PREFIX + "interval";
    private static final String AUTO_CLEANUP_OLDER_THAN = AUTO_CLEANUP_PREFIX + "older_than";

    private final ProcedureTables tables;
    private final Duration configuredMinRetention;
    private final Clock clock;

    @Inject
    public CleanupOperations(ProcedureTables tables, LanceConfig config)
    {
        this(tables, config, Clock.systemUTC());
    }

    public CleanupOperations(ProcedureTables tables, LanceConfig config, Clock clock)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.configuredMinRetention = config.getCleanupMinRetention();
        this.clock = requireNonNull(clock, "clock is null");
    }

    public Duration configuredMinRetention()
    {
        return configuredMinRetention;
    }

    /**
     * Parses and checks the threshold before anything is read, so bad input changes nothing.
     */
    public Duration retention(ConnectorSession session, SchemaTableName name, String threshold)
    {
        if (name.getTableName().contains("@")) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cleanup runs on a whole table, all branches included, not on the ref '%s'; run it on %s"
                    .formatted(name.getTableName(), new SchemaTableName(name.getSchemaName(), name.getTableName().substring(0, name.getTableName().indexOf('@')))));
        }
        Duration retention;
        try {
            retention = Duration.valueOf(requireNonNull(threshold, "threshold is null").strip());
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Invalid retention_threshold '%s' for cleanup of table %s: expected a non-negative duration such as '7d', '12h' or '30m'"
                    .formatted(threshold, name));
        }
        Duration minimum = session.getProperty(MIN_RETENTION_PROPERTY, Duration.class);
        if (retention.compareTo(minimum) < 0) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, ("Retention specified (%s) for cleanup of table %s is shorter than the minimum retention configured in the system (%s). "
                    + "Minimum retention can be changed with %s configuration property or %s session property")
                    .formatted(retention.convertToMostSuccinctTimeUnit(), name, minimum.convertToMostSuccinctTimeUnit(), MIN_RETENTION_CONFIG, MIN_RETENTION_PROPERTY));
        }
        return retention;
    }

    public CleanupReport cleanup(ConnectorSession session, SchemaTableName name, Duration retention, boolean dryRun)
    {
        LanceTable table = open(tables, session, name);
        Instant cutoff = clock.instant().minusMillis(retention.toMillis());
        return translated(() -> {
            List<LanceTable> clones = findClones(session, name, table);
            TableCleanup cleanup = new TableCleanup(table, clones,
                    pin -> tables.isInWarehouse(pin.cloneLocation()) && !LanceTable.isTable(table.fileSystem(), pin.cloneLocation()));
            return cleanup.run(cutoff, dryRun);
        });
    }

    /**
     * Tables of the warehouse whose newest version on main or on a branch reads files of {@code table} through a
     * base path: shallow clones, clones of clones, and clones the Lance SDK made.
     */
    private List<LanceTable> findClones(ConnectorSession session, SchemaTableName name, LanceTable table)
    {
        String root = Locations.normalize(table.root());
        List<LanceTable> clones = new ArrayList<>();
        for (SchemaTableName other : tables.listTables(session.getIdentity())) {
            if (other.equals(name)) {
                continue;
            }
            Optional<LanceTable> candidate;
            try {
                candidate = tables.open(session.getIdentity(), other);
            }
            catch (RuntimeException e) {
                continue;
            }
            if (candidate.isPresent() && !Locations.normalize(candidate.get().root()).equals(root) && readsFrom(candidate.get(), root)) {
                clones.add(candidate.get());
            }
        }
        return ImmutableList.copyOf(clones);
    }

    /**
     * The first version of main (where a clone starts, carrying every base path it inherited) and the newest version
     * of main and of each branch: a table reading this one has one of this table's locations among their base paths.
     */
    private static boolean readsFrom(LanceTable candidate, String root)
    {
        try {
            List<TableSnapshot> snapshots = new ArrayList<>();
            List<Long> mainVersions = candidate.listVersions(Optional.empty());
            if (!mainVersions.isEmpty()) {
                snapshots.add(candidate.snapshot(Optional.empty(), mainVersions.getFirst()));
                snapshots.add(candidate.snapshot(Optional.empty(), mainVersions.getLast()));
            }
            for (BranchRef branch : candidate.refs().listBranches()) {
                var latest = candidate.latestVersion(Optional.of(branch.name()));
                if (latest.isPresent()) {
                    snapshots.add(candidate.snapshot(Optional.of(branch.name()), latest.getAsLong()));
                }
            }
            for (TableSnapshot snapshot : snapshots) {
                for (BasePath base : snapshot.manifest().getBasePathsList()) {
                    if (Locations.isWithin(Locations.normalize(base.getPath()), root)) {
                        return true;
                    }
                }
            }
        }
        catch (LanceTableException e) {
            // whether it reads this table's files cannot be told, so nothing may be deleted
            throw new LanceTableException(e.kind(), "Cleanup cannot tell whether table %s reads files of this table (it may be a shallow clone): %s"
                    .formatted(candidate.displayName(), e.getMessage()), e);
        }
        return false;
    }

    /**
     * Removes Lance's {@code lance.auto_cleanup.*} keys from main and every branch, or sets them: with them, every
     * other Lance writer runs Lance's own cleanup after its commits, which does not know this table's branches of
     * branches, other branches' tags or clones. Returns how many datasets got a new version.
     */
    public long setAutoCleanup(ConnectorSession session, SchemaTableName name, boolean enabled, long interval, String olderThan, Map<String, String> properties)
    {
        if (enabled && interval < 0) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "interval for table %s must be 0 or more commits, not %s".formatted(name, interval));
        }
        LanceTable table = open(tables, session, name);
        return translated(() -> {
            long updated = 0;
            for (Optional<String> dataset : table.datasets()) {
                TableSnapshot head = new RefResolver(table).latest(dataset);
                Transaction.UpdateMap.Builder changes = Transaction.UpdateMap.newBuilder();
                Map<String, String> config = head.manifest().getConfigMap();
                if (enabled) {
                    putIfChanged(changes, config, AUTO_CLEANUP_INTERVAL, Long.toString(interval));
                    putIfChanged(changes, config, AUTO_CLEANUP_OLDER_THAN, olderThan);
                }
                else {
                    config.keySet().stream()
                            .filter(key -> key.startsWith(AUTO_CLEANUP_PREFIX))
                            .sorted()
                            .forEach(key -> changes.addUpdateEntries(Transaction.UpdateMapEntry.newBuilder().setKey(key)));
                }
                if (changes.getUpdateEntriesCount() == 0) {
                    continue;
                }
                Transaction transaction = Transaction.newBuilder()
                        .setReadVersion(head.version())
                        .setUuid(UUID.randomUUID().toString())
                        .putAllTransactionProperties(properties)
                        .setUpdateConfig(Transaction.UpdateConfig.newBuilder().setConfigUpdates(changes))
                        .build();
                tables.committer().commit(table, dataset, transaction);
                updated++;
            }
            return updated;
        });
    }

    private static void putIfChanged(Transaction.UpdateMap.Builder changes, Map<String, String> config, String key, String value)
    {
        if (!value.equals(config.get(key))) {
            changes.addUpdateEntries(Transaction.UpdateMapEntry.newBuilder().setKey(key).setValue(value));
        }
    }
}
