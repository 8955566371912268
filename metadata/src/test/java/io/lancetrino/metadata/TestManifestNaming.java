package io.lancetrino.metadata;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

final class TestManifestNaming
{
    @Test
    void testV2NamesInvertTheVersion()
    {
        assertThat(ManifestNaming.V2.fileName(1)).isEqualTo("18446744073709551614.manifest");
        assertThat(ManifestNaming.V2.fileName(3)).isEqualTo("18446744073709551612.manifest");
        assertThat(ManifestNaming.V2.fileName(Long.MAX_VALUE)).isEqualTo("09223372036854775808.manifest");
        assertThat(ManifestNaming.versionOf("18446744073709551612.manifest")).hasValue(3);
        assertThat(ManifestNaming.versionOf("09223372036854775808.manifest")).hasValue(Long.MAX_VALUE);
        assertThat(ManifestNaming.namingOf("18446744073709551612.manifest")).contains(ManifestNaming.V2);
    }

    @Test
    void testV1Names()
    {
        assertThat(ManifestNaming.V1.fileName(12)).isEqualTo("12.manifest");
        assertThat(ManifestNaming.versionOf("12.manifest")).hasValue(12);
        assertThat(ManifestNaming.namingOf("12.manifest")).contains(ManifestNaming.V1);
    }

    @Test
    void testIgnoresNamesOutsideHistory()
    {
        assertThat(ManifestNaming.versionOf("d9223372036854775809.manifest")).isEmpty();
        assertThat(ManifestNaming.versionOf("latest_version_hint.json")).isEmpty();
        assertThat(ManifestNaming.versionOf("3.manifest-6f0c")).isEmpty();
        assertThat(ManifestNaming.versionOf(".tmp-3.manifest-abc")).isEmpty();
        assertThat(ManifestNaming.versionOf(".manifest")).isEmpty();
        assertThat(ManifestNaming.namingOf("x.manifest")).isEqualTo(Optional.empty());
    }
}
