package io.lancetrino.sharing.recipient;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TestSharedLocation
{
    private static final SharedTable TABLE = new SharedTable("acme.sales", "tpch", "orders");

    @Test
    void parsesTheVirtualLayout()
    {
        String root = SharedLocation.tableRoot(TABLE);
        assertThat(root).isEqualTo("lance-sharing://shares/acme.sales.tpch/orders.lance");

        SharedLocation versions = SharedLocation.parse(root + "/_versions").orElseThrow();
        assertThat(versions.table()).isEqualTo(TABLE);
        assertThat(versions.branch()).isEmpty();
        assertThat(versions.path()).isEqualTo("_versions");

        String file = SharedLocation.versionDirectory(TABLE, Optional.of("feat/x"), 7) + "/data/abc123";
        SharedLocation data = SharedLocation.parse(file).orElseThrow();
        assertThat(data.branch()).contains("feat/x");
        assertThat(data.sharedVersion()).hasValue(7);
        assertThat(data.sharedFile()).isEqualTo("data/abc123");

        SharedLocation deletion = SharedLocation.parse(root + "/_shared/3/_deletions/1-2-3.arrow").orElseThrow();
        assertThat(deletion.branch()).isEmpty();
        assertThat(deletion.sharedVersion()).hasValue(3);
        assertThat(deletion.sharedFile()).isEqualTo("_deletions/1-2-3.arrow");
    }

    @Test
    void refusesWhatIsNotATableLocation()
    {
        assertThat(SharedLocation.parse(SharedLocation.ROOT)).isEmpty();
        assertThat(SharedLocation.parse(SharedLocation.ROOT + "/noschemadot/orders.lance")).isEmpty();
        assertThat(SharedLocation.parse(SharedLocation.ROOT + "/s.sc/orders")).isEmpty();
        assertThat(SharedLocation.parse("/tmp/s.sc/orders.lance")).isEmpty();
        assertThat(SharedLocation.parse(SharedLocation.ROOT + "/s.sc/orders.lance/_shared/notanumber/data/x").orElseThrow().sharedVersion()).isEmpty();
    }

    @Test
    void readsProfiles(@TempDir Path directory)
            throws Exception
    {
        Path profile = directory.resolve("profile.json");
        Files.writeString(profile, """
                {"shareCredentialsVersion": 1, "endpoint": "http://localhost:8090/lance-sharing/", "bearerToken": "secret-token", "expirationTime": "2027-01-01T00:00:00Z"}
                """);
        SharingProfile read = SharingProfile.read(profile);
        assertThat(read.endpoint().toString()).isEqualTo("http://localhost:8090/lance-sharing");
        assertThat(read.expirationTime()).isPresent();
        assertThat(read.toString()).doesNotContain("secret-token");

        Files.writeString(profile, """
                {"shareCredentialsVersion": 2, "endpoint": "http://localhost:8090/lance-sharing", "bearerToken": "t"}
                """);
        assertThatThrownBy(() -> SharingProfile.read(profile)).hasMessageContaining("shareCredentialsVersion 2").hasMessageContaining("upgrade");

        Files.writeString(profile, """
                {"shareCredentialsVersion": 1, "endpoint": "file:///etc", "bearerToken": "t"}
                """);
        assertThatThrownBy(() -> SharingProfile.read(profile)).hasMessageContaining("http or https");
    }
}
