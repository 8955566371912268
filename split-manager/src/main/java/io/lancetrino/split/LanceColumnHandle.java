package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A top-level column, identified by Lance field id so renamed columns still find their data.
 *
 * @param subtreeFieldIds the field id and the ids of all nested fields, pre-order; a data file holds the column when
 * its field list contains any of them (2.1 files list leaves only)
 */
public record LanceColumnHandle(String name, int fieldId, List<Integer> subtreeFieldIds, Type type, boolean nullable)
        implements ColumnHandle
{
    public static final int ROW_ADDRESS_FIELD_ID = -1;
    public static final String ROW_ADDRESS_NAME = "$row_address";

    public LanceColumnHandle
    {
        requireNonNull(name, "name is null");
        subtreeFieldIds = ImmutableList.copyOf(subtreeFieldIds);
        requireNonNull(type, "type is null");
    }

    /**
     * The hidden column row-level changes use to name rows: {@code fragment_id << 32 | row offset}.
     */
    public static LanceColumnHandle rowAddress()
    {
        return new LanceColumnHandle(ROW_ADDRESS_NAME, ROW_ADDRESS_FIELD_ID, List.of(), io.trino.spi.type.BigintType.BIGINT, false);
    }

    public boolean isRowAddress()
    {
        return fieldId == ROW_ADDRESS_FIELD_ID;
    }

    public ColumnMetadata toColumnMetadata(java.util.Optional<String> comment)
    {
        return toColumnMetadata(comment, java.util.Map.of());
    }

    public ColumnMetadata toColumnMetadata(java.util.Optional<String> comment, java.util.Map<String, Object> properties)
    {
        return ColumnMetadata.builder()
                .setName(name)
                .setType(type)
                .setNullable(nullable)
                .setComment(comment)
                .setProperties(properties)
                .build();
    }
}
