package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.metadata.schema.LanceSchema;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.ArrayType;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The indexes of one version, one row per index name (all its segments together), whichever engine made them.
 */
final class IndexesTable
        extends InMemorySystemTable
{
    private static final ArrayType COLUMN_LIST = new ArrayType(VARCHAR);

    private final LanceTable table;
    private final TableSnapshot snapshot;

    IndexesTable(SchemaTableName name, LanceTable table, TableSnapshot snapshot)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("name", VARCHAR),
                new ColumnMetadata("index_type", VARCHAR),
                new ColumnMetadata("columns", COLUMN_LIST),
                new ColumnMetadata("index_version", INTEGER),
                new ColumnMetadata("dataset_version", BIGINT),
                new ColumnMetadata("segments", BIGINT),
                new ColumnMetadata("fragments_covered", BIGINT),
                new ColumnMetadata("rows_covered", BIGINT),
                new ColumnMetadata("rows_not_covered", BIGINT),
                new ColumnMetadata("size_bytes", BIGINT),
                new ColumnMetadata("created_at", TIMESTAMP_TZ_MILLIS)));
        this.table = table;
        this.snapshot = snapshot;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        LanceSchema schema = snapshot.schema();
        for (IndexSegments index : TableIndexes.describe(table.displayName(), snapshot)) {
            BlockBuilder columns = VARCHAR.createBlockBuilder(null, index.fieldIds().size());
            for (int fieldId : index.fieldIds()) {
                VARCHAR.writeSlice(columns, utf8Slice(schema.fieldPath(fieldId).orElse("<field " + fieldId + ">")));
            }
            rows.addRow(
                    index.name(),
                    index.typeName(),
                    columns.build(),
                    index.indexVersion().isPresent() ? (Integer) index.indexVersion().getAsInt() : null,
                    index.datasetVersion(),
                    (long) index.segments().size(),
                    index.coveredFragments().getLongCardinality(),
                    index.liveRowsCovered(),
                    index.liveRowsNotCovered(),
                    TableIndexes.sizeBytes(table.fileSystem(), snapshot, index),
                    timestampWithZone(index.createdAt().orElse(null)));
        }
    }
}
