package io.lancetrino.split.changes;

import com.google.common.collect.ImmutableList;
import io.lancetrino.split.LanceSplit;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Rows one version inserted or deleted: a split of the fragment as it was in that version (inserts) or in the version
 * before it (deletes), and the values of the change columns every row of it gets.
 *
 * @param commitMillis the version's commit time, milliseconds since the epoch
 * @param nullFieldIds the field ids of columns the rows' version stores with another type or shape than the end
 * version (a field id reused by {@code CREATE OR REPLACE TABLE}): read as NULL rather than decoded as the end's type
 */
public record LanceChangeSplit(LanceSplit rows, ChangeType changeType, long version, long commitMillis, List<Integer> nullFieldIds)
        implements ConnectorSplit
{
    public enum ChangeType
    {
        INSERT("insert"),
        DELETE("delete");

        private final String sqlName;

        ChangeType(String sqlName)
        {
            this.sqlName = sqlName;
        }

        public String sqlName()
        {
            return sqlName;
        }
    }

    public LanceChangeSplit
    {
        requireNonNull(rows, "rows is null");
        requireNonNull(changeType, "changeType is null");
        nullFieldIds = ImmutableList.copyOf(nullFieldIds);
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return 64L + rows.getRetainedSizeInBytes();
    }
}
