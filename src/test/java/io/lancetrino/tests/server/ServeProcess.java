package io.lancetrino.tests.server;

import com.google.common.collect.ImmutableList;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * {@code bin/serve} run as users run it: a separate process (the script, and the Trino server JVM it starts), ready
 * once the script prints its readiness line, stopped with SIGTERM.
 */
public final class ServeProcess
        implements AutoCloseable
{
    private static final String READY = "Trino with the Lance connector is ready at ";

    private final Process process;
    private final Path serverDirectory;
    private final int port;
    private final List<String> output = new CopyOnWriteArrayList<>();
    /** workers started again after a kill: no longer the script's children, so stopped here */
    private final List<Process> restartedWorkers = new CopyOnWriteArrayList<>();

    private ServeProcess(Process process, Path serverDirectory, int port)
    {
        this.process = requireNonNull(process, "process is null");
        this.serverDirectory = requireNonNull(serverDirectory, "serverDirectory is null");
        this.port = port;
    }

    public static Path projectRoot()
    {
        return Path.of(System.getProperty("lance.project.root", "../..")).toAbsolutePath().normalize();
    }

    public static Path pluginZip()
            throws IOException
    {
        return builtZip("plugin", "trino-lance-\\d.*\\.zip");
    }

    /** The SDK add-on zip, which the servers of the tests install beside the plugin. */
    public static Path sdkZip()
            throws IOException
    {
        return builtZip("sdk", "trino-lance-sdk-.*\\.zip");
    }

    private static Path builtZip(String module, String namePattern)
            throws IOException
    {
        try (var files = Files.list(projectRoot().resolve(module + "/target"))) {
            return files.filter(file -> file.getFileName().toString().matches(namePattern))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("No zip in %s/target: build the %s module first".formatted(module, module)));
        }
    }

    /**
     * Starts {@code bin/serve} and waits for its readiness line; the first start also assembles the server, which
     * needs the package registry and can take minutes.
     */
    public static ServeProcess start(Path serverDirectory, Path warehouse, Path sandbox, long timeout, TimeUnit unit)
            throws IOException, InterruptedException, TimeoutException
    {
        return start(serverDirectory, warehouse, sandbox, 0, timeout, unit);
    }

    /**
     * With {@code workers} above 0, {@code bin/serve --workers}: a coordinator and that many worker processes.
     */
    public static ServeProcess start(Path serverDirectory, Path warehouse, Path sandbox, int workers, long timeout, TimeUnit unit)
            throws IOException, InterruptedException, TimeoutException
    {
        return start(serverDirectory, ImmutableList.of("--warehouse", warehouse.toString()), sandbox, workers, timeout, unit);
    }

    /**
     * {@code bin/serve --access-control RULES}: Trino's file-based system access control with that rules file.
     */
    public static ServeProcess startWithAccessControl(Path serverDirectory, Path warehouse, Path sandbox, int workers, Path rules, long timeout, TimeUnit unit)
            throws IOException, InterruptedException, TimeoutException
    {
        return start(serverDirectory, ImmutableList.of("--warehouse", warehouse.toString(), "--access-control", rules.toString()), sandbox, workers, timeout, unit);
    }

    /**
     * {@code bin/serve --s3}: the {@code lance} warehouse on the S3 server the script starts, whose bucket is the
     * directory {@link #s3Warehouse()}.
     */
    public static ServeProcess startOnS3(Path serverDirectory, Path sandbox, int workers, long timeout, TimeUnit unit)
            throws IOException, InterruptedException, TimeoutException
    {
        return start(serverDirectory, ImmutableList.of("--s3"), sandbox, workers, timeout, unit);
    }

    /** Where {@code bin/serve --s3} keeps the objects of the warehouse bucket. */
    public Path s3Warehouse()
    {
        return serverDirectory.resolve("s3/data/warehouse");
    }

    private static ServeProcess start(Path serverDirectory, List<String> warehouseArguments, Path sandbox, int workers, long timeout, TimeUnit unit)
            throws IOException, InterruptedException, TimeoutException
    {
        int port = freePorts(workers + 1);
        Process process = new ProcessBuilder(ImmutableList.<String>builder().add(
                "bash", projectRoot().resolve("bin/serve").toString(),
                "--port", String.valueOf(port),
                "--workers", String.valueOf(workers))
                .addAll(warehouseArguments)
                .add(
                "--sandbox", sandbox.toString(),
                "--server-dir", serverDirectory.toString(),
                "--plugin-zip", pluginZip().toString(),
                "--sdk-zip", sdkZip().toString())
                .build())
                .redirectErrorStream(true)
                .start();
        ServeProcess serve = new ServeProcess(process, serverDirectory, port);
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    serve.output.add(line);
                    if (line.startsWith(READY)) {
                        ready.complete(true);
                    }
                }
                ready.complete(false);
            }
            catch (IOException e) {
                ready.completeExceptionally(new UncheckedIOException(e));
            }
        }, "bin/serve output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!ready.get(timeout, unit)) {
                throw new IllegalStateException("bin/serve exited before the server was ready:\n" + String.join("\n", serve.output));
            }
        }
        catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause());
        }
        catch (TimeoutException e) {
            serve.close();
            throw new TimeoutException("bin/serve not ready after " + timeout + " " + unit + ":\n" + String.join("\n", serve.output));
        }
        return serve;
    }

    public int port()
    {
        return port;
    }

    public String jdbcUrl()
    {
        return "jdbc:trino://127.0.0.1:" + port;
    }

    public String httpUrl()
    {
        return "http://127.0.0.1:" + port;
    }

    public Path serverDirectory()
    {
        return serverDirectory;
    }

    public Path serverLog()
    {
        return serverDirectory.resolve("var/log/server.log");
    }

    public List<String> output()
    {
        return ImmutableList.copyOf(output);
    }

    /**
     * The Trino server JVM (the coordinator, with workers): the script's child process.
     */
    public Optional<ProcessHandle> serverJvm()
    {
        return nodeJvm("serve-1");
    }

    /**
     * Sends SIGTERM to the script, which passes it on to the server and exits with the server's status.
     */
    public int stop(long timeout, TimeUnit unit)
            throws InterruptedException
    {
        restartedWorkers.forEach(Process::destroy);
        process.destroy();
        if (!process.waitFor(timeout, unit)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("bin/serve did not exit within " + timeout + " " + unit + " of SIGTERM");
        }
        return process.exitValue();
    }

    public boolean isAlive()
    {
        return process.isAlive() || process.descendants().anyMatch(ProcessHandle::isAlive);
    }

    @Override
    public void close()
    {
        restartedWorkers.forEach(Process::destroyForcibly);
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /**
     * The worker processes' JVMs, by node id ({@code serve-worker-1}, ...).
     */
    public Optional<ProcessHandle> workerJvm(int worker)
    {
        return nodeJvm("serve-worker-" + worker);
    }

    private Optional<ProcessHandle> nodeJvm(String nodeId)
    {
        String property = "-Dnode.id=" + nodeId;
        return process.children()
                .filter(child -> child.info().arguments().map(arguments -> List.of(arguments).contains(property)).orElse(false))
                .findFirst();
    }

    /**
     * Waits for the script to exit, as it does when the coordinator died; returns its status.
     */
    public int awaitExit(long timeout, TimeUnit unit)
            throws InterruptedException, TimeoutException
    {
        if (!process.waitFor(timeout, unit)) {
            throw new TimeoutException("bin/serve still running after " + timeout + " " + unit);
        }
        return process.exitValue();
    }

    /**
     * Kills worker {@code worker} with SIGKILL, as a machine that is lost; returns its command line, to start it again.
     */
    public List<String> killWorker(int worker)
            throws InterruptedException
    {
        ProcessHandle jvm = workerJvm(worker).orElseThrow(() -> new IllegalStateException("No worker " + worker));
        ProcessHandle.Info info = jvm.info();
        List<String> commandLine = ImmutableList.<String>builder()
                .add(info.command().orElseThrow())
                .add(info.arguments().orElseThrow())
                .build();
        jvm.destroyForcibly();
        jvm.onExit().join();
        return commandLine;
    }

    /**
     * Starts a killed worker again from its command line, in its own directory, its log appended to its server.log.
     */
    public void restartWorker(int worker, List<String> commandLine)
            throws IOException
    {
        Path directory = serverDirectory.resolve("worker-" + worker);
        restartedWorkers.add(new ProcessBuilder(commandLine)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("var/log/server.log").toFile()))
                .start());
    }

    // the first of `count` consecutive free ports: bin/serve gives worker i the coordinator's port + i
    private static int freePorts(int count)
            throws IOException
    {
        for (int attempt = 0; attempt < 50; attempt++) {
            int first;
            try (ServerSocket socket = new ServerSocket(0)) {
                first = socket.getLocalPort();
            }
            if (first + count > 65535) {
                continue;
            }
            boolean free = true;
            for (int port = first + 1; port < first + count && free; port++) {
                try (ServerSocket _ = new ServerSocket(port)) {
                    // free
                }
                catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return first;
            }
        }
        throw new IOException("No %s consecutive free ports".formatted(count));
    }
}
