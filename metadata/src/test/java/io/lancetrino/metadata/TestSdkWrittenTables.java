package io.lancetrino.metadata;

import io.lancetrino.metadata.deletion.DeletionVectors;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.refs.RefResolver;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.WriteParams;
import org.roaringbitmap.RoaringBitmap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The table layer against tables written by the Lance Java SDK: versions in both naming schemes and deletion vectors
 * in both file formats.
 */
@TestInstance(PER_CLASS)
final class TestSdkWrittenTables
{
    private static final Schema SCHEMA = new Schema(List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

    private final BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
    private final LocalTableFileSystem fileSystem = new LocalTableFileSystem();

    @AfterAll
    void close()
    {
        allocator.close();
    }

    @Test
    void testDeletionVectorsInBothFormats(@TempDir Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        writeTable(uri, 20_000, new WriteParams.Builder().build());
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            // Lance writes Arrow deletion files up to 5000 deleted rows and Roaring bitmaps above
            dataset.delete("id % 3 = 0 AND id < 600");
            dataset.delete("id >= 10000 AND id < 17000");
        }
        LanceTable table = new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
        TableSnapshot afterSmall = table.snapshot(Optional.empty(), 3);
        TableSnapshot afterLarge = new RefResolver(table).latest(Optional.empty());
        assertThat(afterLarge.version()).isEqualTo(4);

        DataFragment small = afterSmall.manifest().getFragments(0);
        assertThat(small.getDeletionFile().getFileType()).isEqualTo(DeletionFile.DeletionFileType.ARROW_ARRAY);
        assertThat(readDeletions(afterSmall, small)).isEqualTo(RoaringBitmap.bitmapOf(IntStream.range(0, 600).filter(id -> id % 3 == 0).toArray()));

        DataFragment large = afterLarge.manifest().getFragments(0);
        assertThat(large.getDeletionFile().getFileType()).isEqualTo(DeletionFile.DeletionFileType.BITMAP);
        RoaringBitmap expected = RoaringBitmap.bitmapOf(IntStream.range(0, 600).filter(id -> id % 3 == 0).toArray());
        expected.add(10_000L, 17_000L);
        assertThat(readDeletions(afterLarge, large)).isEqualTo(expected);
        assertThat(large.getDeletionFile().getNumDeletedRows()).isEqualTo(expected.getCardinality());
        assertThat(VersionSummary.of(afterLarge.manifest()).liveRows()).isEqualTo(20_000 - expected.getCardinality());
    }

    @Test
    void testBothManifestNamingSchemes(@TempDir Path dir)
            throws Exception
    {
        String v1 = dir.resolve("v1.lance").toString();
        String v2 = dir.resolve("v2.lance").toString();
        writeTable(v1, 10, new WriteParams.Builder().withEnableV2ManifestPaths(false).build());
        writeTable(v2, 10, new WriteParams.Builder().build());
        assertThat(Files.exists(Path.of(v1, "_versions", "2.manifest"))).isTrue();
        assertThat(Files.exists(Path.of(v2, "_versions", ManifestNaming.V2.fileName(2)))).isTrue();
        for (String uri : List.of(v1, v2)) {
            LanceTable table = new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
            assertThat(table.listVersions(Optional.empty())).containsExactly(1L, 2L);
            assertThat(table.latestVersion(Optional.empty())).hasValue(2);
            assertThat(VersionSummary.of(table.snapshot(Optional.empty(), 2).manifest()).liveRows()).isEqualTo(10);
            assertThat(Transactions.read(fileSystem, table.snapshot(Optional.empty(), 2)).map(Transactions::operationName)).contains("append");
        }
    }

    @Test
    void testStaleHintFallsBackToListing(@TempDir Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        writeTable(uri, 10, new WriteParams.Builder().build());
        Files.writeString(Path.of(uri, "_versions", "latest_version_hint.json"), "{\"version\":1}");
        LanceTable table = new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
        assertThat(table.latestVersion(Optional.empty())).hasValue(2);
        Files.writeString(Path.of(uri, "_versions", "latest_version_hint.json"), "not json");
        assertThat(table.latestVersion(Optional.empty())).hasValue(2);
    }

    private RoaringBitmap readDeletions(TableSnapshot snapshot, DataFragment fragment)
            throws Exception
    {
        String location = FilePaths.deletionFile(snapshot, fragment).orElseThrow();
        return DeletionVectors.read(location, fileSystem.readFile(location), DeletionVectors.isBitmapLocation(location));
    }

    private void writeTable(String uri, int rows, WriteParams params)
            throws Exception
    {
        Dataset.create(allocator, uri, SCHEMA, params).close();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            BigIntVector ids = (BigIntVector) root.getVector(0);
            ids.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                ids.set(i, i);
            }
            root.setRowCount(rows);
            List<FragmentMetadata> fragments = Fragment.create(uri, allocator, root, params);
            new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(1L), Map.of()).close();
        }
    }
}
