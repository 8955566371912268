package io.lancetrino.procedures;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.split.LanceErrorCode;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.Optional;
import java.util.function.Supplier;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;

/**
 * Helpers every ref, clone and merge operation shares: opening a table by name, resolving a ref argument, and
 * table-layer errors as Trino errors.
 */
final class LanceTableOperations
{
    private LanceTableOperations() {}

    static LanceTable open(ProcedureTables tables, ConnectorSession session, SchemaTableName name)
    {
        return tables.open(session.getIdentity(), name).orElseThrow(() -> new TableNotFoundException(name));
    }

    /**
     * A ref as {@code FOR VERSION AS OF} takes it: empty for the head of main, a number for a version of main, or a
     * tag, a branch, {@code '<branch>@<version>'}, {@code 'tag:<name>'}, {@code 'branch:<name>'}.
     */
    static TableSnapshot resolve(LanceTable table, Optional<String> ref)
    {
        RefResolver resolver = new RefResolver(table);
        if (ref.isEmpty() || ref.get().isBlank()) {
            return resolver.latest(Optional.empty());
        }
        String spec = ref.get().strip();
        if (!spec.isEmpty() && spec.chars().allMatch(Character::isDigit)) {
            return resolver.mainVersion(Long.parseLong(spec));
        }
        return resolver.resolve(spec);
    }

    static <T> T translated(Supplier<T> operation)
    {
        try {
            return operation.get();
        }
        catch (LanceTableException e) {
            throw LanceErrorCode.toTrinoException(e);
        }
    }

    static void translated(Runnable operation)
    {
        translated(() -> {
            operation.run();
            return null;
        });
    }

    static String required(String value, String argument)
    {
        if (value == null) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Argument %s must be given".formatted(argument));
        }
        if (value.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Argument %s is empty".formatted(argument));
        }
        return value;
    }
}
