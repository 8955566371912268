package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableList;

import java.net.URI;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where and how the server listens, and the address it gives out.
 *
 * @param listenAddress the local address to bind, empty for every interface
 * @param publicUrl the base of every URL the server writes (endpoint and file URLs), as recipients reach it; empty for
 * the server's own address. The request's {@code Host} header never decides it.
 * @param trustedProxies addresses or CIDR blocks of the proxies whose {@code Forwarded} header names the client
 * @param httpEnabled whether to serve plain HTTP on the {@code --port}
 * @param https the HTTPS listener, if any
 * @param maxRequestBodyBytes larger request bodies are refused with 413
 */
public record ServerSettings(
        Optional<String> listenAddress,
        Optional<URI> publicUrl,
        List<AddressBlock> trustedProxies,
        boolean httpEnabled,
        Optional<Https> https,
        long maxRequestBodyBytes)
{
    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 1 << 20;
    public static final ServerSettings DEFAULT = new ServerSettings(Optional.empty(), Optional.empty(), ImmutableList.of(), true, Optional.empty(), DEFAULT_MAX_REQUEST_BODY_BYTES);

    public ServerSettings
    {
        requireNonNull(listenAddress, "listenAddress is null");
        requireNonNull(publicUrl, "publicUrl is null");
        trustedProxies = ImmutableList.copyOf(trustedProxies);
        requireNonNull(https, "https is null");
    }

    /**
     * @param keystorePath a PKCS12 or JKS keystore, or a PEM file with the certificate chain and its private key
     */
    public record Https(int port, String keystorePath, Optional<String> keystorePassword)
    {
        public Https
        {
            requireNonNull(keystorePath, "keystorePath is null");
            requireNonNull(keystorePassword, "keystorePassword is null");
        }

        @Override
        public String toString()
        {
            // never the password
            return "Https[port=" + port + ", keystorePath=" + keystorePath + "]";
        }
    }
}
