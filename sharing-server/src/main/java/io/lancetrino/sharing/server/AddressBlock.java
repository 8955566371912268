package io.lancetrino.sharing.server;

import com.google.common.net.InetAddresses;

import java.math.BigInteger;
import java.net.InetAddress;

import static java.util.Objects.requireNonNull;

/**
 * An IP address or a CIDR block ({@code 10.0.0.0/8}, {@code ::1}), as trusted proxies are configured.
 */
public record AddressBlock(InetAddress network, int prefixLength)
{
    public AddressBlock
    {
        requireNonNull(network, "network is null");
    }

    /**
     * @throws IllegalArgumentException naming the text when it is not an address or block
     */
    public static AddressBlock parse(String text)
    {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        if (!InetAddresses.isInetAddress(address)) {
            throw new IllegalArgumentException("'%s' is not an IP address or CIDR block".formatted(text));
        }
        InetAddress network = InetAddresses.forString(address);
        int bits = network.getAddress().length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(text.substring(slash + 1));
            }
            catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("'%s' has an invalid prefix length".formatted(text));
            }
        }
        return new AddressBlock(network, prefix);
    }

    public boolean contains(String address)
    {
        if (address == null || !InetAddresses.isInetAddress(address)) {
            return false;
        }
        byte[] candidate = InetAddresses.forString(address).getAddress();
        byte[] own = network.getAddress();
        if (candidate.length != own.length) {
            return false;
        }
        int shift = own.length * 8 - prefixLength;
        return new BigInteger(1, candidate).shiftRight(shift).equals(new BigInteger(1, own).shiftRight(shift));
    }

    @Override
    public String toString()
    {
        return InetAddresses.toAddrString(network) + "/" + prefixLength;
    }
}
