package io.lancetrino.tests;

import io.lancetrino.plugin.index.LanceCpuThreads;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.lancetrino.split.LanceErrorCode.LANCE_INDEX_BUILD_FAILED;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * The guard against the Lance SDK 7.0's inverted index build that never finishes with one CPU thread: the pool size
 * follows Lance's rule, and a build that would hang is refused with the fix in the message.
 */
final class TestLanceCpuThreads
{
    @Test
    void testPoolSizeFollowsLance()
    {
        assertThat(LanceCpuThreads.poolSize(Map.of(), 2)).isEqualTo(1);
        assertThat(LanceCpuThreads.poolSize(Map.of(), 3)).isEqualTo(1);
        assertThat(LanceCpuThreads.poolSize(Map.of(), 16)).isEqualTo(14);
        assertThat(LanceCpuThreads.poolSize(Map.of("LANCE_CPU_THREADS", "4"), 2)).isEqualTo(4);
        assertThat(LanceCpuThreads.poolSize(Map.of("LANCE_IO_CORE_RESERVATION", "0"), 2)).isEqualTo(2);
        assertThat(LanceCpuThreads.poolSize(Map.of("LANCE_CPU_THREADS", "many"), 8)).isEqualTo(6);
    }

    @Test
    void testBuildThatWouldHangIsRefused()
    {
        assertTrinoExceptionThrownBy(() -> LanceCpuThreads.checkInvertedIndexBuild(Map.of(), 2, "body_idx"))
                .hasErrorCode(LANCE_INDEX_BUILD_FAILED)
                .hasMessageContaining("Cannot build inverted index body_idx")
                .hasMessageContaining("set the environment variable LANCE_CPU_THREADS=4");
        assertThatCode(() -> LanceCpuThreads.checkInvertedIndexBuild(Map.of("LANCE_CPU_THREADS", "2"), 2, "body_idx")).doesNotThrowAnyException();
        assertThatCode(() -> LanceCpuThreads.checkInvertedIndexBuild(Map.of(), 4, "body_idx")).doesNotThrowAnyException();
    }
}
