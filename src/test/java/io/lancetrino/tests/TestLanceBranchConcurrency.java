package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.spi.TrinoException;
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
import java.util.Optional;
import java.util.Set;
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

    private static String errorCode(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TrinoException trinoException) {
                return trinoException.getErrorCode().getName();
            }
        }
        return "no Trino error code in " + failure;
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
