package io.lancetrino.metadata;

import com.google.common.collect.ImmutableList;
import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LanceSchema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * What one version changed, derived from its manifest and the manifest it follows (the previous version of the same
 * branch, the parent version for a branch's first version, or an empty manifest for a table's first version): the
 * manifests are complete, so this works for versions written by any engine, with or without a transaction.
 *
 * <p>Fragments are matched by id and columns by field id, so a renamed column is a rename and not a drop and an add.
 * A fragment that keeps its id but none of its data files (ids restart after an overwrite) counts as removed and
 * added. Files are compared by path only: a branch or clone refers to its parent's files through a base path, which
 * is not a change of the data.
 */
public record VersionChanges(List<Change> changes)
{
    private static final int MAX_VALUE_LENGTH = 100;
    private static final Pattern PLAIN_VALUE = Pattern.compile("[A-Za-z0-9_.:/+-]+");

    public VersionChanges
    {
        changes = ImmutableList.copyOf(changes);
    }

    /**
     * One change; {@link #describe()} is one readable sentence, e.g. {@code added fragment 3 (1000 rows)}.
     */
    public sealed interface Change
    {
        String describe();
    }

    public record FragmentAdded(long fragmentId, long physicalRows, long deletedRows)
            implements Change
    {
        @Override
        public String describe()
        {
            return "added fragment %s (%s%s)".formatted(fragmentId, rows(physicalRows), deletedRows == 0 ? "" : ", %s deleted".formatted(deletedRows));
        }
    }

    /**
     * @param physicalRows rows the fragment held, deleted ones included
     * @param deletedRows rows already deleted before the fragment was removed
     */
    public record FragmentRemoved(long fragmentId, long physicalRows, long deletedRows)
            implements Change
    {
        public long liveRows()
        {
            return physicalRows - deletedRows;
        }

        @Override
        public String describe()
        {
            return "removed fragment %s (%s)".formatted(fragmentId, rows(liveRows()));
        }
    }

    /**
     * The fragment's deletion vector changed: usually rows were deleted (a DELETE, or the old rows of an UPDATE).
     */
    public record DeletionsChanged(long fragmentId, long physicalRows, long deletedBefore, long deletedAfter)
            implements Change
    {
        @Override
        public String describe()
        {
            if (deletedAfter >= deletedBefore) {
                return "deleted %s in fragment %s (now %s of %s deleted)".formatted(rows(deletedAfter - deletedBefore), fragmentId, deletedAfter, physicalRows);
            }
            return "restored %s in fragment %s (now %s of %s deleted)".formatted(rows(deletedBefore - deletedAfter), fragmentId, deletedAfter, physicalRows);
        }
    }

    /**
     * The fragment kept some of its data files and gained or lost others (a column added with data, a column rewritten).
     */
    public record DataFilesChanged(long fragmentId, long physicalRows, List<String> addedFiles, List<String> removedFiles)
            implements Change
    {
        public DataFilesChanged
        {
            addedFiles = ImmutableList.copyOf(addedFiles);
            removedFiles = ImmutableList.copyOf(removedFiles);
        }

        @Override
        public String describe()
        {
            return "changed data files of fragment %s (%s added, %s removed)".formatted(fragmentId, addedFiles.size(), removedFiles.size());
        }
    }

    /**
     * @param name the path of the column, {@code parent.child} for a nested field
     */
    public record ColumnAdded(int fieldId, String name, String logicalType)
            implements Change
    {
        @Override
        public String describe()
        {
            return "added column %s (id %s)".formatted(name, fieldId);
        }
    }

    public record ColumnDropped(int fieldId, String name, String logicalType)
            implements Change
    {
        @Override
        public String describe()
        {
            return "dropped column %s (id %s)".formatted(name, fieldId);
        }
    }

    public record ColumnRenamed(int fieldId, String from, String to)
            implements Change
    {
        @Override
        public String describe()
        {
            return "renamed column %s to %s (id %s)".formatted(from, to, fieldId);
        }
    }

