package io.lancetrino.sharing.recipient;

import static java.util.Objects.requireNonNull;

/**
 * A table of a share, as the sharing server names it.
 */
public record SharedTable(String share, String schema, String table)
{
    public SharedTable
    {
        requireNonNull(share, "share is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
    }

    @Override
    public String toString()
    {
        return share + "." + schema + "." + table;
    }
}
