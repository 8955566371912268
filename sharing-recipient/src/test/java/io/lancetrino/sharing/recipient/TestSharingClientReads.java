package io.lancetrino.sharing.recipient;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Range reads through signed URLs against a real HTTP server that misbehaves on purpose.
 */
class TestSharingClientReads
{
    private static final byte[] FILE = new byte[100_000];

    static {
        for (int i = 0; i < FILE.length; i++) {
            FILE[i] = (byte) (i * 31 + 7);
        }
    }

    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> upgradeHeaders = new ArrayList<>();
    private volatile int failuresLeft;
    private HttpServer server;
    private SharingClient client;

    @BeforeEach
    void setUp()
            throws IOException
    {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/file", this::serve);
        server.start();
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        client = new SharingClient(new SharingProfile(endpoint, "token", Optional.empty()));
    }

    @AfterEach
    void tearDown()
    {
        server.stop(0);
    }

    @Test
    void readsOverHttp11WithoutAnH2cUpgrade()
            throws IOException
    {
        assertThat(client.read(signedFile(), 10, 1000)).isEqualTo(Arrays.copyOfRange(FILE, 10, 1010));
        assertThat(requests).hasValue(1);
        assertThat(upgradeHeaders).containsOnlyNulls();
    }

    @Test
    void triesAgainWhenTheConnectionFailsBeforeAnAnswer()
            throws IOException
    {
        // the JDK client itself tries a GET twice on a connection closed before an answer; the read tries that twice
        failuresLeft = 3;
        assertThat(client.read(signedFile(), 99_000, 1000)).isEqualTo(Arrays.copyOfRange(FILE, 99_000, 100_000));
        assertThat(requests).hasValue(4);

        failuresLeft = Integer.MAX_VALUE;
        assertThatThrownBy(() -> client.read(signedFile(), 0, 10))
                .isInstanceOf(IOException.class)
                .satisfies(error -> assertThat(error.getSuppressed()).hasSize(1));
    }

    private SignedFile signedFile()
    {
        return new SignedFile(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/file"), FILE.length, Long.MAX_VALUE);
    }

    private void serve(HttpExchange exchange)
            throws IOException
    {
        requests.incrementAndGet();
        synchronized (upgradeHeaders) {
            upgradeHeaders.add(exchange.getRequestHeaders().getFirst("Upgrade"));
        }
        if (failuresLeft > 0) {
            failuresLeft--;
            // no status line: the client sees the connection close before an answer
            exchange.close();
            return;
        }
        String[] range = exchange.getRequestHeaders().getFirst("Range").substring("bytes=".length()).split("-");
        int first = Integer.parseInt(range[0]);
        int last = Integer.parseInt(range[1]);
        byte[] body = Arrays.copyOfRange(FILE, first, last + 1);
        exchange.getResponseHeaders().add("Content-Range", "bytes %s-%s/%s".formatted(first, last, FILE.length));
        exchange.sendResponseHeaders(206, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
