package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A three-way merge over the merge base's rows, for sides that compacted since the base: rows are followed through
 * each side's rewrites ({@link RowLineage}), so a compaction changes nothing. The base rows the source no longer has
 * are deleted wherever they now live in the target; the rows the source wrote since the base join the target (a
 * compacted fragment of the source that also holds base rows joins with those rows masked as deleted); the target's
 * own changes stay. A base fragment one side compacted while the other changed its data files cannot be followed,
 * and is a conflict no policy resolves.
 */
final class RowMergePlanner
{
    private RowMergePlanner() {}

    static MergePlan plan(TableFileSystem fileSystem, TableSnapshot base, TableSnapshot source, TableSnapshot target, RowLineage sourceRows, RowLineage targetRows, MergePolicy policy)
    {
        SchemaMerge schema = MergePlanner.schemaMerge(base, source, target, policy);
        List<MergeConflict> conflicts = new ArrayList<>();
        schema.conflict().ifPresent(conflicts::add);
        TargetBases bases = new TargetBases(target);
        List<DataFragment> baseFragments = base.manifest().getFragmentsList();
        Map<String, DataFragment> sourceByKey = byKey(source);
        Map<String, DataFragment> targetByKey = byKey(target);
        Deletions sourceDeletions = new Deletions(fileSystem, source);
        Deletions targetDeletions = new Deletions(fileSystem, target);

        RoaringBitmap[] goneOnSource = gone(fileSystem, base, sourceDeletions, sourceRows).rows();

        List<DataFragment> changed = new ArrayList<>();
        Map<DataFragment, RoaringBitmap> unions = new LinkedHashMap<>();
        List<Long> removed = new ArrayList<>();
        long rowsDeleted = 0;
        for (Map.Entry<String, DataFragment> entry : targetByKey.entrySet()) {
            String key = entry.getKey();
            DataFragment result = entry.getValue();
            if (targetRows.inPlace(key)) {
                DataFragment onBase = baseFragments.get(RowLineage.fragmentIndex(targetRows.origin(key, 0)));
                List<String> baseFiles = files(base, onBase);
                boolean targetFilesChanged = !files(target, result).equals(baseFiles);
                if (sourceRows.inPlace(key)) {
                    DataFragment onSource = sourceByKey.get(key);
                    List<String> sourceFiles = files(source, onSource);
                    boolean sourceFilesChanged = !sourceFiles.equals(baseFiles);
                    if (sourceFilesChanged && (!targetFilesChanged || policy == MergePolicy.SOURCE_WINS)) {
                        result = MergePlanner.withFilesOf(result, bases.repoint(source, onSource, schema.sourceFieldIds()));
                    }
                    if (sourceFilesChanged && targetFilesChanged && !sourceFiles.equals(files(target, entry.getValue()))) {
                        conflicts.add(new MergeConflict(MergeConflict.Kind.FRAGMENT_FILES, "fragment %s of the target (%s of the source): both sides changed its data files"
                                .formatted(result.getId(), onSource.getId())));
                    }
                }
                else if (targetFilesChanged && sourceRows.rewrote() && !goneOnSource[RowLineage.fragmentIndex(targetRows.origin(key, 0))].isEmpty()) {
                    conflicts.add(new MergeConflict(MergeConflict.Kind.FRAGMENT_REWRITTEN, "fragment %s of the target: the target changed its data files while the source compacted or deleted its rows"
                            .formatted(result.getId())));
                }
            }
            RoaringBitmap deleted = targetDeletions.of(entry.getValue());
            RoaringBitmap more = deletedBySource(key, result.getPhysicalRows(), deleted, targetRows, goneOnSource);
            if (!more.isEmpty()) {
                RoaringBitmap union = RoaringBitmap.or(deleted, more);
                rowsDeleted += more.getLongCardinality();
                if (union.getLongCardinality() >= result.getPhysicalRows()) {
                    removed.add(result.getId());
                    continue;
                }
                unions.put(result, union);
                continue;
            }
            if (!result.equals(entry.getValue())) {
                changed.add(result);
            }
        }
        // a base fragment whose data files the source changed while the target compacted it
        for (Map.Entry<String, DataFragment> entry : sourceByKey.entrySet()) {
            String key = entry.getKey();
            if (sourceRows.inPlace(key) && !targetByKey.containsKey(key) && targetRows.rewrote()) {
                DataFragment onBase = baseFragments.get(RowLineage.fragmentIndex(sourceRows.origin(key, 0)));
                if (!files(source, entry.getValue()).equals(files(base, onBase))) {
                    conflicts.add(new MergeConflict(MergeConflict.Kind.FRAGMENT_REWRITTEN, "fragment %s of the source: the source changed its data files while the target compacted or deleted its rows"
                            .formatted(entry.getValue().getId())));
                }
            }
        }

        List<DataFragment> newFragments = new ArrayList<>();
        List<RoaringBitmap> newFragmentDeletions = new ArrayList<>();
        long rowsAdded = 0;
        for (Map.Entry<String, DataFragment> entry : sourceByKey.entrySet()) {
            String key = entry.getKey();
            DataFragment fragment = entry.getValue();
            if (targetByKey.containsKey(key) || sourceRows.inPlace(key)) {
                // the target has it already, or it holds only base rows
                continue;
            }
            RoaringBitmap hidden = sourceDeletions.of(fragment).clone();
            if (sourceRows.moved(key)) {
                for (int offset = 0; offset < fragment.getPhysicalRows(); offset++) {
                    if (sourceRows.origin(key, offset) != RowLineage.NEW) {
                        hidden.add(offset);
                    }
                }
            }
            long kept = fragment.getPhysicalRows() - hidden.getLongCardinality();
            if (kept == 0) {
                continue;
            }
            newFragments.add(bases.repoint(source, fragment.toBuilder().clearDeletionFile().build(), schema.sourceFieldIds()));
            newFragmentDeletions.add(hidden);
            rowsAdded += kept;
        }
        Map<String, Optional<String>> config = MergePlanner.mergeConfig(base, source, target, policy, conflicts);
        // the target still holds the base's rows, wherever compactions moved them, and nothing else
        Gone goneOnTarget = gone(fileSystem, base, targetDeletions, targetRows);
        boolean fastForward = MergePlanner.sameSettings(base, target) && goneOnTarget.newRows() == 0
                && Arrays.stream(goneOnTarget.rows()).allMatch(RoaringBitmap::isEmpty);
        return new MergePlan(newFragments, newFragmentDeletions, changed, unions, removed, schema, config, bases, conflicts, rowsAdded, rowsDeleted, fastForward);
    }

