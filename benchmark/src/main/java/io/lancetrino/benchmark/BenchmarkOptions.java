package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableList;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * What {@code bin/bench} measures and where it keeps the data.
 *
 * @param scale TPC-H scale factor; the data is generated once per scale and reused by later runs
 * @param runs timed runs of each query on each connector, after one warm-up run each
 * @param fragmentCounts fragment counts of the synthetic tables split planning is timed on
 * @param versionCount versions of the synthetic table latest-version resolution and {@code $versions} are timed on
 */
public record BenchmarkOptions(
        double scale,
        int runs,
        Path dataDirectory,
        Path outputDirectory,
        boolean regenerate,
        List<Integer> fragmentCounts,
        int versionCount)
{
    public BenchmarkOptions
    {
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(outputDirectory, "outputDirectory is null");
        fragmentCounts = ImmutableList.copyOf(fragmentCounts);
        if (scale <= 0 || runs <= 0 || versionCount < 2) {
            throw new IllegalArgumentException("scale and runs must be positive and versions at least 2");
        }
    }

    public static BenchmarkOptions parse(String[] args, Path projectRoot)
    {
        double scale = 1;
        int runs = 5;
        boolean regenerate = false;
        List<Integer> fragments = List.of(1_000, 10_000, 100_000);
        int versions = 10_000;
        Path output = projectRoot.resolve("target/benchmark");
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--scale" -> scale = Double.parseDouble(required(args[i], value));
                case "--runs" -> runs = Integer.parseInt(required(args[i], value));
                case "--output" -> output = Path.of(required(args[i], value));
                case "--fragments" -> fragments = Arrays.stream(required(args[i], value).split(",")).map(String::trim).map(Integer::parseInt).toList();
                case "--versions" -> versions = Integer.parseInt(required(args[i], value));
                case "--regenerate" -> {
                    regenerate = true;
                    continue;
                }
                default -> throw new IllegalArgumentException("Unknown option " + args[i] + "; options: --scale N --runs N --output DIR --fragments N,N --versions N --regenerate");
            }
            i++;
        }
        return new BenchmarkOptions(scale, runs, output.resolve("data").resolve("sf" + scaleName(scale)), output, regenerate, fragments, versions);
    }

    private static String required(String option, String value)
    {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /**
     * The TPC-H connector's schema for the scale: {@code tiny} is 0.01, others are {@code sf<scale>}.
     */
    public String tpchSchema()
    {
        return scale == 0.01 ? "tiny" : "sf" + scaleName(scale);
    }

    static String scaleName(double scale)
    {
        return scale == Math.rint(scale) ? String.valueOf((long) scale) : String.format(Locale.ROOT, "%s", scale);
    }
}
