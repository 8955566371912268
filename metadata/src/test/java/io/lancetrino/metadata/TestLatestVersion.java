package io.lancetrino.metadata;

import io.lancetrino.metadata.fs.FileEntry;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.Manifest;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.WriteParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Opening a table and finding its latest version read the version hint and never list {@code _versions/} while the
 * hint is confirmed, so their cost does not grow with the number of versions.
 */
@TestInstance(PER_CLASS)
final class TestLatestVersion
{
    private static final Schema SCHEMA = new Schema(List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

    private final BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);

    @AfterAll
    void close()
    {
        allocator.close();
    }

    @Test
    void testConfirmedHintSavesListingVersions(@TempDir Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
        LanceTable created = new LanceTable(new LocalTableFileSystem(), uri, "t", ManifestCache.disabled());
        Manifest first = created.snapshot(Optional.empty(), 1).manifest();
        Path versions = Path.of(created.versionsDirectory(Optional.empty()));
        for (long version = 2; version <= 5; version++) {
            Files.write(versions.resolve(ManifestNaming.V2.fileName(version)), ManifestFile.serialize(first.toBuilder().setVersion(version).build(), Optional.empty(), Optional.empty()));
        }
        Path hint = versions.resolve("latest_version_hint.json");
        Files.writeString(hint, "{\"version\":5}");

        CountingFileSystem fileSystem = new CountingFileSystem();
        LanceTable table = new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
        assertThat(LanceTable.isTable(fileSystem, uri)).isTrue();
        assertThat(table.latestVersion(Optional.empty())).hasValue(5);
        assertThat(fileSystem.listings).isZero();

        // a stale hint is not trusted: _versions/ is listed
        Files.writeString(hint, "{\"version\":3}");
        assertThat(table.latestVersion(Optional.empty())).hasValue(5);
        assertThat(fileSystem.listings).isEqualTo(1);

        // without a hint a table is still recognized, by listing
        Files.delete(hint);
        assertThat(LanceTable.isTable(fileSystem, uri)).isTrue();
        assertThat(fileSystem.listings).isEqualTo(2);
        assertThat(LanceTable.isTable(fileSystem, dir.resolve("missing.lance").toString())).isFalse();
    }

    private static final class CountingFileSystem
            extends LocalTableFileSystem
    {
        private int listings;

        @Override
        public List<FileEntry> listFiles(String directory)
                throws IOException
        {
            listings++;
            return super.listFiles(directory);
        }
    }
}
