package io.lancetrino.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A throw-away copy of a table's directory, so the SDK can build an index on the same data without touching the table
 * the benchmark queries.
 */
final class TableCopies
{
    private TableCopies() {}

    interface CopyAction
    {
        double run(Path copy)
                throws Exception;
    }

    static double withCopy(Path table, CopyAction action)
    {
        Path copy = null;
        try {
            // outside the warehouse, where no catalog lists it
            copy = Files.createTempDirectory("lance-bench-copy").resolve(table.getFileName());
            try (Stream<Path> files = Files.walk(table)) {
                for (Path file : files.toList()) {
                    Files.copy(file, copy.resolve(table.relativize(file).toString()));
                }
            }
            return action.run(copy);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (Exception e) {
            throw new RuntimeException("on a copy of " + table, e);
        }
        finally {
            if (copy != null) {
                delete(copy.getParent());
            }
        }
    }

    private static void delete(Path directory)
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
