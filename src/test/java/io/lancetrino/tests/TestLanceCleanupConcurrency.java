package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cleanup running again and again while INSERTs commit on main and on a branch: no committed row is lost, every
 * version left behind reads, and cleanup really removed versions meanwhile. The threshold (5 s) is longer than any
 * statement here takes, as the 7-day minimum is longer than any real write.
 */
final class TestLanceCleanupConcurrency
        extends AbstractTestQueryFramework
{
    private static final int INSERTS_PER_WRITER = 25;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-cleanup-concurrency");
        Files.createDirectories(warehouse.resolve("conc"));
        return LanceQueryRunner.builder(warehouse).withSchema("conc").build();
    }

    @Test
    void testCleanupRacingWriters()
            throws Exception
    {
        Session session = Session.builder(getSession()).setCatalogSessionProperty(CATALOG, "cleanup_min_retention", "0s").build();
        assertUpdate("CREATE TABLE busy (id bigint, writer varchar)");
        assertUpdate("INSERT INTO busy SELECT x, 'start' FROM UNNEST(sequence(1, 10)) AS t(x)", 10);
        assertUpdate("CREATE BRANCH dev IN TABLE busy");

        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong versionsRemoved = new AtomicLong();
        ExecutorService executor = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (String branch : List.of("main", "dev")) {
                long firstId = branch.equals("main") ? 1000 : 2000;
                writers.add(executor.submit((Callable<Void>) () -> {
                    for (int i = 0; i < INSERTS_PER_WRITER; i++) {
                        getQueryRunner().execute("INSERT INTO busy @ %s VALUES (%s, '%s')".formatted(branch, firstId + i, branch));
                        Thread.sleep(200);
                    }
                    return null;
                }));
            }
            Future<?> cleaner = executor.submit((Callable<Void>) () -> {
                while (writing.get()) {
                    for (MaterializedRow row : getQueryRunner().execute(session, "ALTER TABLE busy EXECUTE cleanup(retention_threshold => '5s')").getMaterializedRows()) {
                        if (row.getField(0).equals("versions_removed")) {
                            versionsRemoved.addAndGet((Long) row.getField(1));
                        }
                    }
                    Thread.sleep(300);
                }
                return null;
            });
            for (Future<?> writer : writers) {
                writer.get(5, TimeUnit.MINUTES);
            }
            writing.set(false);
            cleaner.get(1, TimeUnit.MINUTES);
        }
        finally {
            executor.shutdownNow();
        }

        assertThat(versionsRemoved.get()).as("cleanup removed versions while the writers ran").isPositive();
        assertQuery("SELECT count(*), count(DISTINCT id) FROM busy WHERE writer = 'main'", "VALUES (%s, %s)".formatted(INSERTS_PER_WRITER, INSERTS_PER_WRITER));
        assertQuery("SELECT count(*) FROM busy WHERE writer = 'start'", "VALUES 10");
        assertQuery("SELECT count(*) FROM busy FOR VERSION AS OF 'dev' WHERE writer = 'dev'", "VALUES " + INSERTS_PER_WRITER);
        assertQuery("SELECT count(*) FROM busy FOR VERSION AS OF 'dev' WHERE writer = 'main'", "VALUES 0");
        // every version cleanup left reads in full
        for (MaterializedRow row : computeActual("SELECT version FROM \"busy$versions\"").getMaterializedRows()) {
            computeActual("SELECT * FROM busy FOR VERSION AS OF " + row.getField(0));
        }
        for (MaterializedRow row : computeActual("SELECT version FROM \"busy@dev$versions\"").getMaterializedRows()) {
            computeActual("SELECT * FROM busy FOR VERSION AS OF 'dev@%s'".formatted(row.getField(0)));
        }
    }
}
