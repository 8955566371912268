package io.lancetrino.procedures;

import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.clone.ClonePin;
import io.lancetrino.metadata.clone.ClonePins;
import io.lancetrino.metadata.clone.Clones;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

import static io.lancetrino.procedures.LanceTableOperations.open;
import static io.lancetrino.procedures.LanceTableOperations.translated;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;
import static java.util.Objects.requireNonNull;

/**
 * Shallow and deep clones of a table version into another table of the catalog.
 */
public final class CloneOperations
{
    private static final Logger log = Logger.get(CloneOperations.class);

    private final ProcedureTables tables;
    private final Clock clock = Clock.systemUTC();

    @Inject
    public CloneOperations(ProcedureTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    /**
     * @param pinSource whether to record the clone under the source's {@code _refs/clones/}; only for users who may
     * write the source, and never required: the clone's own first transaction also names its source
     */
    public void shallowClone(ConnectorSession session, SchemaTableName sourceName, SchemaTableName targetName, Optional<String> ref, boolean pinSource)
    {
        LanceTable source = open(tables, session, sourceName);
        LanceTable target = target(session, sourceName, targetName);
        translated(() -> {
            TableSnapshot snapshot = LanceTableOperations.resolve(source, ref);
            Optional<String> pinId = Optional.empty();
            if (pinSource) {
                pinId = pin(source, target, snapshot);
            }
            new Clones(tables.committer()).shallow(snapshot, target, pinId);
        });
    }

    public void deepClone(ConnectorSession session, SchemaTableName sourceName, SchemaTableName targetName, Optional<String> ref)
    {
        LanceTable source = open(tables, session, sourceName);
        LanceTable target = target(session, sourceName, targetName);
        translated(() -> new Clones(tables.committer()).deep(LanceTableOperations.resolve(source, ref), source.fileSystem(), target));
    }

    private LanceTable target(ConnectorSession session, SchemaTableName source, SchemaTableName target)
    {
        if (!tables.schemaExists(session.getIdentity(), target.getSchemaName())) {
            throw new SchemaNotFoundException(target.getSchemaName());
        }
        if (tables.open(session.getIdentity(), target).isPresent()) {
            throw new TrinoException(TABLE_ALREADY_EXISTS, "Cannot clone %s into %s: table %s already exists".formatted(source, target, target));
        }
        return tables.locate(session.getIdentity(), target);
    }

    private Optional<String> pin(LanceTable source, LanceTable target, TableSnapshot snapshot)
    {
        String id = UUID.randomUUID().toString().replace("-", "");
        try {
            new ClonePins(source.fileSystem(), source.root()).write(new ClonePin(id, target.root(), snapshot.branch(), snapshot.version(), clock.instant()));
            return Optional.of(id);
        }
        catch (IOException | RuntimeException e) {
            // a source on storage this user cannot write: the clone's transaction still records where it came from
            log.warn(e, "Cannot record clone %s in %s; cleanup will find it by scanning the warehouse", target.displayName(), source.displayName());
            return Optional.empty();
        }
    }
}
