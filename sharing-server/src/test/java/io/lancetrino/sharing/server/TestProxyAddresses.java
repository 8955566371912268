package io.lancetrino.sharing.server;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestProxyAddresses
{
    @Test
    void testAddressBlocks()
    {
        AddressBlock block = AddressBlock.parse("10.0.0.0/8");
        assertThat(block.contains("10.200.3.4")).isTrue();
        assertThat(block.contains("11.0.0.1")).isFalse();
        assertThat(block.contains("::1")).isFalse();
        assertThat(block.contains("not an address")).isFalse();
        assertThat(AddressBlock.parse("127.0.0.1").contains("127.0.0.1")).isTrue();
        assertThat(AddressBlock.parse("127.0.0.1").contains("127.0.0.2")).isFalse();
        assertThat(AddressBlock.parse("fd00::/8").contains("fd12::5")).isTrue();
        assertThat(AddressBlock.parse("0.0.0.0/0").contains("203.0.113.9")).isTrue();
        assertThatThrownBy(() -> AddressBlock.parse("10.0.0.0/33")).hasMessageContaining("invalid prefix length");
        assertThatThrownBy(() -> AddressBlock.parse("proxy.example.com")).hasMessageContaining("not an IP address");
    }

    @Test
    void testForwardedClient()
    {
        assertThat(ForwardedHeader.client("for=192.0.2.60;proto=https")).contains("192.0.2.60");
        // the last element is the one the proxy next to the server added
        assertThat(ForwardedHeader.client("for=6.6.6.6, for=192.0.2.61;proto=https")).contains("192.0.2.61");
        assertThat(ForwardedHeader.client("For=\"[2001:db8::17]:4711\"")).contains("2001:db8::17");
        assertThat(ForwardedHeader.client("for=192.0.2.62:8080")).contains("192.0.2.62");
        assertThat(ForwardedHeader.client("proto=https")).isEqualTo(Optional.empty());
        assertThat(ForwardedHeader.client(null)).isEmpty();
        // nothing unprintable or huge reaches the log
        assertThat(ForwardedHeader.client("for=a\u0001b")).isEmpty();
        assertThat(ForwardedHeader.client("for=" + "x".repeat(300))).isEmpty();
    }
}
