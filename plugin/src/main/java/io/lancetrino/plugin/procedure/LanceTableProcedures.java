package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The table procedures of the catalog, by the upper-case name Trino passes.
 */
public final class LanceTableProcedures
{
    private final Map<String, LanceTableProcedure> procedures;

    @Inject
    public LanceTableProcedures(Set<LanceTableProcedure> procedures)
    {
        this.procedures = procedures.stream().collect(ImmutableMap.toImmutableMap(procedure -> procedure.metadata().getName(), Function.identity()));
    }

    public Set<TableProcedureMetadata> metadata()
    {
        return procedures.values().stream().map(LanceTableProcedure::metadata).collect(toImmutableSet());
    }

    public LanceTableProcedure get(String name)
    {
        LanceTableProcedure procedure = procedures.get(name);
        if (procedure == null) {
            throw new TrinoException(NOT_SUPPORTED, "Unknown procedure '%s'".formatted(name));
        }
        return procedure;
    }
}
