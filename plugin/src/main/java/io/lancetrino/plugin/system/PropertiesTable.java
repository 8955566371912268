package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.TableSnapshot;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;

import java.util.Map;
import java.util.TreeMap;

import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The manifest's config (such as Lance's {@code lance.auto_cleanup.*}, which makes other Lance writers run Lance's
 * own cleanup) and table metadata, of the latest version of main or of the ref named as {@code t@ref$properties}.
 */
final class PropertiesTable
        extends InMemorySystemTable
{
    private final TableSnapshot snapshot;

    PropertiesTable(SchemaTableName name, TableSnapshot snapshot)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("key", VARCHAR),
                new ColumnMetadata("value", VARCHAR),
                new ColumnMetadata("kind", VARCHAR)));
        this.snapshot = snapshot;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        addAll(rows, snapshot.manifest().getConfigMap(), "config");
        addAll(rows, snapshot.manifest().getTableMetadataMap(), "table_metadata");
    }

    private static void addAll(InMemoryRecordSet.Builder rows, Map<String, String> entries, String kind)
    {
        new TreeMap<>(entries).forEach((key, value) -> rows.addRow(key, value, kind));
    }
}
