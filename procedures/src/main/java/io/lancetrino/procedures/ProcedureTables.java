package io.lancetrino.procedures;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.security.ConnectorIdentity;

import java.util.List;
import java.util.Optional;

/**
 * What procedures need of the catalog: its tables by name, where a new table would live, and the committer.
 */
public interface ProcedureTables
{
    Optional<LanceTable> open(ConnectorIdentity identity, SchemaTableName name);

    /**
     * The table at the location the catalog gives {@code name}, whether or not it exists yet.
     */
    LanceTable locate(ConnectorIdentity identity, SchemaTableName name);

    /**
     * The columns Trino sees in a version of the table.
     */
    List<LanceColumnHandle> columns(SchemaTableName name, TableSnapshot snapshot);

    boolean schemaExists(ConnectorIdentity identity, String schema);

    /**
     * Every table of every schema in the catalog's warehouse.
     */
    List<SchemaTableName> listTables(ConnectorIdentity identity);

    /**
     * Whether a location lies inside the catalog's warehouse, where a missing table means it was dropped.
     */
    boolean isInWarehouse(String location);

    TableCommitter committer();
}
