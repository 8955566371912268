package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.schema.LanceField;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A table being created (CTAS) or appended to (INSERT).
 *
 * @param readVersion the version the write is based on; 0 for a new table
 * @param fields the table's top-level fields in the order of the columns Trino writes
 * @param newTable the manifest fields of a table created by this write, in protobuf form; empty for INSERT
 * @param retries whether Trino may retry the writing tasks or the query (fault-tolerant execution): then the commit
 * removes the files of attempts whose output it did not receive
 */
public record LanceWritableTableHandle(
        SchemaTableName schemaTableName,
        String tableRoot,
        Optional<String> branch,
        long readVersion,
        List<LanceField> fields,
        String fileFormatVersion,
        int maxRowsPerFile,
        Optional<NewTable> newTable,
        boolean retries)
        implements ConnectorOutputTableHandle, ConnectorInsertTableHandle
{
    public LanceWritableTableHandle
    {
        requireNonNull(schemaTableName, "schemaTableName is null");
        requireNonNull(tableRoot, "tableRoot is null");
        requireNonNull(branch, "branch is null");
        fields = ImmutableList.copyOf(fields);
        requireNonNull(fileFormatVersion, "fileFormatVersion is null");
        requireNonNull(newTable, "newTable is null");
    }

    /**
     * @param schema serialized {@code lance.file.Field} messages of the new table
     * @param compression the table's {@code compression} property
     * @param stringCompressionLevel the table's {@code string_compression_level} property
     * @param replace whether an existing table is replaced (CREATE OR REPLACE TABLE ... AS)
     */
    public record NewTable(List<byte[]> schema, String compression, Optional<Integer> stringCompressionLevel, Optional<String> comment, boolean replace)
    {
        public NewTable
        {
            schema = ImmutableList.copyOf(schema);
            requireNonNull(compression, "compression is null");
            requireNonNull(stringCompressionLevel, "stringCompressionLevel is null");
            requireNonNull(comment, "comment is null");
        }
    }

    public String datasetLocation()
    {
        return branch.map(name -> tableRoot + "/tree/" + name).orElse(tableRoot);
    }
}
