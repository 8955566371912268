package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.schema.SchemaVersions;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Schema versions deduplicated across table versions: a schema unchanged across many versions is one row.
 */
final class SchemasTable
        extends InMemorySystemTable
{
    private final LanceTable table;
    private final TableSnapshot current;

    SchemasTable(SchemaTableName name, LanceTable table, TableSnapshot current)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("id", BIGINT),
                new ColumnMetadata("first_version", BIGINT),
                new ColumnMetadata("last_version", BIGINT),
                new ColumnMetadata("columns", VARCHAR)));
        this.table = table;
        this.current = current;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        SchemaVersions schemas = new SchemaVersions();
        history(table, current).forEach(schemas::add);
        for (SchemaVersions.SchemaVersion schema : schemas.versions()) {
            rows.addRow(schema.id(), schema.firstVersion(), schema.lastVersion(), schema.columns());
        }
    }
}
