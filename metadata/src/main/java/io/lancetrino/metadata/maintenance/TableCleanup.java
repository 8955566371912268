package io.lancetrino.metadata.maintenance;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.clone.ClonePin;
import io.lancetrino.metadata.clone.ClonePins;
import io.lancetrino.metadata.commit.ManifestBuilder;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.maintenance.DatasetFiles.StoredFile;
import io.lancetrino.metadata.merge.MergeBases;
import io.lancetrino.metadata.merge.MergeRecords;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.Branches;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.refs.TagRef;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Mark and sweep over a whole table. Marked: every version of main and of every branch that is the newest, tagged,
 * a branch's fork point, a clone's source, a merge's commit or source, or committed after the cutoff, and every
 * version of every known clone; with all the files those manifests reach through base paths. Swept: only the table's
 * own dataset directories (main's and each {@code tree/<branch>/}); a file goes if nothing marked names it and it was
 * written before the cutoff, so a write in flight keeps its files. Manifests go before the files they name, so an
 * interrupted cleanup leaves unreferenced files, never a version with missing files.
 */
public final class TableCleanup
{
    private final LanceTable table;
    private final List<LanceTable> clones;
    private final Predicate<ClonePin> pinIsStale;

    /**
     * @param clones other datasets known to read files of this table through base paths (shallow clones, found by
     * the caller); all their versions are marked
     * @param pinIsStale whether a clone pin's clone no longer exists, so the pin no longer protects its version
     */
    public TableCleanup(LanceTable table, List<LanceTable> clones, Predicate<ClonePin> pinIsStale)
    {
        this.table = requireNonNull(table, "table is null");
        this.clones = ImmutableList.copyOf(clones);
        this.pinIsStale = requireNonNull(pinIsStale, "pinIsStale is null");
    }

    private record Point(Optional<String> branch, long version) {}

    private record Expired(Point point, String manifestLocation) {}

    // a version's manifest with the directory of the dataset it belongs to
    private record Read(String datasetLocation, ManifestFile manifestFile) {}

    private final class Mark
    {
        final FileReferences live = new FileReferences();
        final FileReferences expiredReferences = new FileReferences();
        final Map<Point, KeepReason> kept = new LinkedHashMap<>();
        final Map<Point, Expired> expired = new LinkedHashMap<>();
        final Set<Point> seen = new HashSet<>();
        final Set<Optional<String>> datasets = new HashSet<>();
        final List<ClonePin> stalePins = new ArrayList<>();
        // what the clones found by the caller were made from, read once for both marking passes
        final List<Point> cloneSources;

        Mark(List<Point> cloneSources)
        {
            this.cloneSources = cloneSources;
        }

        void keep(Point point, KeepReason reason, Read read)
        {
            kept.put(point, reason);
            live.add(read.datasetLocation(), read.manifestFile());
        }
    }

    public CleanupReport run(Instant cutoff, boolean dryRun)
    {
        try {
            Mark mark = new Mark(clones.stream().map(this::cloneSource).flatMap(Optional::stream).toList());
            markTable(mark, cutoff);
            for (LanceTable clone : clones) {
                markEverything(mark.live, clone);
            }
            List<StoredFile> candidates = sweepCandidates(mark, cutoff);
            // versions, refs and clones created while this ran are marked before anything is deleted
            markTable(mark, cutoff);
            Set<String> expiredManifests = expiredManifests(mark);
            candidates = candidates.stream()
                    .filter(file -> !mark.live.contains(file.normalized()))
                    .filter(file -> file.version().isEmpty() || file.kind() == FileKind.ORPHAN || expiredManifests.contains(file.normalized()))
                    .toList();
            return sweep(mark, candidates, dryRun);
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot clean up table %s: %s".formatted(table.displayName(), e.getMessage()), e);
        }
    }

    private static Set<String> expiredManifests(Mark mark)
    {
        Set<String> locations = new HashSet<>();
        mark.expired.values().forEach(expired -> locations.add(Locations.normalize(expired.manifestLocation())));
        return locations;
    }

    /**
     * Decides every version not decided yet; a second call picks up what changed since the first.
     */
    private void markTable(Mark mark, Instant cutoff)
    {
        List<BranchRef> branches = table.refs().listBranches();
        Map<Point, KeepReason> protectedVersions = protectedVersions(mark, branches, cutoff);
        List<Optional<String>> datasets = new ArrayList<>();
        datasets.add(Optional.empty());
        branches.forEach(branch -> datasets.add(Optional.of(branch.name())));
        Set<Point> mergeRelated = new HashSet<>();
        Map<Optional<String>, Long> historyStarts = mergeHistoryStarts(mark, branches, cutoff);
        for (Optional<String> dataset : datasets) {
            mark.datasets.add(dataset);
            String location = table.datasetLocation(dataset);
            List<ManifestScanner.VersionFile> versions = ManifestScanner.list(table, dataset);
            long historyStart = historyStarts.getOrDefault(dataset, Long.MAX_VALUE);
            // the version before, while it is undecided or expired: kept too if fragments went in this one
            Point previousPoint = null;
            Read previousRead = null;
            for (int i = 0; i < versions.size(); i++) {
                ManifestScanner.VersionFile file = versions.get(i);
                Point point = new Point(dataset, file.version());
                boolean latest = i == versions.size() - 1;
                KeepReason reason = latest ? KeepReason.LATEST : protectedVersions.get(point);
                Point before = previousPoint;
                Read beforeRead = previousRead;
                previousPoint = null;
                previousRead = null;
                if (mark.seen.contains(point)) {
                    // decided before; a version may only become protected later (a new tag or branch)
                    KeepReason late = reason;
                    if (late != null && mark.expired.remove(point) != null) {
                        ManifestScanner.read(table, file).ifPresent(manifest -> mark.keep(point, late, new Read(location, manifest)));
                    }
                    continue;
                }
                mark.seen.add(point);
                Optional<ManifestFile> manifest = ManifestScanner.read(table, file);
                if (manifest.isEmpty()) {
                    continue;
                }
                Read read = new Read(location, manifest.get());
                // read once: whether it is a clone's first version, a merge commit or a compaction
                Optional<Transaction> transaction = Transactions.read(table.fileSystem(), location, manifest.get());
                previousPoint = point;
                previousRead = read;
                if (reason == null && !RefResolver.commitTime(manifest.get().manifest()).isBefore(cutoff)) {
                    reason = KeepReason.WITHIN_RETENTION;
                }
                if (i == 0 && dataset.isEmpty() && transaction.map(Transaction::hasClone).orElse(false)) {
                    // a clone's first version records where it came from, which merging it back needs, and the
                    // merge follows the clone's rows from there
                    historyStart = Math.min(historyStart, file.version());
                    if (reason == null) {
                        reason = KeepReason.BRANCH_POINT;
                    }
                }
                // every merge commit keeps the version it brought over, whatever keeps the commit itself: later
                // merges find their base through it
                Optional<Point> link = mergeLink(transaction, branches);
                link.ifPresent(mergeRelated::add);
                if (reason == null && link.isPresent()) {
                    reason = KeepReason.BRANCH_POINT;
                }
                if (file.version() > historyStart && before != null && before.version() == file.version() - 1 && fragmentsWent(beforeRead, read)) {
                    if (reason == null) {
                        reason = KeepReason.MERGE_HISTORY;
                    }
                    // a merge follows rows through a compaction by the deletion files its sources had when it read
                    // them, which the version before may no longer list (deletions made while it ran)
                    rewriteSources(transaction).ifPresent(sources -> mark.live.addDeletionFiles(location, read.manifestFile(), sources));
                    if (mark.expired.remove(before) != null) {
                        mark.keep(before, KeepReason.MERGE_HISTORY, beforeRead);
                    }
                }
                if (reason == null) {
                    mark.expired.put(point, new Expired(point, file.location()));
                    mark.expiredReferences.add(location, manifest.get());
                }
                else {
                    mark.keep(point, reason, read);
                }
            }
        }
        // the versions kept merges brought over, found only once every merge commit was read
        for (Point point : mergeRelated) {
            Expired expired = point.version() >= 0 ? mark.expired.remove(point) : null;
            if (expired != null) {
                ManifestScanner.read(table, new ManifestScanner.VersionFile(point.version(), expired.manifestLocation()))
                        .ifPresent(manifest -> mark.keep(point, KeepReason.BRANCH_POINT, new Read(table.datasetLocation(point.branch()), manifest)));
            }
        }
    }

    /**
     * Where a merge follows rows from, per dataset: every version of a branch, and on a branch (or main) the versions
     * after the first version a branch, a clone pin or a clone found by scanning was made from.
     */
    private Map<Optional<String>, Long> mergeHistoryStarts(Mark mark, List<BranchRef> branches, Instant cutoff)
    {
        Map<Optional<String>, Long> starts = new HashMap<>();
        for (BranchRef branch : branches) {
            starts.put(Optional.of(branch.name()), 0L);
        }
        for (BranchRef branch : branches) {
            starts.merge(RefResolver.branch(branch.parentBranch()), branch.parentVersion(), Math::min);
        }
        for (ClonePin pin : new ClonePins(table.fileSystem(), table.root()).list()) {
            if (!(pin.createdAt().isBefore(cutoff) && pinIsStale.test(pin))) {
                starts.merge(RefResolver.branch(pin.sourceBranch()), pin.sourceVersion(), Math::min);
            }
        }
        mark.cloneSources.forEach(point -> starts.merge(point.branch(), point.version(), Math::min));
        return starts;
    }

    /** Whether a fragment of the first version is gone in the second: compacted, or all its rows deleted. */
    private static boolean fragmentsWent(Read before, Read after)
    {
        Set<String> remaining = new HashSet<>();
        after.manifestFile().manifest().getFragmentsList().forEach(fragment -> remaining.add(fragmentKey(fragment)));
        return before.manifestFile().manifest().getFragmentsList().stream().anyMatch(fragment -> !remaining.contains(fragmentKey(fragment)));
    }

    private static String fragmentKey(DataFragment fragment)
    {
        DataFile first = fragment.getFiles(0);
        return (first.hasBaseId() ? first.getBaseId() : -1) + ":" + first.getPath();
    }

    private static Optional<List<DataFragment>> rewriteSources(Optional<Transaction> transaction)
    {
        return transaction
                .filter(Transaction::hasRewrite)
                .map(rewrite -> ManifestBuilder.rewriteGroups(rewrite.getRewrite()).stream()
                        .flatMap(group -> group.getOldFragmentsList().stream())
                        .toList());
    }

    /**
     * A merge commit whose source still exists keeps itself and the source version it brought over, so later merges
     * find their base; returns the source version ({@code -1} for a clone source, whose versions live elsewhere).
     */
    private static Optional<Point> mergeLink(Optional<Transaction> transaction, List<BranchRef> branches)
    {
        if (transaction.isEmpty() || !MergeRecords.isMergeCommit(transaction.get())) {
            return Optional.empty();
        }
        Optional<MergeRecords.BranchVersion> source = MergeRecords.mergedBranchVersion(transaction.get());
        if (source.isEmpty()) {
            return Optional.of(new Point(Optional.empty(), -1));
        }
        Optional<String> branch = source.get().branch();
        if (branch.isPresent() && branches.stream().noneMatch(ref -> ref.name().equals(branch.get()))) {
            return Optional.empty();
        }
        return Optional.of(new Point(branch, source.get().version()));
    }

    private Map<Point, KeepReason> protectedVersions(Mark mark, List<BranchRef> branches, Instant cutoff)
    {
        Map<Point, KeepReason> versions = new HashMap<>();
        for (TagRef tag : table.refs().listTags()) {
            versions.putIfAbsent(new Point(RefResolver.branch(tag.branch()), tag.version()), KeepReason.TAGGED);
        }
        for (BranchRef branch : branches) {
            versions.putIfAbsent(new Point(RefResolver.branch(branch.parentBranch()), branch.parentVersion()), KeepReason.BRANCH_POINT);
        }
        for (ClonePin pin : new ClonePins(table.fileSystem(), table.root()).list()) {
            // a pin is written before its clone, so only an old pin without a clone is stale
            if (pin.createdAt().isBefore(cutoff) && pinIsStale.test(pin)) {
                if (mark.stalePins.stream().noneMatch(stale -> stale.id().equals(pin.id()))) {
                    mark.stalePins.add(pin);
                }
                continue;
            }
            versions.putIfAbsent(new Point(RefResolver.branch(pin.sourceBranch()), pin.sourceVersion()), KeepReason.CLONE_SOURCE);
        }
        mark.cloneSources.forEach(point -> versions.putIfAbsent(point, KeepReason.CLONE_SOURCE));
        return versions;
    }

    // the version of this table a clone found by scanning was made from, if its first version says so
    private Optional<Point> cloneSource(LanceTable clone)
    {
        Transaction.Clone origin;
        try {
            origin = MergeBases.cloneOrigin(clone);
        }
        catch (LanceTableException e) {
            return Optional.empty();
        }
        String source = Locations.normalize(origin.getRefPath());
        Optional<String> branch = origin.hasRefName() ? RefResolver.branch(Optional.of(origin.getRefName())) : Optional.empty();
        if (!source.equals(Locations.normalize(table.datasetLocation(branch)))) {
            return Optional.empty();
        }
        return Optional.of(new Point(branch, origin.getRefVersion()));
    }

    /**
     * Every version of every dataset of a table: what a clone can still read.
     */
    static void markEverything(FileReferences references, LanceTable other)
    {
        for (Optional<String> dataset : other.datasets()) {
            String location = other.datasetLocation(dataset);
            for (ManifestScanner.VersionFile file : ManifestScanner.list(other, dataset)) {
                ManifestScanner.read(other, file).ifPresent(manifest -> references.add(location, manifest));
            }
        }
    }

    private List<StoredFile> sweepCandidates(Mark mark, Instant cutoff)
            throws IOException
    {
        long cutoffMillis = cutoff.toEpochMilli();
        Set<String> expiredManifests = expiredManifests(mark);
        List<StoredFile> candidates = new ArrayList<>();
        for (Optional<String> dataset : mark.datasets) {
            for (StoredFile file : DatasetFiles.list(table.fileSystem(), table.datasetLocation(dataset))) {
                if (mark.live.contains(file.normalized())) {
                    continue;
                }
                if (file.version().isPresent()) {
                    // a manifest is removed only as an expired version; one not decided on was committed meanwhile
                    if (expiredManifests.contains(file.normalized())) {
                        candidates.add(file);
                    }
                }
                else if (file.lastModifiedMillis() < cutoffMillis) {
                    candidates.add(mark.expiredReferences.contains(file.normalized()) ? file : asOrphan(file));
                }
            }
        }
        for (String stray : strayDatasets(mark)) {
            for (StoredFile file : DatasetFiles.list(table.fileSystem(), stray)) {
                if (!mark.live.contains(file.normalized()) && file.lastModifiedMillis() < cutoffMillis) {
                    candidates.add(asOrphan(new StoredFile(file.location(), file.normalized(), file.kind(), file.length(), file.lastModifiedMillis(), Optional.empty())));
                }
            }
        }
        return candidates;
    }

    private static StoredFile asOrphan(StoredFile file)
    {
        return new StoredFile(file.location(), file.normalized(), FileKind.ORPHAN, file.length(), file.lastModifiedMillis(), file.version());
    }

    /**
     * Directories under {@code tree/} holding dataset files without a branch ref: what a failed branch creation left.
     */
    private List<String> strayDatasets(Mark mark)
            throws IOException
    {
        Set<String> branchLocations = new HashSet<>();
        mark.datasets.forEach(dataset -> branchLocations.add(table.datasetLocation(dataset)));
        List<String> stray = new ArrayList<>();
        collectStray(TableFileSystem.join(table.root(), "tree"), branchLocations, stray);
        return stray;
    }

    private void collectStray(String directory, Set<String> branchLocations, List<String> stray)
            throws IOException
    {
        for (String child : table.fileSystem().listDirectories(directory)) {
            if (Branches.DATASET_DIRECTORIES.contains(child)) {
                continue;
            }
            String location = TableFileSystem.join(directory, child);
            List<String> children = table.fileSystem().listDirectories(location);
            if (!branchLocations.contains(location) && children.stream().anyMatch(Branches.DATASET_DIRECTORIES::contains)) {
                stray.add(location);
            }
            collectStray(location, branchLocations, stray);
        }
    }

    private CleanupReport sweep(Mark mark, List<StoredFile> candidates, boolean dryRun)
            throws IOException
    {
        CleanupReport.Builder report = new CleanupReport.Builder();
        mark.kept.values().forEach(report::versionKept);
        mark.expired.keySet().forEach(_ -> report.versionRemoved());
        TableFileSystem fileSystem = table.fileSystem();
        // manifests first: a version disappears before any file it names
        List<StoredFile> ordered = new ArrayList<>();
        candidates.stream().filter(file -> file.version().isPresent()).forEach(ordered::add);
        candidates.stream().filter(file -> file.version().isEmpty()).forEach(ordered::add);
        for (StoredFile file : ordered) {
            if (!dryRun) {
                try {
                    fileSystem.deleteFile(file.location());
                }
                catch (FileNotFoundException e) {
                    continue;
                }
            }
            report.fileRemoved(file.kind(), file.length());
        }
        if (!dryRun) {
            ClonePins pins = new ClonePins(fileSystem, table.root());
            for (ClonePin pin : mark.stalePins) {
                pins.delete(pin.id());
            }
        }
        return report.build();
    }
}
