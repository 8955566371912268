package io.lancetrino.plugin.write;

import java.util.UUID;

/**
 * Data files are named like Lance names them: a random UUID whose first 3 bytes are printed as 24 binary digits and
 * the other 13 bytes as 26 hex digits.
 */
final class DataFileNames
{
    private DataFileNames() {}

    static String next()
    {
        UUID uuid = UUID.randomUUID();
        long high = uuid.getMostSignificantBits();
        long low = uuid.getLeastSignificantBits();
        StringBuilder name = new StringBuilder(24 + 26 + 6);
        int prefix = (int) (high >>> 40);
        for (int bit = 23; bit >= 0; bit--) {
            name.append((prefix >>> bit) & 1);
        }
        name.append(String.format("%010x", high & 0xFF_FFFF_FFFFL));
        name.append(String.format("%016x", low));
        return name.append(".lance").toString();
    }
}
