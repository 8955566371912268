package io.lancetrino.tests;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.tests.fixtures.FileAges;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static io.lancetrino.tests.fixtures.ErrorCodes.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random histories (inserts, deletes, updates, compactions, branches of branches, tags on any branch, shallow and deep clones,
 * clones of clones, writes to clones, merges, killed writes), then cleanup of every table with no retention at all:
 * every ref, tagged version, fork point and clone reads exactly the rows it read before; every file of a table that
 * no remaining manifest of any table names is gone; and a second cleanup changes nothing.
 * <p>
 * {@code -Dlance.cleanup.seeds=N}, {@code -Dlance.cleanup.steps=N} and {@code -Dlance.cleanup.seed=S} (the first seed)
 * run longer or replay one history; a failure names its seed and steps.
 */
final class TestLanceCleanupProperty
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "gc";
    private static final String CLONES = "gc_clones";

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-cleanup-property");
        Files.createDirectories(warehouse.resolve(SCHEMA));
        Files.createDirectories(warehouse.resolve(CLONES));
        return LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
    }

    @Test
    void testCleanupKeepsEveryReadAndLeavesNoGarbage()
    {
        long firstSeed = Long.getLong("lance.cleanup.seed", 7_2026L);
        int seeds = Integer.getInteger("lance.cleanup.seeds", 4);
        int steps = Integer.getInteger("lance.cleanup.steps", 18);
        for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
            History history = new History(seed);
            try {
                history.run(steps);
                history.check();
            }
            catch (Throwable e) {
                throw new AssertionError("Cleanup property failed for seed %s (replay with -Dlance.cleanup.seed=%s -Dlance.cleanup.seeds=1); steps:%n  %s"
                        .formatted(seed, seed, String.join("\n  ", history.steps)), e);
            }
        }
    }

    private Session noMinimum()
    {
        return Session.builder(getSession()).setCatalogSessionProperty(CATALOG, "cleanup_min_retention", "0s").build();
    }

    private final class History
    {
        private final Random random;
        private final String table;
        private final List<String> steps = new ArrayList<>();
        private final Map<String, String> branchParents = new LinkedHashMap<>();
        private final List<String> tags = new ArrayList<>();
        // clone name -> the table it was cloned from (schema.table)
        private final Map<String, String> clones = new LinkedHashMap<>();
        private long nextId = 1;

        History(long seed)
        {
            this.random = new Random(seed);
            this.table = "t" + seed;
        }

        void run(int stepCount)
        {
            execute("CREATE TABLE %s.%s (id bigint, v varchar)".formatted(SCHEMA, table));
            insert("main");
            for (int i = 0; i < stepCount; i++) {
                randomStep(i);
            }
        }

        private void randomStep(int step)
        {
            int choice = random.nextInt(100);
            List<String> branches = new ArrayList<>(branchParents.keySet());
            branches.add(0, "main");
            String branch = branches.get(random.nextInt(branches.size()));
            String target = "%s.%s @ %s".formatted(SCHEMA, table, branch);
            if (choice < 20) {
                insert(branch);
            }
            else if (choice < 28) {
                execute("DELETE FROM %s WHERE id %% 3 = %s".formatted(target, random.nextInt(3)));
            }
            else if (choice < 36) {
                // every row one INSERT wrote: its whole fragment leaves the branch, and with it the data file
                Object lowest = getQueryRunner().execute("SELECT min(id) FROM %s.%s FOR VERSION AS OF '%s'".formatted(SCHEMA, table, branch)).getOnlyValue();
                if (lowest != null) {
                    long batch = 1 + ((Long) lowest - 1) / 5 * 5;
                    execute("DELETE FROM %s WHERE id BETWEEN %s AND %s".formatted(target, batch, batch + 4));
                }
            }
            else if (choice < 42) {
                execute("UPDATE %s SET v = 'u%s' WHERE id %% 4 = %s".formatted(target, step, random.nextInt(4)));
            }
            else if (choice < 52 && branchParents.size() < 4) {
                String name = "b" + step;
                execute("CREATE BRANCH %s IN TABLE %s.%s FROM %s".formatted(name, SCHEMA, table, branch));
                branchParents.put(name, branch);
            }
            else if (choice < 59 && tags.size() < 3) {
                String name = "tag" + step;
                execute("CALL lance.system.create_tag('%s', '%s', '%s', '%s')".formatted(SCHEMA, table, name, branch));
                tags.add(name);
            }
            else if (choice < 71 && clones.size() < 3) {
                clone(step, branch);
            }
            else if (choice < 77 && !clones.isEmpty()) {
                List<String> names = new ArrayList<>(clones.keySet());
                String clone = names.get(random.nextInt(names.size()));
                execute("INSERT INTO %s.%s VALUES (%s, 'clone')".formatted(CLONES, clone, nextId++));
            }
            else if (choice < 85 && !branchParents.isEmpty()) {
                List<String> names = new ArrayList<>(branchParents.keySet());
                String source = names.get(random.nextInt(names.size()));
                try {
                    execute("ALTER TABLE %s.%s EXECUTE merge_branch(source => '%s', target => '%s', on_conflict => 'source_wins')".formatted(SCHEMA, table, source, branchParents.get(source)));
                }
                catch (RuntimeException e) {
                    // documented limits, refused as merge conflicts: a fragment one side compacted and the other
                    // changed; merges of merges across a compaction
                    if (!errorCode(getQueryRunner(), e).equals("LANCE_MERGE_CONFLICT")) {
                        throw new AssertionError("merge failed with " + errorCode(getQueryRunner(), e), e);
                    }
                    steps.add("  (refused: " + e.getMessage() + ")");
                }
            }
            else if (choice < 94) {
                // compaction makes the old data files garbage unless a ref or clone still reads them
                execute("ALTER TABLE %s.%s EXECUTE optimize(branch => '%s')".formatted(SCHEMA, table, branch));
            }
            else {
                killedWrite(branch);
            }
        }

        private void insert(String branch)
        {
            long first = nextId;
            nextId += 5;
            execute("INSERT INTO %s.%s @ %s SELECT x, '%s' FROM UNNEST(sequence(%s, %s)) AS t(x)".formatted(SCHEMA, table, branch, branch, first, first + 4));
        }

        private void clone(int step, String branch)
        {
            String name = table + "_c" + step;
            boolean ofClone = !clones.isEmpty() && random.nextBoolean();
            String procedure = random.nextInt(4) == 0 ? "deep_clone" : "shallow_clone";
            if (ofClone) {
                List<String> names = new ArrayList<>(clones.keySet());
                String source = names.get(random.nextInt(names.size()));
                execute("CALL lance.system.%s('%s', '%s', '%s', '%s')".formatted(procedure, CLONES, source, CLONES, name));
                clones.put(name, CLONES + "." + source);
            }
            else {
                // any version of the branch, so the clone's source is often one nothing else keeps
                String versions = branch.equals("main") ? "\"%s$versions\"".formatted(table) : "\"%s@%s$versions\"".formatted(table, branch);
                List<MaterializedRow> rows = getQueryRunner().execute("SELECT version FROM %s.%s".formatted(SCHEMA, versions)).getMaterializedRows();
                long version = (Long) rows.get(random.nextInt(rows.size())).getField(0);
                String ref = branch.equals("main") ? Long.toString(version) : branch + "@" + version;
                execute("CALL lance.system.%s('%s', '%s', '%s', '%s', '%s')".formatted(procedure, SCHEMA, table, CLONES, name, ref));
                clones.put(name, SCHEMA + "." + table);
                if (random.nextBoolean()) {
                    // compacting the source right after is when only the clone still reads the old files
                    execute("ALTER TABLE %s.%s EXECUTE optimize(branch => '%s')".formatted(SCHEMA, table, branch));
                }
            }
        }

        // what a killed INSERT and a killed commit leave: an unreferenced data file, a staging file, a transaction
        private void killedWrite(String branch)
        {
            Path dataset = branch.equals("main") ? tableRoot() : tableRoot().resolve("tree").resolve(branch);
            steps.add("killed write on " + branch);
            try {
                Files.createDirectories(dataset.resolve("data"));
                Files.write(dataset.resolve("data").resolve(UUID.randomUUID() + ".lance"), new byte[64]);
                Files.write(dataset.resolve("data").resolve(".tmp_" + UUID.randomUUID()), new byte[64]);
                Files.write(dataset.resolve("_transactions").resolve("0-" + UUID.randomUUID() + ".txn"), new byte[16]);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private Path tableRoot()
        {
            return warehouse.resolve(SCHEMA).resolve(table + ".lance");
        }

        private void execute(String sql)
        {
            steps.add(sql);
            getQueryRunner().execute(sql);
        }

        /**
         * Every read cleanup promises to keep, by the SQL that reads it.
         */
        private List<String> promisedReads()
        {
            String name = SCHEMA + "." + table;
            List<String> reads = new ArrayList<>();
            reads.add("SELECT * FROM " + name);
            for (MaterializedRow ref : getQueryRunner().execute("SELECT name, type, parent_branch, parent_version FROM \"%s$refs\"".formatted(table).replace("\"" + table, SCHEMA + ".\"" + table)).getMaterializedRows()) {
                String refName = (String) ref.getField(0);
                if (refName.equals("main")) {
                    continue;
                }
                reads.add("SELECT * FROM %s FOR VERSION AS OF '%s'".formatted(name, refName));
                if (ref.getField(1).equals("BRANCH")) {
                    String parent = (String) ref.getField(2);
                    long version = (Long) ref.getField(3);
                    reads.add(parent.equals("main")
                            ? "SELECT * FROM %s FOR VERSION AS OF %s".formatted(name, version)
                            : "SELECT * FROM %s FOR VERSION AS OF '%s@%s'".formatted(name, parent, version));
                }
            }
            for (String clone : clones.keySet()) {
                reads.add("SELECT * FROM %s.%s".formatted(CLONES, clone));
            }
            return reads;
        }

        private Map<String, List<MaterializedRow>> readAll(List<String> reads)
        {
            Map<String, List<MaterializedRow>> results = new LinkedHashMap<>();
            for (String sql : reads) {
                List<MaterializedRow> rows = new ArrayList<>(getQueryRunner().execute(sql).getMaterializedRows());
                rows.sort((left, right) -> left.toString().compareTo(right.toString()));
                results.put(sql, rows);
            }
            return results;
        }

        private List<String> tableNames()
        {
            List<String> names = new ArrayList<>();
            names.add(SCHEMA + "." + table);
            clones.keySet().forEach(clone -> names.add(CLONES + "." + clone));
            Collections.shuffle(names, random);
            return names;
        }

        void check()
        {
            List<String> reads = promisedReads();
            Map<String, List<MaterializedRow>> before = readAll(reads);
            FileAges.ageAll(warehouse);
            for (String name : tableNames()) {
                steps.add("cleanup " + name);
                getQueryRunner().execute(noMinimum(), "ALTER TABLE %s EXECUTE cleanup(retention_threshold => '0s')".formatted(name));
            }
            assertThat(readAll(reads)).isEqualTo(before);
            Set<Path> unreferenced = unreferencedFiles();
            assertThat(unreferenced).as("files no manifest of any table names").isEmpty();

            Map<Path, Long> files = listing();
            for (String name : tableNames()) {
                steps.add("cleanup again " + name);
                for (MaterializedRow row : getQueryRunner().execute(noMinimum(), "ALTER TABLE %s EXECUTE cleanup(retention_threshold => '0s')".formatted(name)).getMaterializedRows()) {
                    String metric = (String) row.getField(0);
                    if (metric.endsWith("_removed")) {
                        assertThat((Long) row.getField(1)).as("%s of a second cleanup of %s", metric, name).isZero();
                    }
                }
            }
            assertThat(listing()).isEqualTo(files);
            assertThat(readAll(reads)).isEqualTo(before);
        }

        private List<Path> tableRoots()
        {
            List<Path> roots = new ArrayList<>();
            roots.add(tableRoot());
            clones.keySet().forEach(clone -> roots.add(warehouse.resolve(CLONES).resolve(clone + ".lance")));
            return roots;
        }

        private Map<Path, Long> listing()
        {
            Map<Path, Long> files = new HashMap<>();
            for (Path root : tableRoots()) {
                try (Stream<Path> paths = Files.walk(root)) {
                    for (Path path : paths.filter(Files::isRegularFile).toList()) {
                        files.put(path, Files.size(path));
                    }
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return files;
        }

        /**
         * Files in the tables' data, deletion, index, transaction and version directories that no remaining manifest
         * of any of the tables names, resolved the way reads resolve them.
         */
        private Set<Path> unreferencedFiles()
        {
            Set<String> referenced = new HashSet<>();
            Set<String> indexDirectories = new HashSet<>();
            for (Path root : tableRoots()) {
                LanceTable lance = new LanceTable(new LocalTableFileSystem(), root.toString(), root.toString(), ManifestCache.disabled());
                List<Optional<String>> datasets = new ArrayList<>();
                datasets.add(Optional.empty());
                lance.refs().listBranches().forEach(branch -> datasets.add(Optional.of(branch.name())));
                for (Optional<String> dataset : datasets) {
                    for (long version : lance.listVersions(dataset)) {
                        TableSnapshot snapshot = lance.snapshot(dataset, version);
                        referenced.add(normalize(snapshot.manifestFile().location()));
                        referenced.add(normalize(snapshot.datasetLocation() + "/_transactions/" + snapshot.manifest().getTransactionFile()));
                        for (DataFragment fragment : snapshot.manifest().getFragmentsList()) {
                            for (DataFile file : fragment.getFilesList()) {
                                referenced.add(normalize(FilePaths.dataFile(snapshot, fragment, file)));
                            }
                            FilePaths.deletionFile(snapshot, fragment).ifPresent(location -> referenced.add(normalize(location)));
                        }
                        for (IndexMetadata index : snapshot.manifestFile().indexSection().map(section -> section.getIndicesList()).orElse(List.of())) {
                            indexDirectories.add(normalize(FilePaths.indexDirectory(snapshot, index)));
                        }
                    }
                }
            }
            Set<Path> unreferenced = new TreeSet<>();
            for (Path file : listing().keySet()) {
                String location = normalize(file.toString());
                String relative = file.toString();
                boolean tracked = Stream.of("/data/", "/_deletions/", "/_transactions/", "/_versions/", "/_indices/").anyMatch(relative::contains);
                if (!tracked || relative.endsWith("latest_version_hint.json") || relative.contains("/_refs/")) {
                    continue;
                }
                if (!referenced.contains(location) && indexDirectories.stream().noneMatch(directory -> location.startsWith(directory + "/"))) {
                    unreferenced.add(file);
                }
            }
            return unreferenced;
        }
    }

    private static String normalize(String location)
    {
        return Path.of(location.startsWith("file:") ? java.net.URI.create(location).getPath() : location).normalize().toString();
    }
}