    /**
     * @param rows per base fragment, the rows live in the base that a side no longer has
     * @param newRows the live rows the side wrote since the base
     */
    private record Gone(RoaringBitmap[] rows, long newRows) {}

    private static Gone gone(TableFileSystem fileSystem, TableSnapshot base, Deletions sideDeletions, RowLineage sideRows)
    {
        TableSnapshot side = sideDeletions.snapshot();
        long newRows = 0;
        List<DataFragment> baseFragments = base.manifest().getFragmentsList();
        RoaringBitmap[] live = new RoaringBitmap[baseFragments.size()];
        for (int i = 0; i < live.length; i++) {
            live[i] = new RoaringBitmap();
        }
        for (DataFragment fragment : side.manifest().getFragmentsList()) {
            String key = RowLineage.key(side, fragment);
            RoaringBitmap deleted = sideDeletions.of(fragment);
            if (sideRows.inPlace(key)) {
                RoaringBitmap rows = RoaringBitmap.bitmapOfRange(0, fragment.getPhysicalRows());
                rows.andNot(deleted);
                live[RowLineage.fragmentIndex(sideRows.origin(key, 0))].or(rows);
            }
            else if (sideRows.moved(key)) {
                newRows += addLiveOrigins(sideRows.movedOrigins(key), deleted, live);
            }
            else {
                newRows += fragment.getPhysicalRows() - deleted.getLongCardinality();
            }
        }
        RoaringBitmap[] gone = new RoaringBitmap[live.length];
        for (int i = 0; i < live.length; i++) {
            DataFragment fragment = baseFragments.get(i);
            gone[i] = RoaringBitmap.bitmapOfRange(0, fragment.getPhysicalRows());
            gone[i].andNot(DeletionFiles.read(fileSystem, base, fragment));
            gone[i].andNot(live[i]);
        }
        return new Gone(gone, newRows);
    }

