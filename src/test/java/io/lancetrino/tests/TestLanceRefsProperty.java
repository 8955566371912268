package io.lancetrino.tests;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Multiset;
import com.google.common.collect.Multisets;
import com.google.common.collect.Sets;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static com.google.common.base.Preconditions.checkState;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of writes, branch and tag creation, shallow clones, fast-forwards and merges, checked after every
 * step against an in-memory model of the rows each ref holds.
 * <p>
 * The model tracks row instances (a row written by one statement; an UPDATE replaces the instance). A ref is a set of
 * instances, and a merge of source S into target T with merge base B is {@code T' = (T - (B - S)) + (S - B)}: what
 * the source deleted since the base is deleted in the target, what it added is added, the target's own changes stay.
 * Sets, not multisets: a row instance the target already holds (it reached both sides by another way) is not
 * duplicated, as a Lance fragment is never listed twice in one version.
 * <p>
 * The merge base of two branches is the newest version both descend from, where a version descends from the one
 * before it on its branch, a branch's first version from the version it was made from, and the version a merge (or
 * fast-forward) committed also from the source version it brought over. Without merges that is the fork point; after
 * a merge of S into T it is S's state then, and a merge that reached both through a third branch counts too. A
 * fast-forward of X to Y succeeds exactly when X still holds its merge base with Y. A shallow clone merges back into
 * the branch it was cloned from, with the clone's state at its newest earlier merge, or the version it was cloned
 * from, as the base.
 * <p>
 * {@code -Dlance.property.seeds=N}, {@code -Dlance.property.steps=N} and {@code -Dlance.property.seed=S} (the first
 * seed) run longer or replay one sequence.
 */
