package io.lancetrino.plugin.system;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;

import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;

/**
 * A metadata table computed on the coordinator from manifests and refs.
 */
abstract class InMemorySystemTable
        implements SystemTable
{
    private final ConnectorTableMetadata metadata;

    InMemorySystemTable(SchemaTableName name, List<ColumnMetadata> columns)
    {
        this.metadata = new ConnectorTableMetadata(name, columns);
    }

    @Override
    public Distribution getDistribution()
    {
        return Distribution.SINGLE_COORDINATOR;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata()
    {
        return metadata;
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transaction, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(metadata);
        addRows(rows);
        return rows.build().cursor();
    }

    abstract void addRows(InMemoryRecordSet.Builder rows);

    /**
     * The versions of the current snapshot's branch up to and including it, oldest first.
     */
    static List<TableSnapshot> history(LanceTable table, TableSnapshot current)
    {
        return table.listVersions(current.branch()).stream()
                .filter(version -> version <= current.version())
                .map(version -> table.snapshot(current.branch(), version))
                .toList();
    }

    static Long timestampWithZone(java.time.Instant instant)
    {
        return instant == null ? null : packDateTimeWithZone(instant.toEpochMilli(), UTC_KEY);
    }
}
