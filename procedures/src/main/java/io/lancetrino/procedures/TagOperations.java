package io.lancetrino.procedures;

import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.refs.Tags;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.time.Clock;
import java.util.Optional;

import static io.lancetrino.procedures.LanceTableOperations.open;
import static io.lancetrino.procedures.LanceTableOperations.translated;
import static java.util.Objects.requireNonNull;

/**
 * Tags of a table (Trino has no tag SQL): create, move and drop.
 */
public final class TagOperations
{
    private final ProcedureTables tables;
    private final Clock clock = Clock.systemUTC();

    @Inject
    public TagOperations(ProcedureTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    public void create(ConnectorSession session, SchemaTableName name, String tag, Optional<String> ref)
    {
        LanceTable table = open(tables, session, name);
        translated(() -> new Tags(table, clock).create(tag, LanceTableOperations.resolve(table, ref)));
    }

    public void move(ConnectorSession session, SchemaTableName name, String tag, Optional<String> ref)
    {
        LanceTable table = open(tables, session, name);
        translated(() -> new Tags(table, clock).move(tag, LanceTableOperations.resolve(table, ref)));
    }

    public void drop(ConnectorSession session, SchemaTableName name, String tag)
    {
        LanceTable table = open(tables, session, name);
        translated(() -> new Tags(table, clock).drop(tag));
    }
}
