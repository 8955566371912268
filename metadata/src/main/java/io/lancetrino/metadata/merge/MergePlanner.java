package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Field;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A three-way merge at fragment granularity. Fragments are matched across the three versions by the location of
 * their first data file, which never changes while a fragment lives (ids do: each side numbers its new fragments
 * from the same base). Deleted rows of a fragment both sides share are unioned; the source's new fragments join the
 * target; a fragment whose data files both sides changed, a schema changed incompatibly on both sides and a config
 * key set differently on both sides are conflicts.
 */
final class MergePlanner
{
    /** Keys a clone carries about its own origin; never merged into the table it came from */
    private static final String CLONE_CONFIG_PREFIX = "lance.clone.";

    private MergePlanner() {}

    private record Entry(TableSnapshot snapshot, DataFragment fragment)
    {
        String deletionKey()
        {
            return FilePaths.deletionFile(snapshot, fragment).orElse("");
        }

        List<String> fileKeys()
        {
            return fragment.getFilesList().stream().map(file -> FilePaths.dataFile(snapshot, fragment, file)).toList();
        }

        long liveRows()
        {
            return fragment.getPhysicalRows() - (fragment.hasDeletionFile() ? fragment.getDeletionFile().getNumDeletedRows() : 0);
        }
    }

    /**
     * The plan where no rows moved since the base on either side (no compaction), so fragments match by location.
     */
    static MergePlan plan(TableFileSystem fileSystem, TableSnapshot base, TableSnapshot source, TableSnapshot target, MergePolicy policy)
    {
        Map<String, Entry> baseFragments = index(base);
        Map<String, Entry> sourceFragments = index(source);
        Map<String, Entry> targetFragments = index(target);
        SchemaMerge schema = schemaMerge(base, source, target, policy);
        List<MergeConflict> conflicts = new ArrayList<>();
        schema.conflict().ifPresent(conflicts::add);
        TargetBases bases = new TargetBases(target);

        List<DataFragment> newFragments = new ArrayList<>();
        List<RoaringBitmap> newFragmentDeletions = new ArrayList<>();
        List<DataFragment> changed = new ArrayList<>();
        Map<DataFragment, RoaringBitmap> unions = new LinkedHashMap<>();
        List<Long> removed = new ArrayList<>();
        long rowsAdded = 0;
        long rowsDeleted = 0;
        for (Map.Entry<String, Entry> entry : sourceFragments.entrySet()) {
            if (!baseFragments.containsKey(entry.getKey()) && !targetFragments.containsKey(entry.getKey())) {
                // a deletion file is named by its fragment's id, which the target gives at commit: the rows are written again then
                DataFragment fragment = entry.getValue().fragment();
                newFragments.add(bases.repoint(source, fragment.toBuilder().clearDeletionFile().build(), schema.sourceFieldIds()));
                newFragmentDeletions.add(DeletionFiles.read(fileSystem, source, fragment));
                rowsAdded += entry.getValue().liveRows();
            }
        }
        for (Map.Entry<String, Entry> entry : targetFragments.entrySet()) {
            Entry onTarget = entry.getValue();
            Entry onBase = baseFragments.get(entry.getKey());
            Entry onSource = sourceFragments.get(entry.getKey());
            if (onSource == null) {
                if (onBase != null) {
                    // the source deleted every row of it: deleted rows of a fragment are unioned, so it goes
                    removed.add(onTarget.fragment().getId());
                    rowsDeleted += onTarget.liveRows();
                }
                continue;
            }
            DataFragment result = onTarget.fragment();
            List<String> baseFiles = onBase == null ? onTarget.fileKeys() : onBase.fileKeys();
            boolean sourceFilesChanged = !onSource.fileKeys().equals(baseFiles);
            boolean targetFilesChanged = !onTarget.fileKeys().equals(baseFiles);
            if (sourceFilesChanged && (!targetFilesChanged || policy == MergePolicy.SOURCE_WINS)) {
                result = withFilesOf(result, bases.repoint(source, onSource.fragment(), schema.sourceFieldIds()));
            }
            if (sourceFilesChanged && targetFilesChanged && !onSource.fileKeys().equals(onTarget.fileKeys())) {
                conflicts.add(new MergeConflict(MergeConflict.Kind.FRAGMENT_FILES, "fragment %s of the target (%s of the source): both sides changed its data files"
                        .formatted(onTarget.fragment().getId(), onSource.fragment().getId())));
            }
            String sourceDeletion = onSource.deletionKey();
            boolean deletionsChanged = !sourceDeletion.equals(onTarget.deletionKey()) && (onBase == null || !sourceDeletion.equals(onBase.deletionKey()));
            if (deletionsChanged) {
                RoaringBitmap targetRows = DeletionFiles.read(fileSystem, target, onTarget.fragment());
                RoaringBitmap union = RoaringBitmap.or(targetRows, DeletionFiles.read(fileSystem, source, onSource.fragment()));
                rowsDeleted += union.getLongCardinality() - targetRows.getLongCardinality();
                if (union.getLongCardinality() >= result.getPhysicalRows()) {
                    removed.add(result.getId());
                    continue;
                }
                if (union.getLongCardinality() > targetRows.getLongCardinality()) {
                    unions.put(result, union);
                    continue;
                }
            }
            if (!result.equals(onTarget.fragment())) {
                changed.add(result);
            }
        }
        Map<String, Optional<String>> config = mergeConfig(base, source, target, policy, conflicts);
        boolean fastForward = sameContent(fileSystem, base, target);
        return new MergePlan(newFragments, newFragmentDeletions, changed, unions, removed, schema, config, bases, conflicts, rowsAdded, rowsDeleted, fastForward);
    }

