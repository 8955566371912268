package io.lancetrino.tests;

import io.lancetrino.plugin.LanceConnectorFactory;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A catalog of this connector refuses to start, naming the option to add, in a JVM started without the flag Arrow
 * needs; this test's own JVM has it, so the check must pass here.
 */
final class TestLanceJvmRequirements
{
    @Test
    void testCatalogStartNamesTheMissingFlag()
            throws IOException, InterruptedException
    {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), StartCatalog.class.getName())
                .redirectErrorStream(true)
                .start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(output).contains("Catalog lake: the Lance connector needs the JVM option --add-opens=java.base/java.nio=ALL-UNNAMED (add it to etc/jvm.config and restart Trino)");
        assertThat(process.exitValue()).isEqualTo(3);
    }

    @Test
    void testPassesWithTheFlag()
    {
        assertThat(List.of(ProcessHandle.current().info().arguments().orElse(new String[0]))).contains("--add-opens=java.base/java.nio=ALL-UNNAMED");
        io.lancetrino.plugin.JvmRequirements.check("lake");
    }

    @Test
    void testFileSystemCacheRefusedAtCatalogStart()
    {
        // the plugin zip leaves the Alluxio cache out, so the property must fail clearly instead of with a missing class
        assertThatThrownBy(() -> new LanceConnectorFactory().create("lake", Map.of("lance.warehouse", "/tmp/unused", "fs.cache.enabled", "true"), null))
                .isInstanceOf(TrinoException.class)
                .hasMessage("Catalog lake: fs.cache.enabled=true is not supported by the Lance connector (the Lance SDK reads data files itself, bypassing the file system cache); remove the property");
    }

    /**
     * Starts a catalog the way a Trino server does at startup; exits 3 with the message when the connector refuses.
     */
    public static final class StartCatalog
    {
        public static void main(String[] args)
                throws IOException
        {
            Path warehouse = Files.createTempDirectory("lance-jvm-flags");
            int status = 0;
            try {
                new LanceConnectorFactory().create("lake", Map.of("lance.warehouse", warehouse.toString()), null);
                System.out.println("started");
            }
            catch (TrinoException e) {
                System.out.println(e.getMessage());
                status = 3;
            }
            finally {
                Files.delete(warehouse);
            }
            System.exit(status);
        }
    }
}