    /**
     * Adds the base rows the live rows of a moved fragment came from to {@code live}, a run of consecutive base rows at
     * a time (a compaction keeps their order); returns how many of its live rows are new since the base.
     */
    private static long addLiveOrigins(long[] origins, RoaringBitmap deleted, RoaringBitmap[] live)
    {
        long newRows = 0;
        long runStart = -1;
        long runEnd = -1;
        for (int offset = 0; offset < origins.length; offset++) {
            if (deleted.contains(offset)) {
                continue;
            }
            long origin = origins[offset];
            if (origin == RowLineage.NEW) {
                newRows++;
                continue;
            }
            if (origin != runEnd) {
                addRun(live, runStart, runEnd);
                runStart = origin;
            }
            runEnd = origin + 1;
        }
        addRun(live, runStart, runEnd);
        return newRows;
    }

    private static void addRun(RoaringBitmap[] live, long start, long end)
    {
        if (start >= 0) {
            live[RowLineage.fragmentIndex(start)].add((long) RowLineage.offset(start), (long) RowLineage.offset(start) + (end - start));
        }
    }

    /** The live rows of a target fragment that are base rows the source no longer has. */
    private static RoaringBitmap deletedBySource(String key, long physicalRows, RoaringBitmap deleted, RowLineage targetRows, RoaringBitmap[] goneOnSource)
    {
        RoaringBitmap more = new RoaringBitmap();
        if (targetRows.inPlace(key)) {
            more.or(goneOnSource[RowLineage.fragmentIndex(targetRows.origin(key, 0))]);
        }
        else if (targetRows.moved(key)) {
            long[] origins = targetRows.movedOrigins(key);
            for (int offset = 0; offset < physicalRows; offset++) {
                long origin = origins[offset];
                if (origin != RowLineage.NEW && goneOnSource[RowLineage.fragmentIndex(origin)].contains(RowLineage.offset(origin))) {
                    more.add(offset);
                }
            }
        }
        more.andNot(deleted);
        return more;
    }

    /** Each fragment's deleted rows in one version, read once per merge (never changed in place). */
    private record Deletions(TableFileSystem fileSystem, TableSnapshot snapshot, Map<Long, RoaringBitmap> read)
    {
        Deletions(TableFileSystem fileSystem, TableSnapshot snapshot)
        {
            this(fileSystem, snapshot, new HashMap<>());
        }

        RoaringBitmap of(DataFragment fragment)
        {
            return read.computeIfAbsent(fragment.getId(), _ -> DeletionFiles.read(fileSystem, snapshot, fragment));
        }
    }

    private static Map<String, DataFragment> byKey(TableSnapshot snapshot)
    {
        Map<String, DataFragment> fragments = new LinkedHashMap<>();
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            fragments.put(RowLineage.key(snapshot, fragment), fragment);
        }
        return fragments;
    }

    private static List<String> files(TableSnapshot snapshot, DataFragment fragment)
    {
        List<String> files = new ArrayList<>();
        for (DataFile file : fragment.getFilesList()) {
            files.add(FilePaths.dataFile(snapshot, fragment, file));
        }
        return files;
    }
}
