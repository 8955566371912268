package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableMap;
import com.google.common.net.InetAddresses;
import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.bootstrap.LifeCycleManager;
import io.airlift.http.server.HttpServer;
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
import java.util.Map;
import java.util.Optional;

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
    private final Warehouses warehouses;
    private final SharingServlet servlet;
    private final URI endpoint;
    private final Optional<URI> httpUri;
    private final Optional<URI> httpsUri;

    private LanceSharingServer(LifeCycleManager lifeCycleManager, Warehouses warehouses, SharingServlet servlet, URI endpoint, Optional<URI> httpUri, Optional<URI> httpsUri)
    {
        this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
        this.warehouses = requireNonNull(warehouses, "warehouses is null");
        this.servlet = requireNonNull(servlet, "servlet is null");
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.httpUri = requireNonNull(httpUri, "httpUri is null");
        this.httpsUri = requireNonNull(httpsUri, "httpsUri is null");
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
        Warehouses warehouses = new Warehouses(config.storage());
        SharingServlet servlet = new SharingServlet(config, warehouses, clock);
        ServerSettings settings = config.server();
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
                    .setRequiredConfigurationProperties(serverProperties(settings, port))
                    .quiet()
                    .initialize();
        }
        catch (Exception e) {
            warehouses.close();
            throw new IllegalStateException("Cannot start the Lance sharing server: " + e.getMessage(), e);
        }
        LifeCycleManager lifeCycle = injector.getInstance(LifeCycleManager.class);
        try {
            JsonErrorHandler.install(injector.getInstance(HttpServer.class));
        }
        catch (RuntimeException e) {
            lifeCycle.stop();
            warehouses.close();
            throw e;
        }
        HttpServerInfo info = injector.getInstance(HttpServerInfo.class);
        URI own = settings.httpEnabled() ? info.getHttpUri() : info.getHttpsUri();
        URI base = settings.publicUrl().orElse(URI.create("%s://%s:%s".formatted(own.getScheme(), own.getHost(), own.getPort())));
        servlet.setPublicBaseUrl(base.toString());
        URI endpoint = URI.create(base + SharingServlet.PREFIX);
        log.info("Lance sharing server at %s: %s shares, %s recipients", endpoint, config.shares().size(), config.recipients().size());
        return new LanceSharingServer(lifeCycle, warehouses, servlet, endpoint, settings.httpEnabled() ? Optional.of(info.getHttpUri()) : Optional.empty(),
                settings.https().isPresent() ? Optional.of(info.getHttpsUri()) : Optional.empty());
    }

    private static Map<String, String> serverProperties(ServerSettings settings, int port)
    {
        ImmutableMap.Builder<String, String> properties = ImmutableMap.<String, String>builder()
                .put("node.environment", "lance_sharing")
                .put("http-server.http.enabled", Boolean.toString(settings.httpEnabled()))
                .put("http-server.log.enabled", "false")
                // X-Forwarded-* are dropped from every request (the default answers them 406, which no proxy passes)
                .put("http-server.process-forwarded", "IGNORE")
                // file bodies are ranges of table files: compressing them breaks ranges and costs CPU for nothing
                .put("http-server.compression.enabled", "false")
                .put("http-server.show-stack-trace", "false");
        if (settings.httpEnabled()) {
            properties.put("http-server.http.port", Integer.toString(port));
        }
        settings.listenAddress().ifPresent(address -> {
            properties.put("node.bind-ip", address);
            if (!InetAddresses.forString(address).isAnyLocalAddress()) {
                properties.put("node.internal-address", address);
            }
        });
        settings.https().ifPresent(https -> {
            properties.put("http-server.https.enabled", "true");
            properties.put("http-server.https.port", Integer.toString(https.port()));
            properties.put("http-server.https.keystore.path", https.keystorePath());
            https.keystorePassword().ifPresent(password -> properties.put("http-server.https.keystore.key", password));
        });
        return properties.buildOrThrow();
    }

    /**
     * The endpoint recipients use: the public URL's, else the server's own.
     */
    public URI endpoint()
    {
        return endpoint;
    }

    /**
     * Where the server listens for plain HTTP, if it does (behind a proxy this is not the endpoint).
     */
    public Optional<URI> httpUri()
    {
        return httpUri;
    }

    public Optional<URI> httpsUri()
    {
        return httpsUri;
    }

    public long fileBytesServed()
    {
        return servlet.fileBytesServed();
    }

    /**
     * CPU time spent answering requests (protocol answers and streamed local files).
     */
    public long requestCpuNanos()
    {
        return servlet.requestCpuNanos();
    }

    @Override
    public void close()
    {
        lifeCycleManager.stop();
        warehouses.close();
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
        System.out.println("Lance sharing server listening at " + server.endpoint()
                + server.httpUri().filter(uri -> !server.endpoint().toString().startsWith(uri.toString())).map(uri -> " (HTTP on " + uri + ")").orElse("")
                + server.httpsUri().filter(uri -> !server.endpoint().toString().startsWith(uri.toString())).map(uri -> " (HTTPS on " + uri + ")").orElse(""));
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
