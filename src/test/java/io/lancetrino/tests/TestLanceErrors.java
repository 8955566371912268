package io.lancetrino.tests;

import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.ManifestNaming;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.stream.Stream;

import static java.util.regex.Pattern.quote;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Broken tables fail with a message naming what is broken (the manifest, the data file and its fragment, the feature
 * flag, the ref) and never return rows. Each broken table is its own copy of the demo table, broken before the query
 * runner starts, since parsed manifests are cached.
 */
final class TestLanceErrors
        extends AbstractTestQueryFramework
{
    private Path demo;
    private Path corruptManifest;
    private Path truncatedManifest;
    private Path mismatchedManifest;
    private Path missingDataFile;
    private Path missingDeletionFile;
    private Path flagsManifest;
    private Path inheritedDataFile;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-errors");
        Path trips = DemoWarehouse.create(warehouse);
        demo = trips.getParent();

        // the latest manifest (v5) overwritten with garbage
        Path corrupt = copyDirectory(trips, demo.resolve("corrupt.lance"));
        corruptManifest = manifest(corrupt, 5);
        Files.write(corruptManifest, "this is not a Lance manifest".getBytes(java.nio.charset.StandardCharsets.UTF_8));

        // the latest manifest cut in half
        Path truncated = copyDirectory(trips, demo.resolve("truncated.lance"));
        truncatedManifest = manifest(truncated, 5);
        byte[] bytes = Files.readAllBytes(truncatedManifest);
        Files.write(truncatedManifest, Arrays.copyOf(bytes, bytes.length / 2));

        // a well-formed manifest under the wrong version's name
        Path mismatched = copyDirectory(trips, demo.resolve("mismatched.lance"));
        mismatchedManifest = manifest(mismatched, 5);
        Files.copy(manifest(mismatched, 4), mismatchedManifest, StandardCopyOption.REPLACE_EXISTING);

        // a data file of fragment 1 deleted (main v3..v5 read it)
        Path missingFile = copyDirectory(trips, demo.resolve("missingfile.lance"));
        missingDataFile = missingFile.resolve("data").resolve(fragment(missingFile, 5, 1).getFiles(0).getPath());
        Files.delete(missingDataFile);

        // the deletion file of fragment 0 deleted: reading without it would bring back deleted rows
        Path missingDeletion = copyDirectory(trips, demo.resolve("missingdeletion.lance"));
        try (Stream<Path> files = Files.list(missingDeletion.resolve("_deletions"))) {
            missingDeletionFile = files.filter(file -> file.getFileName().toString().startsWith("0-")).findFirst().orElseThrow();
        }
        Files.delete(missingDeletionFile);

        // the latest manifest asks for a reader feature nobody knows
        Path flags = copyDirectory(trips, demo.resolve("flags.lance"));
        flagsManifest = manifest(flags, 5);
        ManifestFile parsed = ManifestFile.parse(flagsManifest.toString(), Files.readAllBytes(flagsManifest));
        Manifest withFlag = parsed.manifest().toBuilder()
                .setReaderFeatureFlags(parsed.manifest().getReaderFeatureFlags() | 1024)
                .build();
        Files.write(flagsManifest, ManifestFile.serialize(withFlag, parsed.inlineTransaction(), parsed.indexSection()));
        ManifestFile rewritten = ManifestFile.parse(flagsManifest.toString(), Files.readAllBytes(flagsManifest));
        assertThat(rewritten.manifest().getReaderFeatureFlags() & 1024).isEqualTo(1024);
        assertThat(rewritten.manifest().getFragmentsList()).isEqualTo(parsed.manifest().getFragmentsList());

        // the branch inherits main's fragment 0 through a base path pointing at the main table's root. The branch
        // manifests name that root absolutely, so this table is its own demo warehouse, linked in
        Path otherWarehouse = TemporaryWarehouses.create("lance-errors-base");
        Path baseTable = DemoWarehouse.create(otherWarehouse);
        Files.createSymbolicLink(demo.resolve("basepath.lance"), baseTable);
        DataFragment inherited = fragment(baseTable.resolve("tree").resolve("experiment"), 4, 0);
        assertThat(inherited.getFiles(0).hasBaseId()).isTrue();
        inheritedDataFile = baseTable.resolve("data").resolve(inherited.getFiles(0).getPath());
        Files.delete(inheritedDataFile);

        // directories that are not tables
        Files.createDirectories(demo.resolve("notatable.lance"));
        Files.createDirectories(demo.resolve("noversions.lance").resolve("data"));
        Files.createDirectories(demo.resolve("emptyversions.lance").resolve("_versions"));
        Files.writeString(demo.resolve("afile.lance"), "not a directory");
        // a table directory without the .lance suffix
        copyDirectory(trips, demo.resolve("nosuffix"));

        return LanceQueryRunner.builder(warehouse).withSchema("demo").build();
    }

    @Test
    void testCorruptManifest()
    {
        String message = "\\QCorrupt Lance manifest " + corruptManifest + ": file does not end with the Lance magic\\E";
        assertQueryFails("SELECT * FROM corrupt", message);
        assertQueryFails("SELECT count(*) FROM corrupt", message);
        assertQueryFails("SELECT count(*) FROM corrupt FOR VERSION AS OF 5", message);
        assertQueryFails("SELECT count(*) FROM corrupt FOR VERSION AS OF 'main'", message);
        assertQueryFails("SELECT * FROM \"corrupt$versions\"", message);
        // versions before the broken one stay readable
        assertThat(query("SELECT * FROM corrupt FOR VERSION AS OF 4")).matches("SELECT * FROM trips FOR VERSION AS OF 4");
        assertQuery("SELECT count(*) FROM corrupt FOR VERSION AS OF 'baseline'", "VALUES 1000");
    }

    @Test
    void testTruncatedManifest()
    {
        String message = "\\QCorrupt Lance manifest " + truncatedManifest + ": file does not end with the Lance magic\\E";
        assertQueryFails("SELECT * FROM truncated", message);
        assertQueryFails("SELECT count(*) FROM truncated", message);
        assertQuery("SELECT count(*) FROM truncated FOR VERSION AS OF 2", "VALUES 1000");
    }

    @Test
    void testManifestOfAnotherVersion()
    {
        assertQueryFails("SELECT count(*) FROM mismatched", "\\QCorrupt Lance manifest " + mismatchedManifest + ": it records version 4, expected 5\\E");
        assertQueryFails("SELECT count(*) FROM mismatched FOR VERSION AS OF 5", "\\QCorrupt Lance manifest " + mismatchedManifest + ": it records version 4, expected 5\\E");
    }

    @Test
    void testMissingDataFile()
    {
        String message = "\\QTable demo.missingfile@main version 5, fragment 1: cannot open data file " + missingDataFile + ": \\E.*";
        assertQueryFails("SELECT * FROM missingfile", message);
        assertQueryFails("SELECT sum(fare) FROM missingfile", message);
        assertQueryFails("SELECT count(*) FROM missingfile WHERE trip_id >= 0", message);
        assertQueryFails("SELECT * FROM missingfile FOR VERSION AS OF 3", "\\QTable demo.missingfile@main version 3, fragment 1: cannot open data file " + missingDataFile + ": \\E.*");
        // versions that do not use the file stay readable
        assertQuery("SELECT count(*), sum(trip_id) FROM missingfile FOR VERSION AS OF 2", "VALUES (1000, 499500)");
    }

    @Test
    void testMissingDeletionFile()
    {
        String message = "\\QTable demo.missingdeletion@main version 5, fragment 0: deletion file " + missingDeletionFile + " does not exist\\E";
        assertQueryFails("SELECT * FROM missingdeletion", message);
        assertQueryFails("SELECT count(*) FROM missingdeletion WHERE fare < 5", message);
        assertQueryFails("SELECT * FROM missingdeletion FOR VERSION AS OF 4", "\\QTable demo.missingdeletion@main version 4, fragment 0: deletion file " + missingDeletionFile + " does not exist\\E");
        assertQuery("SELECT count(*) FROM missingdeletion FOR VERSION AS OF 3", "VALUES 1500");
    }

    @Test
    void testUnknownReaderFeatureFlag()
    {
        String message = quote("Table demo.flags version 5 needs reader features this connector does not support: UNKNOWN (1024) (manifest " + flagsManifest + ")");
        assertQueryFails("SELECT * FROM flags", message);
        assertQueryFails("SELECT count(*) FROM flags", message);
        assertQueryFails("SELECT count(*) FROM flags FOR VERSION AS OF 5", message);
        assertQueryFails("SELECT * FROM \"flags$fragments\"", message);
        assertThat(query("SELECT * FROM flags FOR VERSION AS OF 4")).matches("SELECT * FROM trips FOR VERSION AS OF 4");
    }

    @Test
    void testUnknownRef()
    {
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'nope'",
                quote("Table demo.trips has no tag or branch 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']"));
        assertQueryFails("SELECT * FROM trips FOR VERSION AS OF 'tag:nope'",
                quote("Table demo.trips has no tag 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']"));
        assertQueryFails("SELECT * FROM \"trips@nope$versions\"",
                quote("Table demo.trips has no tag or branch 'nope'. Tags: ['baseline']. Branches: ['main', 'experiment']"));
    }

    @Test
    void testMissingInheritedFile()
    {
        // the branch's own fragment 2 reads fine; fragment 0 lives under the main table's root
        String message = "\\QTable demo.basepath@branch 'experiment' version 4, fragment 0: cannot open data file " + inheritedDataFile + ": \\E.*";
        assertQueryFails("SELECT * FROM basepath FOR VERSION AS OF 'experiment'", message);
        assertQueryFails("SELECT sum(fare) FROM basepath FOR VERSION AS OF 'experiment'", message);
        assertQueryFails("SELECT * FROM basepath FOR VERSION AS OF 'experiment@3'",
                "\\QTable demo.basepath@branch 'experiment' version 3, fragment 0: cannot open data file " + inheritedDataFile + ": \\E.*");
        assertQuery("SELECT count(*) FROM \"basepath@experiment$fragments\" WHERE base_path IS NULL", "VALUES 1");
    }

    @Test
    void testListsOnlyTables()
    {
        assertQuery("SHOW TABLES", "VALUES 'basepath', 'corrupt', 'flags', 'mismatched', 'missingdeletion', 'missingfile', 'trips', 'truncated'");
        assertQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'demo'",
                "VALUES 'basepath', 'corrupt', 'flags', 'mismatched', 'missingdeletion', 'missingfile', 'trips', 'truncated'");
        // listing the columns of the whole schema leaves out the tables whose latest manifest cannot be read
        assertQuery("SELECT table_name, count(*) FROM information_schema.columns WHERE table_schema = 'demo' GROUP BY table_name",
                "VALUES ('basepath', 4), ('missingdeletion', 4), ('missingfile', 4), ('trips', 4)");
        assertQueryReturnsEmptyResult("SELECT column_name FROM information_schema.columns WHERE table_schema = 'demo' AND table_name = 'corrupt'");
        // while reading it still fails with its own message
        assertQueryFails("SHOW COLUMNS FROM corrupt", "\\QCorrupt Lance manifest " + corruptManifest + ": file does not end with the Lance magic\\E");
        for (String name : new String[] {"nope", "notatable", "noversions", "emptyversions", "afile", "nosuffix"}) {
            assertQueryFails("SELECT * FROM " + name, "\\Qline 1:15: Table 'lance.demo." + name + "' does not exist\\E");
        }
        assertQueryFails("SELECT * FROM \"notatable$versions\"", "\\Qline 1:15: Table 'lance.demo.\"notatable$versions\"' does not exist\\E");
        assertQueryFails("SELECT * FROM nope FOR VERSION AS OF 1", "\\Qline 1:15: Table 'lance.demo.nope' does not exist\\E");
        assertQueryFails("SELECT * FROM lance.nope.trips", "\\Qline 1:15: Schema 'nope' does not exist\\E");
    }

    private static Path manifest(Path table, long version)
    {
        Path path = table.resolve("_versions").resolve(ManifestNaming.V2.fileName(version));
        assertThat(path).exists();
        return path;
    }

    private static DataFragment fragment(Path dataset, long version, long fragmentId)
            throws IOException
    {
        Path location = manifest(dataset, version);
        return ManifestFile.parse(location.toString(), Files.readAllBytes(location)).manifest().getFragmentsList().stream()
                .filter(fragment -> fragment.getId() == fragmentId)
                .findFirst()
                .orElseThrow();
    }

    static Path copyDirectory(Path source, Path target)
    {
        try (Stream<Path> paths = Files.walk(source)) {
            paths.forEach(path -> {
                try {
                    Files.copy(path, target.resolve(source.relativize(path).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }
}
