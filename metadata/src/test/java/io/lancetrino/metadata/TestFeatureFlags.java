package io.lancetrino.metadata;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

final class TestFeatureFlags
{
    @Test
    void testKnownFlagsAreReadable()
    {
        assertThat(FeatureFlags.unknownReaderFlags(FeatureFlags.DELETION_FILES | FeatureFlags.BASE_PATHS | FeatureFlags.STABLE_ROW_IDS)).isEmpty();
    }

    @Test
    void testUnknownFlagsAreNamed()
    {
        assertThat(FeatureFlags.unknownReaderFlags(1 | 64)).containsExactly("DATA_OVERLAYS (64)");
        assertThat(FeatureFlags.unknownReaderFlags(1L << 40)).containsExactly("UNKNOWN (1099511627776)");
    }
}