    public record ColumnTypeChanged(int fieldId, String name, String from, String to)
            implements Change
    {
        @Override
        public String describe()
        {
            return "changed type of column %s from %s to %s (id %s)".formatted(name, from, to, fieldId);
        }
    }

    public record ColumnNullabilityChanged(int fieldId, String name, boolean nullable)
            implements Change
    {
        @Override
        public String describe()
        {
            return "made column %s %s (id %s)".formatted(name, nullable ? "nullable" : "not null", fieldId);
        }
    }

    /**
     * A key of a field's metadata; {@code comment} is where column comments live.
     */
    public record ColumnMetadataChanged(int fieldId, String name, String key, Optional<String> before, Optional<String> after)
            implements Change
    {
        @Override
        public String describe()
        {
            String what = key.equals("comment") ? "comment" : "metadata " + key;
            return "%s of column %s %s (id %s)".formatted(what, name, setOrRemoved(before, after), fieldId);
        }
    }

    public record ConfigChanged(String key, Optional<String> before, Optional<String> after)
            implements Change
    {
        @Override
        public String describe()
        {
            return "config %s %s".formatted(key, setOrRemoved(before, after));
        }
    }

    public record TableMetadataChanged(String key, Optional<String> before, Optional<String> after)
            implements Change
    {
        @Override
        public String describe()
        {
            return "table metadata %s %s".formatted(key, setOrRemoved(before, after));
        }
    }

    /**
     * A key of the Arrow schema metadata (values read as UTF-8).
     */
    public record SchemaMetadataChanged(String key, Optional<String> before, Optional<String> after)
            implements Change
    {
        @Override
        public String describe()
        {
            return "schema metadata %s %s".formatted(key, setOrRemoved(before, after));
        }
    }

    public record BasePathAdded(int id, String path)
            implements Change
    {
        @Override
        public String describe()
        {
            return "added base path %s (%s)".formatted(id, path);
        }
    }

    public record BasePathRemoved(int id, String path)
            implements Change
    {
        @Override
        public String describe()
        {
            return "removed base path %s (%s)".formatted(id, path);
        }
    }

    /**
     * The changes of a table's first version: everything in it is new.
     */
    public static VersionChanges initial(Manifest first)
    {
        return between(Manifest.getDefaultInstance(), first, false);
    }

    /**
     * Columns are matched by field id: a field that keeps its id and type but changes its name is renamed.
     */
    public static VersionChanges between(Manifest previous, Manifest current)
    {
        return between(previous, current, false);
    }

    /**
     * @param schemaReplaced the version replaced the whole schema (an {@code Overwrite}): a field id that now has
     * another name or type is a different column, dropped and added, never renamed
     */
    public static VersionChanges between(Manifest previous, Manifest current, boolean schemaReplaced)
    {
        requireNonNull(previous, "previous is null");
        requireNonNull(current, "current is null");
        List<Change> changes = new ArrayList<>();
        diffSchema(LanceSchema.fromManifest(previous), LanceSchema.fromManifest(current), schemaReplaced, changes);
        diffFragments(previous.getFragmentsList(), current.getFragmentsList(), changes);
        diffMap(previous.getConfigMap(), current.getConfigMap(), ConfigChanged::new, changes);
        diffMap(previous.getTableMetadataMap(), current.getTableMetadataMap(), TableMetadataChanged::new, changes);
        diffMap(utf8(previous.getSchemaMetadataMap()), utf8(current.getSchemaMetadataMap()), SchemaMetadataChanged::new, changes);
        diffBasePaths(previous.getBasePathsList(), current.getBasePathsList(), changes);
        return new VersionChanges(changes);
    }

    /**
     * The manifest a version's changes are measured against: the previous version of its branch; for the first version
     * of a branch, the parent version it was created from; for version 1 of main, an empty manifest. Empty when that
     * manifest no longer exists (cleaned up, or the version is a clone of another dataset).
     */
    public static Optional<Manifest> previousManifest(LanceTable table, TableSnapshot snapshot)
    {
        Optional<TableSnapshot> previous = previousSnapshot(table, snapshot);
        if (previous.isPresent()) {
            return Optional.of(previous.get().manifest());
        }
        return snapshot.branch().isEmpty() && snapshot.version() == 1 ? Optional.of(Manifest.getDefaultInstance()) : Optional.empty();
    }

