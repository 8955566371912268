package io.lancetrino.plugin.write;

import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.metadata.keys.InsertedKeys;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.split.LanceErrorCode;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.time.Clock;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The one place statements open the table they change and commit to it, with table-layer errors as Trino errors.
 */
public final class TableCommits
{
    private static final int MAX_COMMIT_ATTEMPTS = 20;

    private final LanceCatalog catalog;
    private final TableCommitter committer = new TableCommitter(MAX_COMMIT_ATTEMPTS, Clock.systemUTC());

    @Inject
    public TableCommits(LanceCatalog catalog)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    public TableCommitter committer()
    {
        return committer;
    }

    LanceTable table(ConnectorSession session, String tableRoot, SchemaTableName name)
    {
        return catalog.openTable(session.getIdentity(), tableRoot, name);
    }

    TableSnapshot snapshot(ConnectorSession session, LanceTableHandle handle)
    {
        try {
            return table(session, handle.tableRoot(), handle.schemaTableName()).snapshot(handle.branch(), handle.version());
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    void commit(ConnectorSession session, String tableRoot, SchemaTableName name, Optional<String> branch, Transaction transaction)
    {
        commit(session, tableRoot, name, branch, transaction, Optional.empty());
    }

    void commit(ConnectorSession session, String tableRoot, SchemaTableName name, Optional<String> branch, Transaction transaction, Optional<InsertedKeys> insertedKeys)
    {
        try {
            committer.commit(table(session, tableRoot, name), branch, transaction, insertedKeys);
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }
}
