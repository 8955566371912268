package io.lancetrino.metadata;

import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Optional;

import static io.lancetrino.metadata.LanceErrorKind.CORRUPT_MANIFEST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestManifestFile
{
    private static final Manifest MANIFEST = Manifest.newBuilder()
            .setVersion(7)
            .addFragments(DataFragment.newBuilder()
                    .setId(3)
                    .setPhysicalRows(10)
                    .addFiles(DataFile.newBuilder().setPath("a.lance").addFields(0).addColumnIndices(0).setFileMajorVersion(2).setFileMinorVersion(1).setBaseId(0)))
            .build();

    @Test
    void testRoundTripWithSideSections()
    {
        Transaction transaction = Transaction.newBuilder().setReadVersion(6).setUuid("u").setAppend(Transaction.Append.getDefaultInstance()).build();
        IndexSection indices = IndexSection.newBuilder().addIndices(IndexMetadata.newBuilder().setName("idx").setDatasetVersion(5)).build();
        byte[] bytes = ManifestFile.serialize(MANIFEST, Optional.of(transaction), Optional.of(indices));

        ManifestFile parsed = ManifestFile.parse("m", bytes);
        assertThat(parsed.version()).isEqualTo(7);
        assertThat(parsed.inlineTransaction()).contains(transaction);
        assertThat(parsed.indexSection()).contains(indices);
        // offset 0 is a real offset: presence, not value, says a section exists
        assertThat(parsed.manifest().hasIndexSection()).isTrue();
        assertThat(parsed.manifest().getIndexSection()).isZero();
        assertThat(parsed.manifest().getFragments(0).getFiles(0).hasBaseId()).isTrue();
        assertThat(parsed.sizeInBytes()).isEqualTo(bytes.length);
    }

    @Test
    void testWithoutSideSections()
    {
        ManifestFile parsed = ManifestFile.parse("m", ManifestFile.serialize(MANIFEST, Optional.empty(), Optional.empty()));
        assertThat(parsed.inlineTransaction()).isEmpty();
        assertThat(parsed.indexSection()).isEmpty();
        assertThat(parsed.manifest().getFragmentsList()).isEqualTo(MANIFEST.getFragmentsList());
    }

    @Test
    void testUnknownFieldsSurvive()
    {
        // a field number from a newer format version
        byte[] withUnknown = MANIFEST.toBuilder()
                .setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder()
                        .addField(99, com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(42).build())
                        .build())
                .build()
                .toByteArray();
        Manifest reparsed = ManifestFile.parse("m", ManifestFile.serialize(parseManifest(withUnknown), Optional.empty(), Optional.empty())).manifest();
        assertThat(reparsed.getUnknownFields().hasField(99)).isTrue();
    }

    @Test
    void testCorruptFilesAreNamed()
    {
        byte[] bytes = ManifestFile.serialize(MANIFEST, Optional.empty(), Optional.empty());
        assertThatThrownBy(() -> ManifestFile.parse("/t/_versions/1.manifest", Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(CORRUPT_MANIFEST))
                .hasMessageContaining("/t/_versions/1.manifest");
        byte[] shifted = bytes.clone();
        shifted[bytes.length - 16] ^= 1;
        assertThatThrownBy(() -> ManifestFile.parse("x", shifted)).hasMessageContaining("Corrupt Lance manifest x");
        byte[] garbage = bytes.clone();
        Arrays.fill(garbage, 4, bytes.length - 16, (byte) 0xFF);
        assertThatThrownBy(() -> ManifestFile.parse("x", garbage)).hasMessageContaining("Corrupt Lance manifest x");
        assertThatThrownBy(() -> ManifestFile.parse("x", new byte[3])).hasMessageContaining("Lance magic");
    }

    private static Manifest parseManifest(byte[] bytes)
    {
        try {
            return Manifest.parseFrom(bytes);
        }
        catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
