package io.lancetrino.split.search;

import io.lancetrino.split.LanceSplit;
import io.trino.spi.connector.ConnectorSplit;

import static java.util.Objects.requireNonNull;

/**
 * The one split of an index search: the SDK searches the whole version at once (indexed fragments through the index,
 * the others flat) and returns its top k, so the search is neither repeated per fragment nor merged afterwards.
 *
 * @param table how errors name the table
 */
public record LanceSearchSplit(String table, LanceSplit.DatasetVersion dataset)
        implements ConnectorSplit
{
    public LanceSearchSplit
    {
        requireNonNull(table, "table is null");
        requireNonNull(dataset, "dataset is null");
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return 128L + table.length() * 2L + dataset.location().length() * 2L;
    }
}
