package io.lancetrino.benchmark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scales other than whole numbers and 0.01 ({@code tiny}): the TPC-H schema {@code sf0.001} has a dot in its name,
 * so generating from it failed until the name was quoted.
 */
class TestFractionalScale
{
    @Test
    void namesFractionalScalesPlainly()
    {
        assertThat(BenchmarkOptions.scaleName(0.1)).isEqualTo("0.1");
        assertThat(BenchmarkOptions.scaleName(0.0001)).isEqualTo("0.0001");
        assertThat(BenchmarkOptions.scaleName(1)).isEqualTo("1");
        assertThat(BenchmarkOptions.scaleName(10)).isEqualTo("10");
    }

    @Test
    void generatesAtAFractionalScale(@TempDir Path output)
            throws Exception
    {
        // 0.001: about 6,000 lineitem rows, through the same code path as bin/bench --scale 0.1
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] {"--scale", "0.001", "--output", output.toString()}, output);
        assertThat(options.dataDirectory().getFileName().toString()).isEqualTo("sf0.001");
        try (BenchmarkEnvironment environment = BenchmarkEnvironment.start(options.dataDirectory(), options.lanceProperties())) {
            assertThat(TpchData.ensureGenerated(environment, options)).isPositive();
            Object expected = environment.runner().execute("SELECT count(*) FROM tpch.\"sf0.001\".lineitem").getOnlyValue();
            for (String catalog : TpchData.CATALOGS) {
                assertThat(environment.runner().execute(session(catalog), "SELECT count(*) FROM lineitem").getOnlyValue()).isEqualTo(expected);
            }
        }
    }
}
