package io.lancetrino.metadata.maintenance;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.ManifestFile;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How cleanup's mark set resolves what a manifest names: own files against the dataset, base-path files against their
 * base (a dataset root gets {@code data/} or {@code _deletions/}, any other base is the directory itself), index files
 * by their index directory, and locations spelled as URIs or paths alike.
 */
final class TestFileReferences
{
    private static final UUID INDEX = UUID.fromString("01234567-89ab-cdef-0123-456789abcdef");

    @Test
    void testResolvesOwnAndBasePathFiles()
    {
        Manifest manifest = Manifest.newBuilder()
                .setVersion(7)
                .setTransactionFile("6-abc.txn")
                .addBasePaths(BasePath.newBuilder().setId(1).setIsDatasetRoot(true).setPath("/w/s/source.lance"))
                .addBasePaths(BasePath.newBuilder().setId(2).setIsDatasetRoot(false).setPath("file:///w/s/other/files/"))
                .addFragments(DataFragment.newBuilder().setId(0)
                        .addFiles(DataFile.newBuilder().setPath("own.lance"))
                        .setDeletionFile(DeletionFile.newBuilder().setReadVersion(5).setId(9).setFileType(DeletionFile.DeletionFileType.ARROW_ARRAY)))
                .addFragments(DataFragment.newBuilder().setId(3)
                        .addFiles(DataFile.newBuilder().setPath("inherited.lance").setBaseId(1))
                        .addFiles(DataFile.newBuilder().setPath("plain.lance").setBaseId(2))
                        .setDeletionFile(DeletionFile.newBuilder().setReadVersion(4).setId(8).setFileType(DeletionFile.DeletionFileType.BITMAP).setBaseId(1)))
                .build();
        IndexSection indices = IndexSection.newBuilder()
                .addIndices(IndexMetadata.newBuilder().setName("idx").setUuid(uuid(INDEX)).setBaseId(1))
                .build();
        FileReferences references = new FileReferences();
        references.add("file:///w/s/t.lance/tree/dev/", new ManifestFile("/w/s/t.lance/tree/dev/_versions/7.manifest", manifest, Optional.empty(), Optional.of(indices), 0));

        assertThat(references.contains("/w/s/t.lance/tree/dev/_versions/7.manifest")).isTrue();
        assertThat(references.contains("/w/s/t.lance/tree/dev/_transactions/6-abc.txn")).isTrue();
        assertThat(references.contains("/w/s/t.lance/tree/dev/data/own.lance")).isTrue();
        assertThat(references.contains("/w/s/t.lance/tree/dev/_deletions/0-5-9.arrow")).isTrue();
        assertThat(references.contains("/w/s/source.lance/data/inherited.lance")).isTrue();
        assertThat(references.contains("/w/s/other/files/plain.lance")).isTrue();
        assertThat(references.contains("/w/s/source.lance/_deletions/3-4-8.bin")).isTrue();
        assertThat(references.contains("/w/s/source.lance/_indices/" + INDEX + "/part-0.idx")).isTrue();
        assertThat(references.contains("/w/s/source.lance/_indices/" + INDEX + "/nested/aux.idx")).isTrue();

        // what it does not name
        assertThat(references.contains("/w/s/t.lance/tree/dev/data/inherited.lance")).isFalse();
        assertThat(references.contains("/w/s/t.lance/data/own.lance")).isFalse();
        assertThat(references.contains("/w/s/t.lance/tree/dev/_indices/" + INDEX + "/part-0.idx")).isFalse();
        assertThat(references.contains("/w/s/source.lance/_indices/" + UUID.randomUUID() + "/part-0.idx")).isFalse();
    }

    @Test
    void testLocationsCompareAcrossSpellings()
    {
        assertThat(Locations.normalize("file:///w/s/t.lance/")).isEqualTo("/w/s/t.lance");
        assertThat(Locations.normalize("local:///w/s/t.lance")).isEqualTo("/w/s/t.lance");
        assertThat(Locations.normalize("s3://bucket/w/t.lance/")).isEqualTo("s3://bucket/w/t.lance");
        assertThat(Locations.isWithin("/w/s/t.lance/tree/dev", "/w/s/t.lance")).isTrue();
        assertThat(Locations.isWithin("/w/s/t.lance", "/w/s/t.lance")).isTrue();
        assertThat(Locations.isWithin("/w/s/t.lance2/data", "/w/s/t.lance")).isFalse();
    }

    private static io.lancetrino.metadata.proto.UUID uuid(UUID value)
    {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(value.getMostSignificantBits()).putLong(value.getLeastSignificantBits());
        return io.lancetrino.metadata.proto.UUID.newBuilder().setUuid(ByteString.copyFrom(bytes.array())).build();
    }
}
