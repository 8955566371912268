package io.lancetrino.plugin.index;

import io.trino.spi.TrinoException;

import java.util.Map;
import java.util.OptionalInt;

import static io.lancetrino.split.LanceErrorCode.LANCE_INDEX_BUILD_FAILED;

/**
 * The Lance SDK 7.0 builds an inverted index with producers and a writer that both need its CPU pool; with one thread
 * in the pool the build waits on itself forever (lancedb/lancedb#3568, fixed after 7.0 by lance-format/lance#7350).
 * The pool has {@code LANCE_CPU_THREADS} threads, else the processors less {@code LANCE_IO_CORE_RESERVATION} (2), at
 * least one: so on hosts of up to three cores an inverted index build is refused until the variable is set.
 */
public final class LanceCpuThreads
{
    public static final String VARIABLE = "LANCE_CPU_THREADS";
    private static final String RESERVATION_VARIABLE = "LANCE_IO_CORE_RESERVATION";
    private static final int DEFAULT_RESERVATION = 2;
    static final int MINIMUM_FOR_INVERTED_INDEXES = 2;

    private LanceCpuThreads() {}

    /** The threads of the SDK's CPU pool in a process with this environment and these processors. */
    public static int poolSize(Map<String, String> environment, int processors)
    {
        OptionalInt configured = number(environment.get(VARIABLE));
        if (configured.isPresent()) {
            return configured.getAsInt();
        }
        return Math.max(1, processors - number(environment.get(RESERVATION_VARIABLE)).orElse(DEFAULT_RESERVATION));
    }

    /** Refuses an inverted index build (or update) that would never finish, naming the index and the fix. */
    public static void checkInvertedIndexBuild(Map<String, String> environment, int processors, String index)
    {
        int threads = poolSize(environment, processors);
        if (threads < MINIMUM_FOR_INVERTED_INDEXES) {
            throw new TrinoException(LANCE_INDEX_BUILD_FAILED, ("Cannot build inverted index %s: the Lance SDK's CPU pool has %s thread here (%s processors), and Lance 7.0 never finishes an inverted index with fewer than %s; "
                    + "set the environment variable %s=4 for the Trino server (docs/installation.md); nothing was changed").formatted(index, threads, processors, MINIMUM_FOR_INVERTED_INDEXES, VARIABLE));
        }
    }

    static void checkInvertedIndexBuild(String index)
    {
        checkInvertedIndexBuild(System.getenv(), Runtime.getRuntime().availableProcessors(), index);
    }

    private static OptionalInt number(String value)
    {
        if (value == null || value.isBlank()) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(value.strip()));
        }
        catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
