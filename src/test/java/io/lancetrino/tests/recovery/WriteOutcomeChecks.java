package io.lancetrino.tests.recovery;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.WriterAttemptFiles;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import io.trino.spi.eventlistener.QueryCreatedEvent;
import io.trino.spi.eventlistener.QueryOutputMetadata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Checks every write to the catalog's tables as it ends, beside the suite's own comparison of rows: a write that
 * failed (after all retries, or with none) added no version; one that succeeded added at most one, and no file of its
 * task attempts is left that the new version does not reference. The counters say how many writes were checked with
 * their table still in place (the engine reports a query's end asynchronously, sometimes after the suite dropped it).
 */
final class WriteOutcomeChecks
        implements EventListener
{
    private final Path warehouse;
    private final String catalog;
    private final Map<String, Map<Path, Long>> versionsAtStart = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicLong checkedSuccesses = new AtomicLong();
    private final AtomicLong checkedFailures = new AtomicLong();

    WriteOutcomeChecks(Path warehouse, String catalog)
    {
        this.warehouse = requireNonNull(warehouse, "warehouse is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public void queryCreated(QueryCreatedEvent event)
    {
        versionsAtStart.put(event.getMetadata().getQueryId(), versionCounts());
    }

    @Override
    public void queryCompleted(QueryCompletedEvent event)
    {
        String queryId = event.getMetadata().getQueryId();
        Map<Path, Long> before = versionsAtStart.remove(queryId);
        Optional<QueryOutputMetadata> output = event.getIoMetadata().getOutput();
        if (before == null || output.isEmpty() || !output.get().getCatalogName().equals(catalog)) {
            return;
        }
        Path table = warehouse.resolve(output.get().getSchema()).resolve(output.get().getTable() + ".lance");
        long versionsBefore = before.getOrDefault(table, 0L);
        long versionsAfter = versionCount(table);
        String statement = "%s (%s)".formatted(queryId, event.getMetadata().getQuery().strip().replaceAll("\\s+", " "));
        // the event can arrive after the client saw the outcome and dropped the table: dropping only lowers the count,
        // so a write that added versions is caught either way; only what remains can be checked for files
        if (event.getFailureInfo().isPresent()) {
            if (versionsAfter > versionsBefore) {
                violations.add("Failed write %s added %s versions to %s".formatted(statement, versionsAfter - versionsBefore, table));
            }
            if (versionsAfter == versionsBefore && versionsAfter > 0) {
                checkedFailures.incrementAndGet();
            }
            return;
        }
        if (versionsAfter > versionsBefore + 1) {
            violations.add("Write %s added %s versions to %s".formatted(statement, versionsAfter - versionsBefore, table));
        }
        if (versionsAfter >= versionsBefore && versionsAfter > 0) {
            try {
                Set<String> stray = strayAttemptFiles(table, queryId);
                if (!stray.isEmpty()) {
                    violations.add("Write %s left files of its task attempts that %s does not reference: %s".formatted(statement, table, stray));
                }
                checkedSuccesses.incrementAndGet();
            }
            catch (RuntimeException e) {
                if (Files.isDirectory(table.resolve("_versions"))) {
                    throw e;
                }
                // dropped while being read
            }
        }
    }

    List<String> violations()
    {
        return List.copyOf(violations);
    }

    long checkedSuccesses()
    {
        return checkedSuccesses.get();
    }

    long checkedFailures()
    {
        return checkedFailures.get();
    }

    private Map<Path, Long> versionCounts()
    {
        Map<Path, Long> counts = new HashMap<>();
        try (Stream<Path> schemas = Files.list(warehouse)) {
            for (Path schema : schemas.filter(Files::isDirectory).toList()) {
                try (Stream<Path> tables = Files.list(schema)) {
                    tables.filter(path -> path.getFileName().toString().endsWith(".lance")).forEach(table -> counts.put(table, versionCount(table)));
                }
            }
        }
        catch (IOException e) {
            // a table dropped while listing: the write that matters is checked against its own table
            return counts;
        }
        return counts;
    }

    private static long versionCount(Path table)
    {
        Path versions = table.resolve("_versions");
        if (!Files.isDirectory(versions)) {
            return 0;
        }
        try (Stream<Path> manifests = Files.list(versions)) {
            return manifests.filter(path -> path.getFileName().toString().endsWith(".manifest")).count();
        }
        catch (NoSuchFileException e) {
            // dropped meanwhile
            return 0;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> strayAttemptFiles(Path table, String queryId)
    {
        LanceTable lance = new LanceTable(new LocalTableFileSystem(), table.toString(), table.toString(), ManifestCache.disabled());
        TableSnapshot latest = lance.snapshot(Optional.empty(), lance.latestVersion(Optional.empty()).orElseThrow());
        Set<String> referenced = latest.manifest().getFragmentsList().stream()
                .map(DataFragment::getFilesList)
                .flatMap(List::stream)
                .map(DataFile::getPath)
                .collect(Collectors.toSet());
        Path data = table.resolve("data");
        if (!Files.isDirectory(data)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(data)) {
            return files.map(path -> path.getFileName().toString())
                    .filter(name -> WriterAttemptFiles.writtenBy(name, queryId) && !referenced.contains(name))
                    .collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
