package io.lancetrino.plugin.procedure;

import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.util.Map;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.BRANCH_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;

/**
 * What the index procedures check alike: the branch, the caller's access, required arguments.
 */
final class IndexProcedures
{
    static final String BRANCH = "branch";
    static final String NAME = "name";

    private IndexProcedures() {}

    /**
     * An index changes no row but what later statements read through: writing the table is required.
     */
    static String checkBranch(ConnectorSession session, BranchOperations branches, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties, String procedure)
    {
        SchemaTableName name = table.schemaTableName();
        String branch = (String) properties.get(BRANCH);
        if (branch == null || branch.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s on table %s: branch must name a branch, 'main' for the main branch".formatted(procedure, name));
        }
        if (!branches.exists(session, name, branch)) {
            throw new TrinoException(BRANCH_NOT_FOUND, "Branch '%s' does not exist in table %s".formatted(branch, name));
        }
        Optional<String> branchName = RefResolver.branch(branch);
        accessControl.checkCanInsertIntoTable(null, name, branchName);
        return branch;
    }

    static String required(LanceTableHandle table, Map<String, Object> properties, String argument, String procedure)
    {
        Object value = properties.get(argument);
        if (value == null || value.toString().isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s on table %s: %s is required".formatted(procedure, table.schemaTableName(), argument));
        }
        return value.toString();
    }
}
