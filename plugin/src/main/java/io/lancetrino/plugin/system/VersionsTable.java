package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.VersionSummary;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.schema.SchemaVersions;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * One row per version of the branch the table name points to (main unless {@code "t@branch$versions"}).
 */
final class VersionsTable
        extends InMemorySystemTable
{
    private final LanceTable table;
    private final TableSnapshot current;

    VersionsTable(SchemaTableName name, LanceTable table, TableSnapshot current)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("version", BIGINT),
                new ColumnMetadata("committed_at", TIMESTAMP_TZ_MILLIS),
                new ColumnMetadata("operation", VARCHAR),
                new ColumnMetadata("rows", BIGINT),
                new ColumnMetadata("deleted_rows", BIGINT),
                new ColumnMetadata("fragments", BIGINT),
                new ColumnMetadata("schema_version", BIGINT)));
        this.table = table;
        this.current = current;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        SchemaVersions schemas = new SchemaVersions();
        for (TableSnapshot snapshot : history(table, current)) {
            VersionSummary summary = VersionSummary.of(snapshot.manifest());
            rows.addRow(
                    snapshot.version(),
                    timestampWithZone(RefResolver.commitTime(snapshot)),
                    Transactions.read(table.fileSystem(), snapshot).map(Transactions::operationName).orElse(null),
                    summary.liveRows(),
                    summary.deletedRows(),
                    summary.fragments(),
                    schemas.add(snapshot));
        }
    }
}
