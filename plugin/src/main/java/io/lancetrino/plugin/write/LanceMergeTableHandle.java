package io.lancetrino.plugin.write;

import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorMergeTableHandle;

import static java.util.Objects.requireNonNull;

/**
 * DELETE, UPDATE and MERGE: rows are deleted by row address and changed rows are appended as new fragments.
 *
 * @param statement the statement as inferred when the merge began; the rows the sinks saw may still show a MERGE
 */
public record LanceMergeTableHandle(LanceTableHandle table, LanceWritableTableHandle insert, RowChangeStatement statement)
        implements ConnectorMergeTableHandle
{
    public LanceMergeTableHandle
    {
        requireNonNull(table, "table is null");
        requireNonNull(insert, "insert is null");
        requireNonNull(statement, "statement is null");
    }

    @Override
    public LanceTableHandle getTableHandle()
    {
        return table;
    }
}
