package io.lancetrino.tests;

import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.sharing.server.LanceSharingServer;
import io.lancetrino.sharing.server.SharingConfigLoader;
import io.lancetrino.sharing.recipient.SharedLocation;
import io.lancetrino.sharing.recipient.SharedTable;
import io.lancetrino.sharing.recipient.SignedFile;
import io.lancetrino.sharing.recipient.SharingClient;
import io.lancetrino.sharing.recipient.SharingFileSystem;
import io.lancetrino.sharing.recipient.SharingProfile;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.trino.filesystem.TrinoInput;
import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A recipient whose signed URLs the server stopped honouring in the middle of reading a file (the server's clock moved
 * past their expiry while the recipient still held them): the next read is refused, the recipient queries the version
 * again and reads on, without the caller noticing.
 */
final class TestSharedUrlRefresh
{
    private static final String TOKEN = "refresh-test-token-0123456789-abcdefghijklmnopqrstuvwxyz";

    @Test
    void testRefusedUrlsAreReplacedMidRead()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-url-refresh");
        DemoWarehouse.create(warehouse);
        Path config = warehouse.resolve("shares.json");
        Files.writeString(config, """
                {"warehouse": "%s", "signingKey": "%s", "urlLifetimeSeconds": 600,
                 "shares": [{"name": "rides", "schemas": [{"name": "demo", "tables": [{"name": "trips", "table": "demo.trips"}]}]}],
                 "recipients": [{"name": "analyst", "bearerToken": "%s", "shares": ["rides"]}]}
                """.formatted(warehouse, "cd".repeat(32), TOKEN));
        MovableClock clock = new MovableClock();
        try (LanceSharingServer server = LanceSharingServer.start(SharingConfigLoader.load(config), 0, clock)) {
            SharingClient client = new SharingClient(new SharingProfile(server.endpoint(), TOKEN, Optional.empty()));
            SharingFileSystem shares = new SharingFileSystem(client);
            String root = SharedLocation.tableRoot(new SharedTable("rides", "demo", "trips"));
            LanceTable table = new LanceTable(shares, root, "rides.demo.trips", new ManifestCache(1 << 20));
            TableSnapshot snapshot = table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow());
            DataFragment fragment = snapshot.manifest().getFragments(0);
            String location = FilePaths.dataFile(snapshot, fragment, fragment.getFiles(0));
            // the same file as the owner reads it
            LanceTable owned = new LanceTable(new LocalTableFileSystem(), warehouse.resolve("demo/trips.lance").toString(), "demo.trips", new ManifestCache(1 << 20));
            TableSnapshot ownedSnapshot = owned.snapshot(Optional.empty(), snapshot.version());
            DataFragment ownedFragment = ownedSnapshot.manifest().getFragments(0);
            Path local = LocalTableFileSystem.toPath(FilePaths.dataFile(ownedSnapshot, ownedFragment, ownedFragment.getFiles(0)));
            byte[] expected = Files.readAllBytes(local);

            try (TrinoInput input = shares.newInputFile(location).newInput()) {
                byte[] head = new byte[16];
                input.readFully(0, head, 0, head.length);
                assertThat(head).isEqualTo(Arrays.copyOf(expected, 16));

                // the server now refuses every URL it signed so far; the recipient's own clock still thinks them good
                SignedFile stale = client.query(new SharedTable("rides", "demo", "trips"), Optional.empty(), snapshot.version())
                        .file("data/" + fragment.getFiles(0).getPath()).orElseThrow();
                clock.advance(Duration.ofHours(2));
                assertThatThrownBy(() -> client.read(stale, 0, 16)).isInstanceOf(FileNotFoundException.class);

                byte[] tail = new byte[16];
                input.readFully(expected.length - 16, tail, 0, tail.length);
                assertThat(tail).isEqualTo(Arrays.copyOfRange(expected, expected.length - 16, expected.length));
            }
        }
    }

    private static final class MovableClock
            extends Clock
    {
        private volatile Instant now = Instant.now();

        void advance(Duration duration)
        {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone()
        {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone)
        {
            return this;
        }

        @Override
        public Instant instant()
        {
            return now;
        }
    }
}
