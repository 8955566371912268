package io.lancetrino.tests;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;

import static io.lancetrino.tests.fixtures.ErrorCodes.errorCode;
import static java.util.stream.Collectors.joining;
import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers on several branches of one table at once, and a merge into a branch racing INSERTs into it: nothing is
 * lost, and each branch holds only what was written to it.
 */
final class TestLanceBranchConcurrency
        extends AbstractTestQueryFramework
{
    private static final int INSERTS_PER_WRITER = 10;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-branch-concurrency");
        Files.createDirectories(warehouse.resolve("conc"));
        return LanceQueryRunner.builder(warehouse).withSchema("conc").build();
    }

    @Test
    void testWritersOnBranchesAndMainLoseNothing()
            throws Exception
    {
        assertUpdate("CREATE TABLE parallel (id bigint, writer varchar)");
        assertUpdate("INSERT INTO parallel SELECT x, 'start' FROM UNNEST(sequence(1, 20)) AS t(x)", 20);
        assertUpdate("CREATE BRANCH alpha IN TABLE parallel");
        assertUpdate("DELETE FROM parallel @ alpha WHERE id <= 5", 5);
        assertUpdate("CREATE BRANCH beta IN TABLE parallel");
        long mainVersion = headVersion("parallel", "main");
        long alphaVersion = headVersion("parallel", "alpha");
        long betaVersion = headVersion("parallel", "beta");

        List<String> branches = List.of("main", "alpha", "beta");
        CyclicBarrier start = new CyclicBarrier(branches.size());
        ExecutorService executor = Executors.newFixedThreadPool(branches.size());
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int writer = 0; writer < branches.size(); writer++) {
                String branch = branches.get(writer);
                long firstId = 1000L * (writer + 1);
                writers.add(executor.submit((Callable<Void>) () -> {
                    start.await();
                    for (int i = 0; i < INSERTS_PER_WRITER; i++) {
                        getQueryRunner().execute("INSERT INTO parallel @ %s VALUES (%s, '%s')".formatted(branch, firstId + i, branch));
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get(5, TimeUnit.MINUTES);
            }
        }
        finally {
            executor.shutdownNow();
        }

        // each branch: what it started with plus exactly its own inserts, one version each
        assertThat(ids("parallel", "main")).isEqualTo(union(range(1, 20), range(1000, 1009)));
        assertThat(ids("parallel", "alpha")).isEqualTo(union(range(6, 20), range(2000, 2009)));
        assertThat(ids("parallel", "beta")).isEqualTo(union(range(1, 20), range(3000, 3009)));
        assertQuery("SELECT count(*) FROM parallel FOR VERSION AS OF 'alpha' WHERE writer NOT IN ('start', 'alpha')", "VALUES 0");
        assertThat(headVersion("parallel", "main")).isEqualTo(mainVersion + INSERTS_PER_WRITER);
        assertThat(headVersion("parallel", "alpha")).isEqualTo(alphaVersion + INSERTS_PER_WRITER);
        assertThat(headVersion("parallel", "beta")).isEqualTo(betaVersion + INSERTS_PER_WRITER);
    }

    @Test
    void testMergeRacingInsertsIntoTheTargetLosesNothing()
            throws Exception
    {
        // which interleaving a round gets depends on timing: run rounds until two merges committed on top of inserts
        // that landed while they ran (at most four); the outcome is checked whatever the interleaving
        int rebased = 0;
        int round = 0;
        for (; round < 2 || (rebased < 2 && round < 4); round++) {
            String table = "race" + round;
            // dev adds rows, deletes one of them, and deletes rows of several fragments main has: the merge appends a
            // fragment whose deletion file is named by the id main gives it, and writes deletion files on main
            assertUpdate("CREATE TABLE %s (id bigint, origin varchar) WITH (max_rows_per_file = 2)".formatted(table));
            assertUpdate("INSERT INTO %s SELECT x, 'start' FROM UNNEST(sequence(1, 30)) AS t(x)".formatted(table), 30);
            assertUpdate("CREATE BRANCH dev IN TABLE " + table);
            assertUpdate("INSERT INTO %s @ dev SELECT x, 'dev' FROM UNNEST(sequence(100, 104)) AS t(x)".formatted(table), 5);
            assertUpdate("DELETE FROM %s @ dev WHERE (id < 100 AND id %% 4 = 3) OR id = 102".formatted(table), 8);
            Set<Long> initial = range(1, 30);
            Set<Long> added = difference(range(100, 104), Set.of(102L));
            Set<Long> deleted = Set.of(3L, 7L, 11L, 15L, 19L, 23L, 27L);

            Race race = raceMergeWithInserts(table, 2000L * (round + 1));
            Set<Long> inserted = race.insertedIds();
            Set<Long> withoutMerge = union(initial, inserted);
            Set<Long> merged = new HashSet<>(union(withoutMerge, added));
            merged.removeAll(deleted);
            if (race.mergeFailure().isPresent()) {
                // only a clean commit conflict is allowed, and then the merge changed nothing
                assertThat(errorCode(race.mergeFailure().get())).as("merge failure %s", race.mergeFailure().get()).isEqualTo("LANCE_COMMIT_CONFLICT");
                assertThat(ids(table, "main")).isEqualTo(withoutMerge);
                computeActual("ALTER TABLE %s EXECUTE merge_branch(source => 'dev')".formatted(table));
            }
            else {
                rebased += mergeReadAnOlderVersion(table) ? 1 : 0;
            }
            assertThat(ids(table, "main")).as("round %s", round).isEqualTo(merged);
            assertQuery("SELECT count(*) FROM %s WHERE origin = 'insert'".formatted(table), "VALUES " + inserted.size());
            // the source is untouched
            assertThat(ids(table, "dev")).isEqualTo(difference(union(initial, added), deleted));
        }
        System.out.println("merges committed on top of concurrent inserts: " + rebased + " of " + round);
    }

    /**
     * Writers on main and on a branch change their own rows (INSERT, DELETE, UPDATE, MERGE) while both are compacted and
     * the table is cleaned up, over and over; then the branch merges into main. Each writer's rows on its branch are
     * exactly what it wrote, and main after the merge is {@code T - (B - S) + (S - B)} of the rows (B the fork).
     */
    @Test
    void testWritesAndMaintenanceOnBothSidesThenMerge()
            throws Exception
    {
        assertUpdate("CREATE TABLE busy (id bigint, v varchar) WITH (max_rows_per_file = 10)");
        List<String> writerBranches = List.of("main", "main", "b", "b");
        for (int writer = 0; writer < writerBranches.size(); writer++) {
            assertUpdate("INSERT INTO busy SELECT x, 'seed' FROM UNNEST(sequence(%s, %s)) AS t(x)".formatted(writer * 10_000L, writer * 10_000L + 29), 30);
        }
        assertUpdate("CREATE BRANCH b IN TABLE busy");
        Set<List<Object>> base = rows("SELECT id, v FROM busy");
        Session cleanup = Session.builder(getSession()).setCatalogSessionProperty("lance", "cleanup_min_retention", "0s").build();

        ExecutorService executor = Executors.newFixedThreadPool(writerBranches.size() + 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try {
            List<Future<Map<Long, String>>> writers = new ArrayList<>();
            for (int writer = 0; writer < writerBranches.size(); writer++) {
                int number = writer;
                writers.add(executor.submit(() -> write(number, writerBranches.get(number))));
            }
            Future<Integer> maintenance = executor.submit(() -> {
                int rounds = 0;
                while (writing.get()) {
                    getQueryRunner().execute("ALTER TABLE busy EXECUTE optimize");
                    getQueryRunner().execute("ALTER TABLE busy EXECUTE optimize(branch => 'b')");
                    getQueryRunner().execute(cleanup, "ALTER TABLE busy EXECUTE cleanup(retention_threshold => '10s')");
                    rounds++;
                }
                return rounds;
            });
            for (int writer = 0; writer < writerBranches.size(); writer++) {
                Map<Long, String> expected = writers.get(writer).get(10, TimeUnit.MINUTES);
                long first = writer * 10_000L;
                Set<List<Object>> actual = rows("SELECT id, v FROM busy FOR VERSION AS OF '%s' WHERE id BETWEEN %s AND %s".formatted(writerBranches.get(writer), first, first + 9_999));
                assertThat(actual).as("writer %s on %s", writer, writerBranches.get(writer))
                        .isEqualTo(expected.entrySet().stream().map(entry -> List.<Object>of(entry.getKey(), entry.getValue())).collect(toSet()));
            }
            writing.set(false);
            assertThat(maintenance.get(5, TimeUnit.MINUTES)).isPositive();
        }
        finally {
            writing.set(false);
            executor.shutdownNow();
        }
        Set<List<Object>> source = rows("SELECT id, v FROM busy FOR VERSION AS OF 'b'");
        Set<List<Object>> target = rows("SELECT id, v FROM busy");
        Set<List<Object>> expected = new HashSet<>(target);
        base.stream().filter(row -> !source.contains(row)).forEach(expected::remove);
        source.stream().filter(row -> !base.contains(row)).forEach(expected::add);
        // everything cleanup may take goes first: what the merge reads must have been kept (such as the deletion
        // files a compaction read, when deletions committed while it ran made newer ones)
        computeActual(cleanup, "ALTER TABLE busy EXECUTE cleanup(retention_threshold => '0s')");
        computeActual("ALTER TABLE busy EXECUTE merge_branch(source => 'b')");
        assertThat(rows("SELECT id, v FROM busy")).isEqualTo(expected);
        assertQuery("SELECT count(*) FROM busy", "VALUES " + expected.size());
    }

    /** One writer's statements on its own ids; returns its rows (id to value) as it left them. */
    private Map<Long, String> write(int writer, String branch)
    {
        Random random = new Random(writer);
        long first = writer * 10_000L;
        Map<Long, String> rows = new TreeMap<>();
        for (long id = first; id < first + 30; id++) {
            rows.put(id, "seed");
        }
        long nextId = first + 30;
        for (int step = 0; step < 12; step++) {
            String value = "w%s-%s".formatted(writer, step);
            List<Long> held = new ArrayList<>(rows.keySet());
            List<Long> picked = List.of(held.get(random.nextInt(held.size())), held.get(random.nextInt(held.size())));
            String ids = picked.stream().distinct().map(String::valueOf).collect(joining(", "));
            switch (random.nextInt(4)) {
                case 0 -> {
                    getQueryRunner().execute("INSERT INTO busy @ %s VALUES (%s, '%s'), (%s, '%s')".formatted(branch, nextId, value, nextId + 1, value));
                    rows.put(nextId++, value);
                    rows.put(nextId++, value);
                }
                case 1 -> {
                    getQueryRunner().execute("DELETE FROM busy @ %s WHERE id IN (%s)".formatted(branch, ids));
                    picked.forEach(rows::remove);
                }
                case 2 -> {
                    getQueryRunner().execute("UPDATE busy @ %s SET v = '%s' WHERE id IN (%s)".formatted(branch, value, ids));
                    picked.forEach(id -> rows.put(id, value));
                }
                default -> {
                    getQueryRunner().execute("MERGE INTO busy @ %s USING (VALUES %s, %s) AS s(sid) ON id = sid WHEN MATCHED THEN UPDATE SET v = '%s' WHEN NOT MATCHED THEN INSERT VALUES (sid, '%s')"
                            .formatted(branch, picked.getFirst(), nextId, value, value));
                    rows.put(picked.getFirst(), value);
                    rows.put(nextId++, value);
                }
            }
        }
        return rows;
    }

    private Set<List<Object>> rows(String sql)
    {
        return computeActual(sql).getMaterializedRows().stream().map(MaterializedRow::getFields).collect(toSet());
    }

    private record Race(Set<Long> insertedIds, Optional<Throwable> mergeFailure) {}

    /**
     * Inserts into main one row at a time from before the merge starts until after it ended (at least
     * {@link #INSERTS_PER_WRITER} rows), so commits land while the merge plans and commits.
     */
    private Race raceMergeWithInserts(String table, long firstId)
            throws Exception
    {
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch firstInsertDone = new CountDownLatch(1);
            AtomicBoolean mergeDone = new AtomicBoolean();
            Future<Set<Long>> inserts = executor.submit(() -> {
                Set<Long> ids = new HashSet<>();
                long id = firstId;
                while (ids.size() < INSERTS_PER_WRITER || !mergeDone.get()) {
                    getQueryRunner().execute("INSERT INTO %s VALUES (%s, 'insert')".formatted(table, id));
                    ids.add(id++);
                    firstInsertDone.countDown();
                }
                return ids;
            });
            Future<?> merge = executor.submit((Callable<Void>) () -> {
                try {
                    firstInsertDone.await();
                    getQueryRunner().execute("ALTER TABLE %s EXECUTE merge_branch(source => 'dev', target => 'main')".formatted(table));
                    return null;
                }
                finally {
                    mergeDone.set(true);
                }
            });
            Optional<Throwable> mergeFailure = Optional.empty();
            try {
                merge.get(5, TimeUnit.MINUTES);
            }
            catch (ExecutionException e) {
                mergeFailure = Optional.of(e.getCause());
            }
            return new Race(inserts.get(5, TimeUnit.MINUTES), mergeFailure);
        }
        finally {
            executor.shutdownNow();
        }
    }

    /** Whether the merge's commit was made on a newer version of main than the one it read. */
    private boolean mergeReadAnOlderVersion(String table)
    {
        MaterializedRow merge = computeActual("SELECT version, read_version FROM \"%s$transactions\" WHERE statement = 'MERGE BRANCH'".formatted(table)).getMaterializedRows().getFirst();
        return (long) merge.getField(1) < (long) merge.getField(0) - 1;
    }

    private Set<Long> ids(String table, String branch)
    {
        MaterializedResult rows = computeActual("SELECT id FROM %s FOR VERSION AS OF '%s'".formatted(table, branch));
        assertThat(rows.getRowCount()).as("no id twice on %s", branch).isEqualTo(rows.getOnlyColumnAsSet().size());
        return rows.getOnlyColumnAsSet().stream().map(Long.class::cast).collect(toSet());
    }

    private long headVersion(String table, String branch)
    {
        return (long) computeScalar("SELECT CAST(version AS bigint) FROM \"%s$refs\" WHERE type = 'BRANCH' AND name = '%s'".formatted(table, branch));
    }

    private static Set<Long> range(long first, long last)
    {
        return LongStream.rangeClosed(first, last).boxed().collect(toSet());
    }

    private static Set<Long> union(Set<Long> first, Set<Long> second)
    {
        Set<Long> union = new HashSet<>(first);
        union.addAll(second);
        return union;
    }

    private static Set<Long> difference(Set<Long> first, Set<Long> second)
    {
        Set<Long> difference = new HashSet<>(first);
        difference.removeAll(second);
        return difference;
    }
}