    static SchemaMerge schemaMerge(TableSnapshot base, TableSnapshot source, TableSnapshot target, MergePolicy policy)
    {
        int firstFreshId = Stream.of(base, source, target)
                .flatMap(snapshot -> Stream.concat(snapshot.manifest().getFieldsList().stream().map(Field::getId), dataFieldIds(snapshot).stream()))
                .mapToInt(Integer::intValue)
                .max().orElse(-1) + 1;
        return SchemaMerge.of(base.manifest().getFieldsList(), source.manifest().getFieldsList(), target.manifest().getFieldsList(), dataFieldIds(target), firstFreshId, policy);
    }

    /**
     * Whether two versions hold the same fragments with the same deleted rows, columns and config: then the second has
     * not moved since the first and a merge into it is a fast-forward. Deleted rows are compared, not deletion file
     * locations: a merge writes the rows it brings over into a deletion file of the target's own.
     */
    static boolean sameContent(TableFileSystem fileSystem, TableSnapshot first, TableSnapshot second)
    {
        if (!sameSettings(first, second)) {
            return false;
        }
        Map<String, Entry> firstFragments = index(first);
        Map<String, Entry> secondFragments = index(second);
        if (!firstFragments.keySet().equals(secondFragments.keySet())) {
            return false;
        }
        for (Map.Entry<String, Entry> entry : firstFragments.entrySet()) {
            Entry onFirst = entry.getValue();
            Entry onSecond = secondFragments.get(entry.getKey());
            if (!onFirst.fileKeys().equals(onSecond.fileKeys()) || onFirst.liveRows() != onSecond.liveRows()) {
                return false;
            }
            if (!onFirst.deletionKey().equals(onSecond.deletionKey())
                    && !DeletionFiles.read(fileSystem, first, onFirst.fragment()).equals(DeletionFiles.read(fileSystem, second, onSecond.fragment()))) {
                return false;
            }
        }
        return true;
    }

    /** The same columns and config. */
    static boolean sameSettings(TableSnapshot first, TableSnapshot second)
    {
        return first.manifest().getFieldsList().equals(second.manifest().getFieldsList()) && config(first).equals(config(second));
    }

    private static Set<Integer> dataFieldIds(TableSnapshot snapshot)
    {
        Set<Integer> ids = new HashSet<>();
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            for (DataFile file : fragment.getFilesList()) {
                ids.addAll(file.getFieldsList());
            }
        }
        return ids;
    }

    static DataFragment withFilesOf(DataFragment target, DataFragment source)
    {
        return target.toBuilder().clearFiles().addAllFiles(source.getFilesList()).build();
    }

    static Map<String, Optional<String>> mergeConfig(TableSnapshot base, TableSnapshot source, TableSnapshot target, MergePolicy policy, List<MergeConflict> conflicts)
    {
        Map<String, String> onBase = config(base);
        Map<String, String> onSource = config(source);
        Map<String, String> onTarget = config(target);
        Set<String> keys = new HashSet<>(onBase.keySet());
        keys.addAll(onSource.keySet());
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        for (String key : keys.stream().sorted().toList()) {
            String sourceValue = onSource.get(key);
            String targetValue = onTarget.get(key);
            if (Objects.equals(sourceValue, onBase.get(key)) || Objects.equals(sourceValue, targetValue)) {
                continue;
            }
            if (!Objects.equals(targetValue, onBase.get(key))) {
                conflicts.add(new MergeConflict(MergeConflict.Kind.CONFIG, "config key '%s': source %s, target %s, base %s"
                        .formatted(key, describe(sourceValue), describe(targetValue), describe(onBase.get(key)))));
                if (policy != MergePolicy.SOURCE_WINS) {
                    continue;
                }
            }
            changes.put(key, Optional.ofNullable(sourceValue));
        }
        return changes;
    }

    private static Map<String, String> config(TableSnapshot snapshot)
    {
        Map<String, String> config = new HashMap<>(snapshot.manifest().getConfigMap());
        config.keySet().removeIf(key -> key.startsWith(CLONE_CONFIG_PREFIX));
        return config;
    }

    private static String describe(String value)
    {
        return value == null ? "unset" : "'" + value + "'";
    }

    private static Map<String, Entry> index(TableSnapshot snapshot)
    {
        Map<String, Entry> fragments = new LinkedHashMap<>();
        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
            DataFile first = fragment.getFiles(0);
            fragments.put(FilePaths.dataFile(snapshot, fragment, first), new Entry(snapshot, fragment));
        }
        return fragments;
    }
}