    /**
     * The version a version follows on its lineage: the previous version of its branch, or for the first version of a
     * branch the parent version it was created from. Empty for version 1 of main and when that version no longer exists.
     */
    public static Optional<TableSnapshot> previousSnapshot(LanceTable table, TableSnapshot snapshot)
    {
        Optional<String> branch = snapshot.branch();
        long version = snapshot.version();
        if (version > 1 && table.manifestLocation(branch, version - 1).isPresent()) {
            return Optional.of(table.snapshot(branch, version - 1));
        }
        if (branch.isEmpty()) {
            return Optional.empty();
        }
        Optional<BranchRef> ref = table.refs().getBranch(branch.get());
        if (ref.isEmpty() || ref.get().parentVersion() != version) {
            return Optional.empty();
        }
        Optional<String> parent = RefResolver.branch(ref.get().parentBranch());
        if (table.manifestLocation(parent, version).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(table.snapshot(parent, version));
    }

    public boolean isEmpty()
    {
        return changes.isEmpty();
    }

    public List<String> describe()
    {
        return describe(Integer.MAX_VALUE);
    }

    /**
     * One sentence per change; beyond {@code maxPerKind} fragment changes of one kind (an overwrite of a large table),
     * the rest are summed up in one sentence.
     */
    public List<String> describe(int maxPerKind)
    {
        ImmutableList.Builder<String> lines = ImmutableList.builder();
        Map<Class<?>, List<Change>> overflow = new LinkedHashMap<>();
        Map<Class<?>, Integer> counts = new LinkedHashMap<>();
        for (Change change : changes) {
            int count = counts.merge(change.getClass(), 1, Integer::sum);
            if (count > maxPerKind && isFragmentChange(change)) {
                overflow.computeIfAbsent(change.getClass(), _ -> new ArrayList<>()).add(change);
            }
            else {
                lines.add(change.describe());
            }
        }
        overflow.forEach((kind, rest) -> lines.add(summarize(rest, maxPerKind > 0 ? " more" : "")));
        return lines.build();
    }

    private static boolean isFragmentChange(Change change)
    {
        return change instanceof FragmentAdded || change instanceof FragmentRemoved || change instanceof DeletionsChanged || change instanceof DataFilesChanged;
    }

    private static String summarize(List<Change> rest, String more)
    {
        long rows = 0;
        for (Change change : rest) {
            rows += switch (change) {
                case FragmentAdded added -> added.physicalRows() - added.deletedRows();
                case FragmentRemoved removed -> removed.liveRows();
                case DeletionsChanged deletions -> deletions.deletedAfter() - deletions.deletedBefore();
                default -> 0;
            };
        }
        return switch (rest.getFirst()) {
            case FragmentAdded _ -> "added %s%s fragments (%s)".formatted(rest.size(), more, rows(rows));
            case FragmentRemoved _ -> "removed %s%s fragments (%s)".formatted(rest.size(), more, rows(rows));
            case DeletionsChanged _ -> "deleted %s in %s%s fragments".formatted(rows(rows), rest.size(), more);
            default -> "changed data files of %s%s fragments".formatted(rest.size(), more);
        };
    }

    private static void diffSchema(LanceSchema previous, LanceSchema current, boolean schemaReplaced, List<Change> changes)
    {
        Map<Integer, String> previousPaths = paths(previous);
        Map<Integer, String> currentPaths = paths(current);
        Set<Integer> dropped = new HashSet<>();
        Set<Integer> added = new HashSet<>();
        for (int id : new TreeSet<>(previous.fieldsById().keySet())) {
            LanceField before = previous.fieldsById().get(id);
            LanceField after = current.fieldsById().get(id);
            if (after == null || isDifferentColumn(before, after, schemaReplaced)) {
                dropped.add(id);
                if (after != null) {
                    added.add(id);
                }
            }
        }
        for (int id : current.fieldsById().keySet()) {
            if (!previous.fieldsById().containsKey(id)) {
                added.add(id);
            }
        }
        // a nested field comes and goes with its parent: only the outermost is named
        for (int id : new TreeSet<>(added)) {
            LanceField field = current.fieldsById().get(id);
            if (!added.contains(field.parentId())) {
                changes.add(new ColumnAdded(id, currentPaths.get(id), field.logicalType()));
            }
        }
        for (int id : new TreeSet<>(current.fieldsById().keySet())) {
            if (added.contains(id)) {
                continue;
            }
            LanceField before = previous.fieldsById().get(id);
            LanceField after = current.fieldsById().get(id);
            if (!before.name().equals(after.name())) {
                changes.add(new ColumnRenamed(id, previousPaths.get(id), currentPaths.get(id)));
            }
            if (!before.logicalType().equals(after.logicalType())) {
                changes.add(new ColumnTypeChanged(id, currentPaths.get(id), before.logicalType(), after.logicalType()));
            }
            if (before.nullable() != after.nullable()) {
                changes.add(new ColumnNullabilityChanged(id, currentPaths.get(id), after.nullable()));
            }
            diffMap(before.metadata(), after.metadata(), (key, old, value) -> new ColumnMetadataChanged(id, currentPaths.get(id), key, old, value), changes);
        }
        for (int id : new TreeSet<>(dropped)) {
            LanceField field = previous.fieldsById().get(id);
            if (!dropped.contains(field.parentId())) {
                changes.add(new ColumnDropped(id, previousPaths.get(id), field.logicalType()));
            }
        }
    }

    private static boolean isDifferentColumn(LanceField before, LanceField after, boolean schemaReplaced)
    {
        boolean renamed = !before.name().equals(after.name());
        boolean retyped = !before.logicalType().equals(after.logicalType());
        if (schemaReplaced) {
            return renamed || retyped || before.parentId() != after.parentId();
        }
        // Lance renames keep the type, and casts keep the name: both at once is a new column under a reused id
        return (renamed && retyped) || before.parentId() != after.parentId();
    }

    private static Map<Integer, String> paths(LanceSchema schema)
    {
        Map<Integer, String> paths = new LinkedHashMap<>();
        for (LanceField field : schema.fields()) {
            collectPaths(field, field.name(), paths);
        }
        return paths;
    }

    private static void collectPaths(LanceField field, String path, Map<Integer, String> paths)
    {
        paths.put(field.id(), path);
        for (LanceField child : field.children()) {
            collectPaths(child, path + "." + child.name(), paths);
        }
    }

    private static void diffFragments(List<DataFragment> previous, List<DataFragment> current, List<Change> changes)
    {
        Map<Long, DataFragment> before = byId(previous);
        Map<Long, DataFragment> after = byId(current);
        List<Change> removed = new ArrayList<>();
        List<Change> deletions = new ArrayList<>();
        List<Change> files = new ArrayList<>();
        List<FragmentAdded> added = new ArrayList<>();
        for (DataFragment old : before.values()) {
            DataFragment now = after.get(old.getId());
            if (now == null) {
                removed.add(new FragmentRemoved(old.getId(), old.getPhysicalRows(), VersionSummary.deletedRows(old)));
                continue;
            }
            Set<String> oldFiles = filePaths(old);
            Set<String> newFiles = filePaths(now);
            if (!oldFiles.isEmpty() && !newFiles.isEmpty() && oldFiles.stream().noneMatch(newFiles::contains)) {
                // the id was reused for other data
                removed.add(new FragmentRemoved(old.getId(), old.getPhysicalRows(), VersionSummary.deletedRows(old)));
                added.add(new FragmentAdded(now.getId(), now.getPhysicalRows(), VersionSummary.deletedRows(now)));
                continue;
            }
            if (!oldFiles.equals(newFiles)) {
                files.add(new DataFilesChanged(
                        now.getId(),
                        now.getPhysicalRows(),
                        newFiles.stream().filter(path -> !oldFiles.contains(path)).toList(),
                        oldFiles.stream().filter(path -> !newFiles.contains(path)).toList()));
            }
            long deletedBefore = VersionSummary.deletedRows(old);
            long deletedAfter = VersionSummary.deletedRows(now);
            if (deletedBefore != deletedAfter) {
                deletions.add(new DeletionsChanged(now.getId(), now.getPhysicalRows(), deletedBefore, deletedAfter));
            }
        }
        for (DataFragment now : after.values()) {
            if (!before.containsKey(now.getId())) {
                added.add(new FragmentAdded(now.getId(), now.getPhysicalRows(), VersionSummary.deletedRows(now)));
            }
        }
        added.sort(Comparator.comparingLong(FragmentAdded::fragmentId));
        changes.addAll(removed);
        changes.addAll(deletions);
        changes.addAll(files);
        changes.addAll(added);
    }

    private static Map<Long, DataFragment> byId(List<DataFragment> fragments)
    {
        Map<Long, DataFragment> byId = new TreeMap<>();
        for (DataFragment fragment : fragments) {
            byId.put(fragment.getId(), fragment);
        }
        return byId;
    }

    private static Set<String> filePaths(DataFragment fragment)
    {
        Set<String> paths = new TreeSet<>();
        for (DataFile file : fragment.getFilesList()) {
            paths.add(file.getPath());
        }
        return paths;
    }

    private interface MapChange
    {
        Change create(String key, Optional<String> before, Optional<String> after);
    }

    private static void diffMap(Map<String, String> previous, Map<String, String> current, MapChange change, List<Change> changes)
    {
        Set<String> keys = new TreeSet<>(previous.keySet());
        keys.addAll(current.keySet());
        for (String key : keys) {
            Optional<String> before = Optional.ofNullable(previous.get(key));
            Optional<String> after = Optional.ofNullable(current.get(key));
            if (!Objects.equals(before, after)) {
                changes.add(change.create(key, before, after));
            }
        }
    }

    private static Map<String, String> utf8(Map<String, ByteString> map)
    {
        Map<String, String> result = new LinkedHashMap<>();
        map.forEach((key, value) -> result.put(key, value.toString(UTF_8)));
        return result;
    }

    private static void diffBasePaths(List<BasePath> previous, List<BasePath> current, List<Change> changes)
    {
        Function<BasePath, String> identity = base -> base.getId() + "|" + base.getPath();
        Set<String> before = new HashSet<>(previous.stream().map(identity).toList());
        Set<String> after = new HashSet<>(current.stream().map(identity).toList());
        for (BasePath base : current) {
            if (!before.contains(identity.apply(base))) {
                changes.add(new BasePathAdded(base.getId(), base.getPath()));
            }
        }
        for (BasePath base : previous) {
            if (!after.contains(identity.apply(base))) {
                changes.add(new BasePathRemoved(base.getId(), base.getPath()));
            }
        }
    }

    private static String setOrRemoved(Optional<String> before, Optional<String> after)
    {
        if (after.isEmpty()) {
            return "removed (was %s)".formatted(show(before.orElseThrow()));
        }
        return "set to %s%s".formatted(show(after.get()), before.map(old -> " (was %s)".formatted(show(old))).orElse(""));
    }

    /**
     * A value as it is when it is one plain token, else quoted; long values are cut.
     */
    static String show(String value)
    {
        String shown = value.length() > MAX_VALUE_LENGTH ? value.substring(0, MAX_VALUE_LENGTH) + "…" : value;
        if (value.length() <= MAX_VALUE_LENGTH && PLAIN_VALUE.matcher(value).matches()) {
            return shown;
        }
        return "'" + shown.replace("'", "''") + "'";
    }

    private static String rows(long rows)
    {
        return rows == 1 ? "1 row" : rows + " rows";
    }
}
