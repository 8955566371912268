package io.lancetrino.plugin.write;

import io.lancetrino.metadata.commit.WriterAttemptFiles;

import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Data files are named like Lance names them, a random UUID whose first 3 bytes are printed as 24 binary digits and
 * the other 13 bytes as 26 hex digits, followed by the id of the query that wrote them (see {@link WriterAttemptFiles}).
 */
final class DataFileNames
{
    private DataFileNames() {}

    static String next(String queryId)
    {
        requireNonNull(queryId, "queryId is null");
        UUID uuid = UUID.randomUUID();
        long high = uuid.getMostSignificantBits();
        long low = uuid.getLeastSignificantBits();
        StringBuilder name = new StringBuilder(24 + 26);
        int prefix = (int) (high >>> 40);
        for (int bit = 23; bit >= 0; bit--) {
            name.append((prefix >>> bit) & 1);
        }
        name.append(String.format("%010x", high & 0xFF_FFFF_FFFFL));
        name.append(String.format("%016x", low));
        return WriterAttemptFiles.name(name.toString(), queryId);
    }
}
