package io.lancetrino.tests.server;

import io.airlift.log.Logger;
import io.lancetrino.tests.LanceQueryRunner;
import io.trino.testing.DistributedQueryRunner;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The local server of {@code bin/serve}: a Trino 483 coordinator with catalogs {@code lance} (over the warehouse) and
 * {@code tpch}. Without {@code --warehouse} it serves {@code ./warehouse} and creates the demo there on first start.
 */
public final class LanceServer
{
    private static final Logger log = Logger.get(LanceServer.class);

    private LanceServer() {}

    public static void main(String[] args)
            throws Exception
    {
        int port = 8080;
        Path warehouse = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--warehouse" -> warehouse = Path.of(args[++i]);
                case "--help", "-h" -> {
                    System.out.println("usage: bin/serve [--port 8080] [--warehouse DIR]");
                    return;
                }
                default -> throw new IllegalArgumentException("Unknown argument: " + args[i] + " (usage: bin/serve [--port 8080] [--warehouse DIR])");
            }
        }
        if (warehouse == null) {
            warehouse = Path.of("warehouse");
            if (!Files.exists(warehouse.resolve("demo").resolve("trips.lance"))) {
                log.info("Creating the demo table demo.trips in %s", warehouse.toAbsolutePath());
                DemoWarehouse.create(warehouse);
            }
        }
        Files.createDirectories(warehouse);
        DistributedQueryRunner runner = LanceQueryRunner.builder(warehouse)
                .setWorkerCount(0)
                .addCoordinatorProperty("http-server.http.port", String.valueOf(port))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(runner::close));
        log.info("======== SERVER STARTED ========");
        System.out.println("Trino with the Lance connector is ready at " + runner.getCoordinator().getBaseUrl() + " (catalogs: lance over " + warehouse.toAbsolutePath() + ", tpch)");
        Thread.currentThread().join();
    }
}
