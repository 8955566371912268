package io.lancetrino.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What the plugin costs a Trino server: the plugin zip, the SDK add-on zip and the part of that which is lance-core (the
 * SDK with its native libraries), and a single-node server's resident memory with one Lance catalog (both zips
 * installed), first after reads and writes that the Java reader and writer serve alone, then after a scan through the
 * SDK, which loads lance-core's native library.
 */
final class Footprint
{
    private Footprint() {}

    /**
     * @param zipBytes the plugin zip, all a catalog needs to read and write tables
     * @param sdkAddOnBytes the SDK add-on zip
     * @param lanceCoreBytes bytes of lance-core's jar in the add-on (uncompressed)
     * @param javaPathLibraryMapped whether lance-core's native library was mapped after the Java-only workload
     * @param javaPathRssBytes the server's resident memory after it
     * @param sdkPathRssBytes the server's resident memory after the scan through the SDK
     * @param nativeLibraryRssBytes the resident bytes of lance-core's native library's own mappings then
     */
    record Result(long zipBytes, long sdkAddOnBytes, long lanceCoreBytes, boolean javaPathLibraryMapped, long javaPathRssBytes, long sdkPathRssBytes, long nativeLibraryRssBytes) {}

    static Result measure(BenchmarkEnvironment environment, Path workDirectory)
            throws Exception
    {
        Path zip = zip("plugin/target", "trino-lance-");
        Path addOn = zip("sdk/target", "trino-lance-sdk-");
        long lanceCore;
        try (ZipFile file = new ZipFile(addOn.toFile())) {
            lanceCore = file.stream().filter(entry -> entry.getName().contains("/lance-core-")).mapToLong(ZipEntry::getSize).sum();
        }
        try (ClusterTimings.Server server = ClusterTimings.Server.start(environment, workDirectory, 0);
                Connection connection = server.connect("NONE");
                Statement statement = connection.createStatement()) {
            ProcessHandle jvm = server.process().children()
                    .filter(child -> child.info().arguments().map(arguments -> List.of(arguments).contains("-Dnode.id=serve-1")).orElse(false))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no server JVM under bin/serve"));
            drain(statement, "SELECT sum(l_extendedprice), count(DISTINCT l_comment) FROM lineitem");
            statement.execute("CREATE TABLE footprint_orders AS SELECT * FROM orders");
            drain(statement, "SELECT count(*), sum(o_totalprice) FROM footprint_orders");
            boolean mapped = nativeLibraryRss(jvm.pid()).isPresent();
            long javaRss = rss(jvm.pid());
            statement.execute("SET SESSION lance.file_reader = 'sdk'");
            drain(statement, "SELECT sum(l_extendedprice), count(DISTINCT l_comment) FROM lineitem");
            long sdkRss = rss(jvm.pid());
            long libraryRss = nativeLibraryRss(jvm.pid()).orElse(0L);
            statement.execute("DROP TABLE footprint_orders");
            return new Result(Files.size(zip), Files.size(addOn), lanceCore, mapped, javaRss, sdkRss, libraryRss);
        }
    }

    private static Path zip(String directory, String prefix)
            throws IOException
    {
        Path target = Path.of(System.getProperty("project.root", ".")).resolve(directory);
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix) && file.getFileName().toString().endsWith(".zip")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no %s*.zip in %s".formatted(prefix, target)));
        }
    }

    private static void drain(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                // drain
            }
        }
    }

    /** VmRSS of the process, in bytes. */
    private static long rss(long pid)
    {
        return statusField(pid, "VmRSS:");
    }

    private static long statusField(long pid, String field)
    {
        try {
            return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
                    .filter(line -> line.startsWith(field))
                    .mapToLong(line -> Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024)
                    .findFirst()
                    .orElseThrow();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resident bytes of the mappings of lance-core's native library, empty when it is not mapped. */
    private static Optional<Long> nativeLibraryRss(long pid)
    {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "smaps"));
            long rss = 0;
            boolean mapped = false;
            boolean inLibrary = false;
            for (String line : lines) {
                if (!line.isEmpty() && !Character.isUpperCase(line.charAt(0))) {
                    // a mapping's header line: address range, permissions, offset, device, inode, path
                    inLibrary = line.contains("lance_jni");
                    mapped |= inLibrary;
                }
                else if (inLibrary && line.startsWith("Rss:")) {
                    rss += Long.parseLong(line.substring(4).trim().split("\\s+")[0]) * 1024;
                }
            }
            return mapped ? Optional.of(rss) : Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
