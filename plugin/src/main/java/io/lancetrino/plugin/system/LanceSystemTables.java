package io.lancetrino.plugin.system;

import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.plugin.LanceCatalog;
import io.lancetrino.split.LanceErrorCode;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;

import java.util.Locale;
import java.util.Optional;

/**
 * Metadata tables named {@code "t$versions"}, {@code "t$refs"}, {@code "t$fragments"}, {@code "t$schemas"},
 * {@code "t$transactions"}, {@code "t$indexes"}. A ref may follow the table name, {@code "t@dev$versions"} or {@code "t@gold$fragments"}, to
 * look at a branch or tag instead of main, or a number, {@code "t@3$indexes"}, for that version of main.
 */
public final class LanceSystemTables
{
    private LanceSystemTables() {}

    public static Optional<SystemTable> resolve(LanceCatalog catalog, ConnectorSession session, SchemaTableName name)
    {
        String fullName = name.getTableName();
        int dollar = fullName.lastIndexOf('$');
        if (dollar < 0) {
            return Optional.empty();
        }
        String kind = fullName.substring(dollar + 1).toLowerCase(Locale.ROOT);
        String tablePart = fullName.substring(0, dollar);
        Optional<String> ref = Optional.empty();
        int at = tablePart.indexOf('@');
        if (at >= 0) {
            ref = Optional.of(tablePart.substring(at + 1));
            tablePart = tablePart.substring(0, at);
        }
        SchemaTableName tableName = new SchemaTableName(name.getSchemaName(), tablePart);
        Optional<LanceTable> table = catalog.openTable(session.getIdentity(), tableName);
        if (table.isEmpty()) {
            return Optional.empty();
        }
        try {
            RefResolver resolver = new RefResolver(table.get());
            TableSnapshot snapshot = ref.map(spec -> resolve(table.get(), resolver, spec)).orElseGet(() -> resolver.latest(Optional.empty()));
            return Optional.ofNullable(switch (kind) {
                case "versions" -> new VersionsTable(name, table.get(), snapshot);
                case "refs" -> new RefsTable(name, table.get());
                case "fragments" -> new FragmentsTable(name, table.get(), snapshot);
                case "schemas" -> new SchemasTable(name, table.get(), snapshot);
                case "transactions" -> new TransactionsTable(name, table.get(), snapshot);
                case "properties" -> new PropertiesTable(name, snapshot);
                case "indexes" -> new IndexesTable(name, table.get(), snapshot);
                default -> null;
            });
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    /** A tag or branch, or else a number: that version of main ({@code "t@3$indexes"}). */
    private static TableSnapshot resolve(LanceTable table, RefResolver resolver, String spec)
    {
        try {
            return resolver.resolve(spec);
        }
        catch (LanceTableException e) {
            if (e.kind() == LanceErrorKind.REF_NOT_FOUND && spec.matches("[0-9]{1,18}")) {
                return table.snapshot(Optional.empty(), Long.parseLong(spec));
            }
            throw e;
        }
    }
}
