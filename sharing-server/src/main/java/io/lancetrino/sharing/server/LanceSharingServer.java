package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.bootstrap.LifeCycleManager;
import io.airlift.http.server.HttpServerInfo;
import io.airlift.http.server.HttpServerModule;
import io.airlift.log.Logger;
import io.airlift.node.NodeModule;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import jakarta.servlet.Servlet;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;

import static io.airlift.http.server.HttpServerBinder.httpServerBinder;
import static java.util.Objects.requireNonNull;

/**
 * The Lance sharing server (PROTOCOL.md): Airlift's HTTP server (Jetty) with one servlet, started with Bootstrap like
 * Airlift services. JAX-RS is not used: the protocol needs the raw path (encoded names are checked segment by segment),
 * byte-range file streaming and NDJSON, which a servlet does directly.
 */
public final class LanceSharingServer
        implements AutoCloseable
{
    private static final Logger log = Logger.get(LanceSharingServer.class);

    private final LifeCycleManager lifeCycleManager;
    private final URI endpoint;

    private LanceSharingServer(LifeCycleManager lifeCycleManager, URI endpoint)
    {
        this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
    }

    /**
     * Loads and validates the configuration, then serves it on the port (0 picks a free one).
     */
    public static LanceSharingServer start(Path configFile, int port)
    {
        return start(SharingConfigLoader.load(configFile), port, Clock.systemUTC());
    }

    public static LanceSharingServer start(SharingConfig config, int port, Clock clock)
    {
        SharingServlet servlet = new SharingServlet(config, clock);
        Bootstrap app = new Bootstrap(
                new NodeModule(),
                new HttpServerModule(),
                binder -> {
                    binder.bind(Servlet.class).toInstance(servlet);
                    OpenTelemetry openTelemetry = OpenTelemetry.noop();
                    binder.bind(OpenTelemetry.class).toInstance(openTelemetry);
                    binder.bind(Tracer.class).toInstance(openTelemetry.getTracer("lance-sharing"));
                    // encoded '/' and '..' must reach the servlet, which answers them 404 as invalid names
                    httpServerBinder(binder).enableLegacyUriCompliance();
                });
        Injector injector;
        try {
            injector = app
                    .doNotInitializeLogging()
                    .setRequiredConfigurationProperties(ImmutableMap.of(
                            "node.environment", "lance_sharing",
                            "http-server.http.port", Integer.toString(port),
                            "http-server.log.enabled", "false"))
                    .quiet()
                    .initialize();
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot start the Lance sharing server: " + e.getMessage(), e);
        }
        URI base = injector.getInstance(HttpServerInfo.class).getHttpUri();
        URI endpoint = URI.create("http://%s:%s%s".formatted(base.getHost(), base.getPort(), SharingServlet.PREFIX));
        log.info("Lance sharing server at %s: %s shares, %s recipients", endpoint, config.shares().size(), config.recipients().size());
        return new LanceSharingServer(injector.getInstance(LifeCycleManager.class), endpoint);
    }

    public URI endpoint()
    {
        return endpoint;
    }

    @Override
    public void close()
    {
        lifeCycleManager.stop();
    }

    public static void main(String[] args)
            throws InterruptedException
    {
        Path config = null;
        int port = 8090;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--config" -> config = Path.of(argument(args, ++i, "--config"));
                case "--port" -> port = Integer.parseInt(argument(args, ++i, "--port"));
                case "-h", "--help" -> {
                    System.out.println("usage: LanceSharingServer --config shares.json [--port 8090]");
                    return;
                }
                default -> usage("unknown argument " + args[i]);
            }
        }
        if (config == null) {
            usage("--config is required");
        }
        LanceSharingServer server;
        try {
            server = start(config, port);
        }
        catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        System.out.println("Lance sharing server listening at " + server.endpoint());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        Thread.currentThread().join();
    }

    private static String argument(String[] args, int index, String name)
    {
        if (index >= args.length) {
            usage(name + " needs a value");
        }
        return args[index];
    }

    private static void usage(String problem)
    {
        System.err.println(problem);
        System.err.println("usage: LanceSharingServer --config shares.json [--port 8090]");
        System.exit(2);
    }
}
