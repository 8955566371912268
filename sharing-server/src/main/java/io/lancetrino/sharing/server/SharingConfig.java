package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The server's configuration file, validated (see {@link SharingConfigLoader}); every name is lower case.
 */
public record SharingConfig(
        String warehouse,
        byte[] signingKey,
        long urlLifetimeSeconds,
        List<Share> shares,
        List<Recipient> recipients,
        Map<String, String> storage,
        ServerSettings server)
{
    public SharingConfig
    {
        requireNonNull(warehouse, "warehouse is null");
        storage = ImmutableMap.copyOf(storage);
        requireNonNull(server, "server is null");
        signingKey = requireNonNull(signingKey, "signingKey is null").clone();
        shares = ImmutableList.copyOf(shares);
        recipients = ImmutableList.copyOf(recipients);
    }

    public SharingConfig(String warehouse, byte[] signingKey, long urlLifetimeSeconds, List<Share> shares, List<Recipient> recipients)
    {
        this(warehouse, signingKey, urlLifetimeSeconds, shares, recipients, ImmutableMap.of(), ServerSettings.DEFAULT);
    }

    public Optional<Share> share(String name)
    {
        return shares.stream().filter(share -> share.name().equals(name)).findFirst();
    }

    public record Share(String name, List<Schema> schemas)
    {
        public Share
        {
            requireNonNull(name, "name is null");
            schemas = ImmutableList.copyOf(schemas);
        }

        public Optional<Schema> schema(String name)
        {
            return schemas.stream().filter(schema -> schema.name().equals(name)).findFirst();
        }
    }

    public record Schema(String name, List<Table> tables)
    {
        public Schema
        {
            requireNonNull(name, "name is null");
            tables = ImmutableList.copyOf(tables);
        }

        public Optional<Table> table(String name)
        {
            return tables.stream().filter(table -> table.name().equals(name)).findFirst();
        }
    }

    /**
     * @param location the table's root directory
     * @param refs the refs the share exposes (lower case; {@code main} for main's versions), empty for everything
     * @param startVersion the first version number the share exposes
     */
    public record Table(String name, String location, Optional<Set<String>> refs, OptionalLong startVersion)
    {
        public Table
        {
            requireNonNull(name, "name is null");
            requireNonNull(location, "location is null");
            refs = requireNonNull(refs, "refs is null").map(ImmutableSet::copyOf);
            requireNonNull(startVersion, "startVersion is null");
        }
    }

    /**
     * @param tokenHash SHA-256 of the bearer token: only the hash is kept and compared
     */
    public record Recipient(String name, byte[] tokenHash, Set<String> shares, Optional<Instant> expirationTime)
    {
        public Recipient
        {
            requireNonNull(name, "name is null");
            tokenHash = requireNonNull(tokenHash, "tokenHash is null").clone();
            shares = ImmutableSet.copyOf(shares);
            requireNonNull(expirationTime, "expirationTime is null");
        }

        @Override
        public String toString()
        {
            return "Recipient[" + name + "]";
        }
    }

    @Override
    public String toString()
    {
        // never the signing key, nor the storage credentials
        return "SharingConfig[warehouse=" + warehouse + ", shares=" + shares + ", recipients=" + recipients + ", server=" + server + "]";
    }
}