final class TestLanceRefsProperty
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "prop";
    private static final String CLONE_SCHEMA = "clones";
    private static final String MAIN = "main";
    private static final int MAX_BRANCHES = 6;
    private static final int MAX_TAGS = 4;
    private static final int MAX_CLONES = 3;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-refs-property");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        Files.createDirectories(warehouse.resolve(CLONE_SCHEMA));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testRandomRefOperationsMatchModel()
    {
        long firstSeed = Long.getLong("lance.property.seed", 20261201L);
        int seeds = Integer.getInteger("lance.property.seeds", 3);
        int steps = Integer.getInteger("lance.property.steps", 25);
        for (int i = 0; i < seeds; i++) {
            new Run(firstSeed + i, "t" + (firstSeed + i)).run(steps);
        }
    }

    // what random runs found, kept as fixed cases

    @Test
    void testFastForwardAfterAMergeThatBroughtDeletions()
    {
        assertUpdate("CREATE TABLE ff_after_merge (id bigint, v varchar)");
        assertUpdate("INSERT INTO ff_after_merge VALUES (1, 'a'), (2, 'a')", 2);
        assertUpdate("CREATE BRANCH dev IN TABLE ff_after_merge");
        assertUpdate("DELETE FROM ff_after_merge WHERE id = 1", 1);
        // dev gets main's deleted row in a deletion file of its own, and does not change after that
        computeActual("ALTER TABLE ff_after_merge EXECUTE merge_branch(source => 'main', target => 'dev')");
        assertUpdate("INSERT INTO ff_after_merge VALUES (3, 'b')", 1);
        assertThat(metrics(computeActual("ALTER TABLE ff_after_merge EXECUTE merge_branch(source => 'main', target => 'dev', dry_run => true)")))
                .containsEntry("fast_forward", 1L);
        assertUpdate("ALTER BRANCH dev IN TABLE ff_after_merge FAST FORWARD TO main");
        assertQuery("SELECT id FROM ff_after_merge FOR VERSION AS OF 'dev'", "VALUES 2, 3");
    }

    @Test
    void testMergedFragmentKeepsItsDeletedRows()
    {
        assertUpdate("CREATE TABLE merged_deletions (id bigint)");
        assertUpdate("INSERT INTO merged_deletions VALUES 1", 1);
        assertUpdate("CREATE BRANCH dev IN TABLE merged_deletions");
        // main numbers its next fragment like dev's new one, which then gets another id on main
        assertUpdate("INSERT INTO merged_deletions VALUES 2", 1);
        assertUpdate("INSERT INTO merged_deletions @ dev VALUES 10, 11", 2);
        assertUpdate("DELETE FROM merged_deletions @ dev WHERE id = 10", 1);
        computeActual("ALTER TABLE merged_deletions EXECUTE merge_branch(source => 'dev')");
        assertQuery("SELECT id FROM merged_deletions", "VALUES 1, 2, 11");
    }

    @Test
    void testMergeBaseFollowsWhatTheTargetWasMadeFrom()
    {
        assertUpdate("CREATE TABLE lineage (id bigint)");
        assertUpdate("INSERT INTO lineage VALUES 1", 1);
        assertUpdate("CREATE BRANCH feature IN TABLE lineage");
        assertUpdate("INSERT INTO lineage @ feature VALUES 10, 11", 2);
        computeActual("ALTER TABLE lineage EXECUTE merge_branch(source => 'feature')");
        // both are made from main after it merged the feature, so they share the feature's rows with it
        assertUpdate("CREATE BRANCH cleaned IN TABLE lineage");
        assertUpdate("CREATE BRANCH kept IN TABLE lineage");
        assertUpdate("DELETE FROM lineage @ cleaned WHERE id >= 10", 2);
        assertUpdate("DELETE FROM lineage @ feature WHERE id = 10", 1);
        // the feature's rows are not new to 'cleaned': its own deletion stays
        computeActual("ALTER TABLE lineage EXECUTE merge_branch(source => 'feature', target => 'cleaned')");
        assertQuery("SELECT id FROM lineage FOR VERSION AS OF 'cleaned'", "VALUES 1");
        // deleting some or all of the feature's rows reaches 'kept' alike
        computeActual("ALTER TABLE lineage EXECUTE merge_branch(source => 'feature', target => 'kept')");
        assertQuery("SELECT id FROM lineage FOR VERSION AS OF 'kept'", "VALUES 1, 11");
        assertUpdate("DELETE FROM lineage @ feature WHERE id = 11", 1);
        computeActual("ALTER TABLE lineage EXECUTE merge_branch(source => 'feature', target => 'kept')");
        assertQuery("SELECT id FROM lineage FOR VERSION AS OF 'kept'", "VALUES 1");
    }

    private Session noMinimumRetention()
    {
        return Session.builder(getSession()).setCatalogSessionProperty("lance", "cleanup_min_retention", "0s").build();
    }

    /**
     * Writes and compactions on both sides of a branch: a merge follows rows through each {@code Rewrite} and gives
     * {@code T - (B - S) + (S - B)} (B the merge base, S the source, T the target), after cleanup too.
     */
    private long writeBothSidesWithCompactions(String table)
    {
        assertUpdate("CREATE TABLE %s (id bigint, v varchar) WITH (max_rows_per_file = 100)".formatted(table));
        for (int part = 0; part < 4; part++) {
            assertUpdate("INSERT INTO %s SELECT x, 'base' FROM UNNEST(sequence(%s, %s)) AS t(x)".formatted(table, part * 250 + 1, part * 250 + 250), 250);
        }
        long fork = (long) computeScalar("SELECT max(version) FROM \"%s$versions\"".formatted(table));
        assertUpdate("CREATE BRANCH b IN TABLE " + table);
        assertUpdate("INSERT INTO %s SELECT x, 'm1' FROM UNNEST(sequence(2001, 2100)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));
        assertUpdate("DELETE FROM %s WHERE id BETWEEN 991 AND 1000".formatted(table), 10);
        assertUpdate("INSERT INTO %s SELECT x, 'm2' FROM UNNEST(sequence(2101, 2200)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));
        assertUpdate("UPDATE %s SET v = 'm-upd' WHERE id BETWEEN 201 AND 220".formatted(table), 20);
        assertUpdate("INSERT INTO %s SELECT x, 'm3' FROM UNNEST(sequence(2201, 2300)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize".formatted(table));

        assertUpdate("UPDATE %s @ b SET v = 'b-upd' WHERE id BETWEEN 1 AND 100".formatted(table), 100);
        assertUpdate("DELETE FROM %s @ b WHERE id BETWEEN 101 AND 150".formatted(table), 50);
        assertUpdate("INSERT INTO %s @ b SELECT x, 'b1' FROM UNNEST(sequence(3001, 3100)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize(branch => 'b')".formatted(table));
        assertUpdate("UPDATE %s @ b SET v = 'b-upd2' WHERE id BETWEEN 301 AND 310".formatted(table), 10);
        assertUpdate("INSERT INTO %s @ b SELECT x, 'b2' FROM UNNEST(sequence(3101, 3200)) AS t(x)".formatted(table), 100);
        computeActual("ALTER TABLE %s EXECUTE optimize(branch => 'b')".formatted(table));
        return fork;
    }

    @Test
    void testMergeFollowsRowsThroughCompactionsOnBothSides()
    {
        long fork = writeBothSidesWithCompactions("both");
        Set<List<Object>> expected = expectedMerge("both", fork);
        computeActual("ALTER TABLE both EXECUTE merge_branch(source => 'b')");
        assertThat(rows("SELECT id, v FROM both")).isEqualTo(expected);
        // 1,000 base rows less 10 deleted on main and 150 replaced or deleted on b, 300 inserted on main, 200 on b,
        // 100 + 10 updated on b and 20 on main
        assertThat(expected).hasSize(1000 - 10 - 150 + 300 + 200 + 100);
    }

    @Test
    void testMergeAfterCleanupFollowsRows()
    {
        long fork = writeBothSidesWithCompactions("cleaned");
        Set<List<Object>> expected = expectedMerge("cleaned", fork);
        computeActual(noMinimumRetention(), "ALTER TABLE cleaned EXECUTE cleanup(retention_threshold => '0s')");
        computeActual("ALTER TABLE cleaned EXECUTE merge_branch(source => 'b')");
        assertThat(rows("SELECT id, v FROM cleaned")).isEqualTo(expected);
    }

    /**
     * A branch made from a tag after cleanup removed the versions that compacted main since: nothing tells where the
     * tag's rows went, so the merge refuses, naming the versions, and changes nothing.
     */
    @Test
    void testMergeRefusesWhenCleanupRemovedACompaction()
    {
        assertUpdate("CREATE TABLE untraceable (id bigint, v varchar) WITH (max_rows_per_file = 10)");
        assertUpdate("INSERT INTO untraceable SELECT x, 'a' FROM UNNEST(sequence(1, 30)) AS t(x)", 30);
        assertUpdate("CALL lance.system.create_tag('prop', 'untraceable', 'before', NULL)");
        assertUpdate("INSERT INTO untraceable SELECT x, 'b' FROM UNNEST(sequence(31, 40)) AS t(x)", 10);
        computeActual("ALTER TABLE untraceable EXECUTE optimize");
        assertUpdate("INSERT INTO untraceable SELECT x, 'c' FROM UNNEST(sequence(41, 50)) AS t(x)", 10);
        computeActual(noMinimumRetention(), "ALTER TABLE untraceable EXECUTE cleanup(retention_threshold => '0s')");
        assertUpdate("CREATE BRANCH late WITH (from_tag = 'before') IN TABLE untraceable");
        assertUpdate("DELETE FROM untraceable @ late WHERE id <= 5", 5);
        long head = (long) computeScalar("SELECT max(version) FROM \"untraceable$versions\"");
        assertQueryFails("ALTER TABLE untraceable EXECUTE merge_branch(source => 'late')",
                "Cannot follow the rows of merge base main version 2 to main version %s: a fragment holding them .* went between main version 2 and main version 5, whose versions in between are gone \\(cleaned up\\).*".formatted(head));
        assertThat(computeScalar("SELECT max(version) FROM \"untraceable$versions\"")).isEqualTo(head);
        assertQuery("SELECT count(*), min(id) FROM untraceable", "VALUES (50, 1)");
    }

    /** {@code T - (B - S) + (S - B)}, over rows (every statement writes values of its own). */
    private Set<List<Object>> expectedMerge(String table, long fork)
    {
        Set<List<Object>> base = rows("SELECT id, v FROM %s FOR VERSION AS OF %s".formatted(table, fork));
        Set<List<Object>> source = rows("SELECT id, v FROM %s FOR VERSION AS OF 'b'".formatted(table));
        Set<List<Object>> target = rows("SELECT id, v FROM " + table);
        return ImmutableSet.copyOf(Sets.union(Sets.difference(target, Sets.difference(base, source)), Sets.difference(source, base)));
    }

    private Set<List<Object>> rows(String sql)
    {
        return computeActual(sql).getMaterializedRows().stream()
                .map(MaterializedRow::getFields)
                .collect(ImmutableSet.toImmutableSet());
    }

    private static Map<String, Long> metrics(MaterializedResult result)
    {
        Map<String, Long> metrics = new LinkedHashMap<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            metrics.put((String) row.getField(0), (Long) row.getField(1));
        }
        return metrics;
    }

    /** One row instance: an INSERT makes new ones, an UPDATE replaces one by a new one with the same id. */
    private record Row(long instance, long id, String value) {}

    private record Point(String branch, long version) {}

    /** A merge of a shallow clone that committed: {@code clone@cloneVersion} into its origin branch. */
    private record CloneMerge(String cloneTable, long cloneVersion) {}

    /**
     * A branch, or a shallow clone of the table: its versions, the order in which they were committed among all
     * versions of the table, and where it was made from.
     */
    private static final class History
    {
        private final Optional<Point> parent;
        private final TreeMap<Long, Set<Row>> versions = new TreeMap<>();
        private final Map<Long, Long> sequence = new LinkedHashMap<>();
        /** the branch version a merge or fast-forward committed as this version brought over */
        private final Map<Long, Point> mergedFrom = new LinkedHashMap<>();

        History(Optional<Point> parent, long firstVersion, Set<Row> content, long sequenceNumber)
        {
            this.parent = parent;
            versions.put(firstVersion, ImmutableSet.copyOf(content));
            sequence.put(firstVersion, sequenceNumber);
        }

        long head()
        {
            return versions.lastKey();
        }

        Set<Row> content()
        {
            return versions.lastEntry().getValue();
        }

        Set<Row> content(long version)
        {
            Set<Row> content = versions.get(version);
            checkState(content != null, "no version %s", version);
            return content;
        }

        void commit(Set<Row> content, long sequenceNumber)
        {
            long version = head() + 1;
            versions.put(version, ImmutableSet.copyOf(content));
            sequence.put(version, sequenceNumber);
        }
    }

    private final class Run
    {
        private final long seed;
        private final String table;
        private final Random random;
        private final List<String> steps = new ArrayList<>();
        private final Map<String, History> branches = new LinkedHashMap<>();
        private final Map<String, Point> tags = new LinkedHashMap<>();
        /** clone table name to its history; its parent is the branch version it was cloned from */
        private final Map<String, History> clones = new LinkedHashMap<>();
        private final List<CloneMerge> cloneMerges = new ArrayList<>();
        private long nextSequence;
        private boolean cleaned;
        private boolean compacted;
        private int refusals;
        private int churnedMerges;
        private long nextInstance;
        private long nextId = 1;
        private int nextName = 1;

        Run(long seed, String table)
        {
            this.seed = seed;
            this.table = table;
            this.random = new Random(seed);
        }

        void run(int stepCount)
        {
            execute("CREATE TABLE %s (id bigint, v varchar) WITH (max_rows_per_file = 2)".formatted(table));
            branches.put(MAIN, new History(Optional.empty(), 1, Set.of(), nextSequence++));
            insert(MAIN, 5);
            check();
            for (int step = 0; step < stepCount; step++) {
                randomStep();
                check();
            }
            checkEveryVersion();
            System.out.println("refs property seed %s: %s steps, %s merges or fast-forwards refused after compactions, %s merges deleted and added the same rows".formatted(seed, stepCount, refusals, churnedMerges));
        }

        private void randomStep()
        {
            while (true) {
                int choice = random.nextInt(124);
                if (choice >= 100) {
                    // maintenance and upserts: compaction moves rows without changing them, cleanup removes versions
                    if (choice < 108) {
                        optimize();
                    }
                    else if (choice < 112) {
                        cleanup();
                    }
                    else {
                        mergeStatement(randomBranch());
                    }
                    return;
                }
                if (choice < 16) {
                    insert(randomBranch(), 1 + random.nextInt(3));
                }
                else if (choice < 28) {
                    delete(randomBranch());
                }
                else if (choice < 38) {
                    update(randomBranch());
                }
                else if (choice < 48 && branches.size() < MAX_BRANCHES) {
                    createBranch();
                }
                else if (choice < 53 && tags.size() < MAX_TAGS) {
                    createTag();
                }
                else if (choice < 58 && clones.size() < MAX_CLONES) {
                    shallowClone();
                }
                else if (choice < 66 && !clones.isEmpty()) {
                    writeToClone();
                }
                else if (choice < 74 && branches.size() > 1) {
                    fastForward();
                }
                else if (choice < 93 && branches.size() > 1) {
                    mergeBranches();
                }
                else if (choice >= 93 && !clones.isEmpty()) {
                    mergeClone();
                }
                else {
                    continue;
                }
                return;
            }
        }

        // ---- writes ----

        private void insert(String branch, int rows)
        {
            insert(branches.get(branch), tableOn(branch), rows);
        }

        private void delete(String branch)
        {
            delete(branches.get(branch), tableOn(branch));
        }

        private void update(String branch)
        {
            update(branches.get(branch), tableOn(branch));
        }

        private void writeToClone()
        {
            String clone = pick(clones.keySet());
            History history = clones.get(clone);
            String name = CLONE_SCHEMA + "." + clone;
            switch (random.nextInt(3)) {
                case 0 -> insert(history, name, 1 + random.nextInt(2));
                case 1 -> delete(history, name);
                default -> update(history, name);
            }
        }

        private void insert(History history, String target, int rows)
        {
            Set<Row> content = new HashSet<>(history.content());
            List<String> values = new ArrayList<>();
            String value = "i" + steps.size();
            for (int i = 0; i < rows; i++) {
                Row row = new Row(nextInstance++, nextId++, value);
                content.add(row);
                values.add("(%s, '%s')".formatted(row.id(), row.value()));
            }
            assertUpdateCount("INSERT INTO %s VALUES %s".formatted(target, String.join(", ", values)), rows);
            history.commit(content, nextSequence++);
        }

        private void delete(History history, String target)
        {
            Set<Long> ids = pickIds(history);
            String predicate;
            if (random.nextBoolean()) {
                predicate = "id IN (%s)".formatted(ids.stream().map(String::valueOf).collect(joining(", ")));
            }
            else {
                // a range deletes whole fragments now and then (rows of one INSERT are neighbours)
                long low = ids.stream().mapToLong(Long::longValue).min().orElseThrow();
                long high = low + random.nextInt(4);
                ids = history.content().stream().map(Row::id).filter(id -> id >= low && id <= high).collect(Collectors.toSet());
                predicate = "id BETWEEN %s AND %s".formatted(low, high);
            }
            Set<Long> deleted = ids;
            Set<Row> content = new HashSet<>(history.content());
            int removed = (int) content.stream().filter(row -> deleted.contains(row.id())).count();
            content.removeIf(row -> deleted.contains(row.id()));
            assertUpdateCount("DELETE FROM %s WHERE %s".formatted(target, predicate), removed);
            if (removed > 0) {
                history.commit(content, nextSequence++);
            }
        }

        private void update(History history, String target)
        {
            Set<Long> ids = pickIds(history);
            String value = "u" + steps.size();
            Set<Row> content = new HashSet<>();
            int updated = 0;
            for (Row row : history.content()) {
                if (ids.contains(row.id())) {
                    content.add(new Row(nextInstance++, row.id(), value));
                    updated++;
                }
                else {
                    content.add(row);
                }
            }
            assertUpdateCount("UPDATE %s SET v = '%s' WHERE id IN (%s)".formatted(target, value, ids.stream().map(String::valueOf).collect(joining(", "))), updated);
            if (updated > 0) {
                history.commit(content, nextSequence++);
            }
        }

        /** One or two ids the ref holds, and now and then one it does not hold (a write that changes nothing). */
        private Set<Long> pickIds(History history)
        {
            List<Long> ids = history.content().stream().map(Row::id).distinct().sorted().toList();
            Set<Long> picked = new HashSet<>();
            if (ids.isEmpty() || random.nextInt(10) == 0) {
                picked.add(nextId + 1000);
                return picked;
            }
            int count = 1 + random.nextInt(2);
            for (int i = 0; i < count; i++) {
                picked.add(ids.get(random.nextInt(ids.size())));
            }
            return picked;
        }

        /** A compaction of a branch or a clone: the same rows in new fragments, a new version when anything was compacted. */
        private void optimize()
        {
            boolean ofClone = !clones.isEmpty() && random.nextInt(4) == 0;
            String branch = ofClone ? MAIN : randomBranch();
            String tableName = ofClone ? CLONE_SCHEMA + "." + pick(clones.keySet()) : table;
            History history = ofClone ? clones.get(tableName.substring(CLONE_SCHEMA.length() + 1)) : branches.get(branch);
            Map<String, Long> metrics = metrics(execute(branch.equals(MAIN)
                    ? "ALTER TABLE %s EXECUTE optimize".formatted(tableName)
                    : "ALTER TABLE %s EXECUTE optimize(branch => '%s')".formatted(tableName, branch)));
            if (metrics.get("version") > 0) {
                compacted = true;
                history.commit(history.content(), nextSequence++);
            }
        }

        /** Cleanup of every version nothing needs: rows of every ref stay, old versions may go. */
        private void cleanup()
        {
            Session noMinimum = Session.builder(getSession()).setCatalogSessionProperty("lance", "cleanup_min_retention", "0s").build();
            steps.add("cleanup");
            call(() -> getQueryRunner().execute(noMinimum, "ALTER TABLE %s EXECUTE cleanup(retention_threshold => '0s')".formatted(table)));
            cleaned = true;
        }

        /** MERGE of a few ids: those the ref holds are updated (every row with the id), the others inserted. */
        private void mergeStatement(String branch)
        {
            History history = branches.get(branch);
            Set<Long> ids = pickIds(history);
            ids.add(nextId++);
            String value = "m" + steps.size();
            Set<Row> content = new HashSet<>();
            Set<Long> matched = new HashSet<>();
            for (Row row : history.content()) {
                if (ids.contains(row.id())) {
                    content.add(new Row(nextInstance++, row.id(), value));
                    matched.add(row.id());
                }
                else {
                    content.add(row);
                }
            }
            long updated = content.stream().filter(row -> row.value().equals(value)).count();
            for (long id : ids) {
                if (!matched.contains(id)) {
                    content.add(new Row(nextInstance++, id, value));
                }
            }
            assertUpdateCount("MERGE INTO %s USING (VALUES %s) AS s(sid) ON id = sid WHEN MATCHED THEN UPDATE SET v = '%s' WHEN NOT MATCHED THEN INSERT VALUES (sid, '%s')"
                    .formatted(tableOn(branch), ids.stream().map(String::valueOf).collect(joining(", ")), value, value), updated + ids.size() - matched.size());
            history.commit(content, nextSequence++);
        }

        // ---- refs ----

        private void createBranch()
        {
            String name = "b" + nextName++;
            int kind = random.nextInt(4);
            String from = randomBranch();
            History source = branches.get(from);
            Point origin;
            if (kind == 0 && !tags.isEmpty()) {
                String tag = pick(tags.keySet());
                origin = tags.get(tag);
                execute("CREATE BRANCH %s WITH (from_tag = '%s') IN TABLE %s".formatted(name, tag, table));
            }
            else if (kind == 1) {
                long version = pick(existingVersions(from, source));
                origin = new Point(from, version);
                execute("CREATE BRANCH %s WITH (from_version = %s) IN TABLE %s%s".formatted(name, version, table, from.equals(MAIN) ? "" : " FROM " + from));
            }
            else {
                origin = new Point(from, source.head());
                execute("CREATE BRANCH %s IN TABLE %s%s".formatted(name, table, from.equals(MAIN) && random.nextBoolean() ? "" : " FROM " + from));
            }
            // a branch starts at the version it was made from, with that version's rows
            branches.put(name, new History(Optional.of(origin), origin.version(), contentAt(origin), nextSequence++));
        }

        private void createTag()
        {
            String name = "g" + nextName++;
            String branch = randomBranch();
            tags.put(name, new Point(branch, branches.get(branch).head()));
            String ref = branch.equals(MAIN) && random.nextBoolean() ? "NULL" : "'" + branch + "'";
            execute("CALL lance.system.create_tag('%s', '%s', '%s', %s)".formatted(SCHEMA, table, name, ref));
        }

        private void shallowClone()
        {
            String name = table + "_k" + nextName++;
            String ref;
            Point origin;
            int kind = random.nextInt(3);
            if (kind == 0 && !tags.isEmpty()) {
                ref = pick(tags.keySet());
                origin = tags.get(ref);
            }
            else if (kind == 1) {
                String branch = randomBranch();
                long version = pick(existingVersions(branch, branches.get(branch)));
                origin = new Point(branch, version);
                ref = branch.equals(MAIN) ? String.valueOf(version) : branch + "@" + version;
            }
            else {
                String branch = randomBranch();
                origin = new Point(branch, branches.get(branch).head());
                ref = branch;
            }
            execute("CALL lance.system.shallow_clone('%s', '%s', '%s', '%s', '%s')".formatted(SCHEMA, table, CLONE_SCHEMA, name, ref));
            clones.put(name, new History(Optional.of(origin), origin.version(), contentAt(origin), nextSequence++));
        }

        // ---- fast-forward and merge ----

        private void fastForward()
        {
            String moving = randomBranch();
            String to = randomBranchOtherThan(moving);
            Set<Row> base = mergeBase(to, moving);
            History target = branches.get(moving);
            History source = branches.get(to);
            String sql = "ALTER BRANCH %s IN TABLE %s FAST FORWARD TO %s".formatted(moving, table, to);
            if (target.content().equals(base)) {
                if (executeUnlessRefused(sql).isEmpty()) {
                    return;
                }
                // moving to the same rows commits nothing, and records nothing
                if (!source.content().equals(target.content())) {
                    History into = branches.get(moving);
                    into.mergedFrom.put(into.head() + 1, new Point(to, source.head()));
                    into.commit(source.content(), nextSequence++);
                }
            }
            else {
                steps.add(sql + "  -- expected to fail");
                // or refused earlier, when versions it would walk were cleaned up
                expectFailure(sql, "(?s).*('%s' is not an ancestor of '%s'%s).*".formatted(moving, to, cleaned ? "|\\(cleaned up\\)|FRAGMENT_REWRITTEN" : ""));
            }
        }

        private void mergeBranches()
        {
            String source = randomBranch();
            String target = randomBranchOtherThan(source);
            History from = branches.get(source);
            History into = branches.get(target);
            Point merged = new Point(source, from.head());
            merge("'" + source + "'", target, from, mergeBase(source, target), () -> into.mergedFrom.put(into.head() + 1, merged));
        }

        private void mergeClone()
        {
            String clone = pick(clones.keySet());
            History history = clones.get(clone);
            String origin = history.parent.orElseThrow().branch();
            CloneMerge merged = new CloneMerge(clone, history.head());
            merge("'%s.%s'".formatted(CLONE_SCHEMA, clone), origin, history, cloneMergeBase(clone), () -> cloneMerges.add(merged));
        }

        /**
         * @param record what the model remembers of a merge that committed, before the target's version is added
         */
        private void merge(String sourceArgument, String target, History source, Set<Row> base, Runnable record)
        {
            History into = branches.get(target);
            Set<Row> targetRows = into.content();
            Set<Row> sourceRows = source.content();
            Set<Row> merged = merged(targetRows, sourceRows, base);
            boolean dryRun = random.nextInt(8) == 0;
            String sql = "ALTER TABLE %s EXECUTE merge_branch(source => %s, target => '%s'%s)".formatted(table, sourceArgument, target, dryRun ? ", dry_run => true" : "");
            Optional<MaterializedResult> result = executeUnlessRefused(sql);
            if (result.isEmpty()) {
                return;
            }
            Map<String, Long> metrics = metrics(result.get());
            boolean changes = !merged.equals(targetRows);
            Map<String, Long> expected = new LinkedHashMap<>();
            expected.put("rows_added", sourceRows.stream().filter(row -> !base.contains(row) && !targetRows.contains(row)).count());
            expected.put("rows_deleted", targetRows.stream().filter(row -> base.contains(row) && !sourceRows.contains(row)).count());
            expected.put("conflicts", 0L);
            expected.put("fast_forward", targetRows.equals(base) ? 1L : 0L);
            expected.put("target_version", changes && !dryRun ? into.head() + 1 : 0L);
            Map<String, Long> actual = new LinkedHashMap<>(metrics);
            actual.keySet().retainAll(expected.keySet());
            // after compactions, rows that reached both sides by different merges cannot always be told apart: the
            // merge deletes and adds them again (counting both), and commits even when the rows stay the same
            long churn = actual.get("rows_added") - expected.get("rows_added");
            boolean churned = (compacted || cleaned) && churn > 0 && actual.get("rows_deleted") - expected.get("rows_deleted") == churn;
            boolean committed = !dryRun && (changes || (churned && actual.get("target_version") == into.head() + 1));
            // a merge that changes nothing commits nothing, and records nothing
            if (committed) {
                record.run();
                into.commit(merged, nextSequence++);
            }
            // the rows first: a wrong merge is worse than wrong figures
            check();
            if (churned) {
                actual.put("rows_added", expected.get("rows_added"));
                actual.put("rows_deleted", expected.get("rows_deleted"));
                expected.put("target_version", committed ? into.head() : 0L);
                churnedMerges++;
            }
            if (churnedMerges > 0) {
                // rows added again after a churn are new to the lineage: a fast-forward may not be recognized as one
                actual.remove("fast_forward");
                expected.remove("fast_forward");
            }
            if (!actual.equals(expected)) {
                throw failure("merge metrics differ (the rows are right): expected %s, got %s".formatted(expected, metrics));
            }
        }

        /** {@code T' = (T - (B - S)) + (S - B)} */
        private static Set<Row> merged(Set<Row> target, Set<Row> source, Set<Row> base)
        {
            Set<Row> result = new HashSet<>(target);
            base.stream().filter(row -> !source.contains(row)).forEach(result::remove);
            source.stream().filter(row -> !base.contains(row)).forEach(result::add);
            return result;
        }

        /**
         * The newest version both branches descend from: a version descends from the one before it on its branch, a
         * branch's first version from the version it was made from, and a merge's version also from what it brought over.
         */
        private Set<Row> mergeBase(String source, String target)
        {
            Set<Point> common = ancestors(new Point(source, branches.get(source).head()));
            common.retainAll(ancestors(new Point(target, branches.get(target).head())));
            Point newest = common.stream()
                    .max(Comparator.comparingLong(point -> branches.get(point.branch()).sequence.get(point.version())))
                    .orElseThrow(() -> new IllegalStateException("no common version of " + source + " and " + target));
            return contentAt(newest);
        }

        private Set<Point> ancestors(Point head)
        {
            Set<Point> ancestors = new HashSet<>();
            List<Point> pending = new ArrayList<>(List.of(head));
            while (!pending.isEmpty()) {
                Point point = pending.removeLast();
                if (!ancestors.add(point)) {
                    continue;
                }
                History history = branches.get(point.branch());
                Long previous = history.versions.lowerKey(point.version());
                if (previous != null) {
                    pending.add(new Point(point.branch(), previous));
                }
                else {
                    history.parent.ifPresent(pending::add);
                }
                Optional.ofNullable(history.mergedFrom.get(point.version())).ifPresent(pending::add);
            }
            return ancestors;
        }

        /** The clone's version the newest merge of it brought over, or the version it was cloned from. */
        private Set<Row> cloneMergeBase(String clone)
        {
            for (CloneMerge merge : cloneMerges.reversed()) {
                if (merge.cloneTable().equals(clone)) {
                    return clones.get(clone).content(merge.cloneVersion());
                }
            }
            return contentAt(clones.get(clone).parent.orElseThrow());
        }

        private Set<Row> contentAt(Point point)
        {
            return branches.get(point.branch()).content(point.version());
        }

        // ---- checks ----

        /** Every ref's rows and every branch's and tag's version, in one query. */
        private void check()
        {
            List<String> selects = new ArrayList<>();
            Multiset<String> expected = HashMultiset.create();
            for (Map.Entry<String, History> branch : branches.entrySet()) {
                selects.add("SELECT 'branch %1$s' AS ref, id, v FROM %2$s FOR VERSION AS OF '%1$s'".formatted(branch.getKey(), table));
                addRows(expected, "branch " + branch.getKey(), branch.getValue().content());
                expected.add("version %s|%s|BRANCH".formatted(branch.getKey(), branch.getValue().head()));
            }
            for (Map.Entry<String, Point> tag : tags.entrySet()) {
                selects.add("SELECT 'tag %1$s', id, v FROM %2$s FOR VERSION AS OF 'tag:%1$s'".formatted(tag.getKey(), table));
                addRows(expected, "tag " + tag.getKey(), contentAt(tag.getValue()));
                expected.add("version %s|%s|TAG".formatted(tag.getKey(), tag.getValue().version()));
            }
            for (Map.Entry<String, History> clone : clones.entrySet()) {
                selects.add("SELECT 'clone %1$s', id, v FROM %2$s.%1$s".formatted(clone.getKey(), CLONE_SCHEMA));
                addRows(expected, "clone " + clone.getKey(), clone.getValue().content());
                selects.add("SELECT 'version %1$s', max(version), 'CLONE' FROM %2$s.\"%1$s$versions\"".formatted(clone.getKey(), CLONE_SCHEMA));
                expected.add("version %s|%s|CLONE".formatted(clone.getKey(), clone.getValue().head()));
            }
            selects.add("SELECT 'version ' || name, CAST(version AS bigint), type FROM \"%s$refs\"".formatted(table));
            compare(String.join("\nUNION ALL ", selects), expected, "after step " + steps.size());
        }

        /** The versions of the branch the model knows that cleanup left (it keeps at least the head). */
        private Set<Long> existingVersions(String branch, History history)
        {
            if (!cleaned) {
                return history.versions.keySet();
            }
            Set<Object> present = call(() -> computeActual("SELECT version FROM \"%s@%s$versions\"".formatted(table, branch))).getOnlyColumnAsSet();
            Set<Long> versions = new TreeSet<>(history.versions.keySet());
            versions.removeIf(version -> !present.contains(version));
            return versions;
        }

        /** Every version of every branch still reads as it was written. */
        private void checkEveryVersion()
        {
            List<String> selects = new ArrayList<>();
            Multiset<String> expected = HashMultiset.create();
            for (Map.Entry<String, History> branch : branches.entrySet()) {
                // versions cleanup removed are gone; the rest read as they were written
                Set<Object> present = cleaned
                        ? call(() -> computeActual("SELECT version FROM \"%s@%s$versions\"".formatted(table, branch.getKey()))).getOnlyColumnAsSet()
                        : null;
                for (Map.Entry<Long, Set<Row>> version : branch.getValue().versions.entrySet()) {
                    if (present != null && !present.contains(version.getKey())) {
                        continue;
                    }
                    String ref = branch.getKey() + "@" + version.getKey();
                    selects.add("SELECT '%1$s', id, v FROM %2$s FOR VERSION AS OF '%1$s'".formatted(ref, table));
                    addRows(expected, ref, version.getValue());
                    // a query per few versions, so a long run does not plan hundreds of scans at once
                    if (selects.size() == 16) {
                        compare(String.join("\nUNION ALL ", selects), expected, "reading every version at the end");
                        selects.clear();
                        expected.clear();
                    }
                }
            }
            if (!selects.isEmpty()) {
                compare(String.join("\nUNION ALL ", selects), expected, "reading every version at the end");
            }
        }

        private void compare(String sql, Multiset<String> expected, String when)
        {
            Multiset<String> actual = HashMultiset.create();
            for (MaterializedRow row : call(() -> computeActual(sql)).getMaterializedRows()) {
                actual.add("%s|%s|%s".formatted(row.getField(0), row.getField(1), row.getField(2)));
            }
            if (!actual.equals(expected)) {
                Multiset<String> missing = Multisets.difference(expected, actual);
                Multiset<String> unexpected = Multisets.difference(actual, expected);
                throw failure("refs differ from the model %s%n  missing:    %s%n  unexpected: %s".formatted(when, sorted(missing), sorted(unexpected)));
            }
        }

        private static void addRows(Multiset<String> expected, String ref, Set<Row> rows)
        {
            rows.forEach(row -> expected.add("%s|%s|%s".formatted(ref, row.id(), row.value())));
        }

        private static List<String> sorted(Multiset<String> rows)
        {
            return rows.stream().sorted().toList();
        }

        // ---- running statements ----

        private MaterializedResult execute(String sql)
        {
            steps.add(sql);
            return call(() -> getQueryRunner().execute(getSession(), sql));
        }

        /**
         * Runs a merge or fast-forward; after a compaction, one whose history leads back to its base only through an
         * earlier merge may be refused (it cannot follow rows through compactions there), and changes nothing then.
         */
        private Optional<MaterializedResult> executeUnlessRefused(String sql)
        {
            steps.add(sql);
            try {
                return Optional.of(getQueryRunner().execute(getSession(), sql));
            }
            catch (RuntimeException e) {
                String message = String.valueOf(e.getMessage());
                if ((compacted || cleaned) && (message.contains("FRAGMENT_REWRITTEN") || message.contains("(cleaned up)") || message.contains("is not an ancestor of"))) {
                    steps.set(steps.size() - 1, sql + "  -- refused: " + message.lines().findFirst().orElse(""));
                    refusals++;
                    return Optional.empty();
                }
                throw failure("statement failed: " + e, e);
            }
        }

        private void assertUpdateCount(String sql, long count)
        {
            MaterializedResult result = execute(sql);
            long actual = result.getUpdateCount().orElseThrow(() -> failure("no update count"));
            if (actual != count) {
                throw failure("expected %s rows changed, got %s".formatted(count, actual));
            }
        }

        private void expectFailure(String sql, String messagePattern)
        {
            try {
                getQueryRunner().execute(getSession(), sql);
            }
            catch (RuntimeException e) {
                if (e.getMessage() == null || !e.getMessage().matches(messagePattern)) {
                    throw failure("expected a failure matching %s, got: %s".formatted(messagePattern, e), e);
                }
                return;
            }
            throw failure("expected a failure matching " + messagePattern + ", but the statement succeeded");
        }

        private <T> T call(Supplier<T> statement)
        {
            try {
                return statement.get();
            }
            catch (RuntimeException e) {
                throw failure("statement failed: " + e, e);
            }
        }

        private AssertionError failure(String message)
        {
            return failure(message, null);
        }

        private AssertionError failure(String message, Throwable cause)
        {
            StringBuilder text = new StringBuilder("seed %s (replay: -Dlance.property.seed=%s -Dlance.property.seeds=1): %s%nsteps:%n".formatted(seed, seed, message));
            for (int i = 0; i < steps.size(); i++) {
                text.append("  %3d  %s%n".formatted(i, steps.get(i)));
            }
            return new AssertionError(text.toString(), cause);
        }

        // ---- random choices ----

        private String tableOn(String branch)
        {
            if (branch.equals(MAIN) && random.nextBoolean()) {
                return table;
            }
            return table + " @ " + branch;
        }

        private String randomBranch()
        {
            return pick(branches.keySet());
        }

        private String randomBranchOtherThan(String branch)
        {
            List<String> others = branches.keySet().stream().filter(name -> !name.equals(branch)).toList();
            return others.get(random.nextInt(others.size()));
        }

        private <T> T pick(Set<T> choices)
        {
            List<T> list = new ArrayList<>(choices);
            return list.get(random.nextInt(list.size()));
        }
    }
}
