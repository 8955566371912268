package io.lancetrino.benchmark;

import com.google.common.collect.ImmutableMap;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * An S3-compatible store for the benchmark: S3Proxy in a process of its own, keeping each bucket as a directory, so a
 * table copied into that directory is an object-store table. The jar is copied next to the benchmark's classes at
 * build time (benchmark/pom.xml).
 */
final class BenchmarkObjectStore
        implements AutoCloseable
{
    static final String ACCESS_KEY = "lance-bench-access";
    static final String SECRET_KEY = "lance-bench-secret";

    private final Process process;
    private final Path data;
    private final int port;

    private BenchmarkObjectStore(Process process, Path data, int port)
    {
        this.process = requireNonNull(process, "process is null");
        this.data = requireNonNull(data, "data is null");
        this.port = port;
    }

    static BenchmarkObjectStore start(Path directory)
            throws IOException, InterruptedException
    {
        Path jar = Path.of(System.getProperty("project.root", "."), "benchmark", "target", "s3proxy", "s3proxy.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("S3Proxy jar not found at %s; bin/bench builds it (mvn install -pl benchmark)".formatted(jar));
        }
        Path data = Files.createDirectories(directory.resolve("data"));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path properties = directory.resolve("s3proxy.properties");
        Files.writeString(properties, String.join("\n",
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                "s3proxy.ignore-unknown-headers=true",
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + data,
                ""), UTF_8);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "-Xmx1g", "-jar", jar.toString(), "--properties", properties.toString()))
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("s3proxy.log").toFile())
                .start();
        BenchmarkObjectStore store = new BenchmarkObjectStore(process, data, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Socket _ = new Socket("127.0.0.1", port)) {
                return store;
            }
            catch (IOException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    store.close();
                    throw new IOException("S3Proxy did not start; see " + directory.resolve("s3proxy.log"), e);
                }
                Thread.sleep(100);
            }
        }
    }

    /**
     * The directory holding a bucket's objects.
     */
    Path bucket(String name)
            throws IOException
    {
        return Files.createDirectories(data.resolve(name));
    }

    Map<String, String> properties()
    {
        return ImmutableMap.<String, String>builder()
                .put("s3.endpoint", "http://127.0.0.1:" + port)
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", ACCESS_KEY)
                .put("s3.aws-secret-key", SECRET_KEY)
                .buildOrThrow();
    }

    @Override
    public void close()
            throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
