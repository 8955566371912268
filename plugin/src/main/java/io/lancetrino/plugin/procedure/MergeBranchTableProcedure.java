package io.lancetrino.plugin.procedure;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.plugin.write.TableWrites;
import io.lancetrino.procedures.BranchOperations;
import io.lancetrino.procedures.MergeBranchProcedure;
import io.lancetrino.procedures.MergeOperations;
import io.lancetrino.procedures.RowSecurity;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.split.LanceTableHandle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.BRANCH_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * {@code ALTER TABLE t EXECUTE merge_branch(source => 'dev', target => 'main', on_conflict => 'fail', dry_run => false)}.
 */
public final class MergeBranchTableProcedure
        implements LanceTableProcedure
{
    private final BranchOperations branches;
    private final MergeOperations merges;
    private final RowSecurity rowSecurity;

    @Inject
    public MergeBranchTableProcedure(BranchOperations branches, MergeOperations merges, RowSecurity rowSecurity)
    {
        this.rowSecurity = requireNonNull(rowSecurity, "rowSecurity is null");
        this.branches = requireNonNull(branches, "branches is null");
        this.merges = requireNonNull(merges, "merges is null");
    }

    @Override
    public TableProcedureMetadata metadata()
    {
        return MergeBranchProcedure.metadata();
    }

    @Override
    public Map<String, String> analyze(ConnectorSession session, ConnectorAccessControl accessControl, LanceTableHandle table, Map<String, Object> properties)
    {
        String source = (String) properties.get(MergeBranchProcedure.SOURCE);
        if (source == null || source.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "merge_branch on table %s needs source => '<branch>' (or a shallow clone's 'schema.table')".formatted(table.schemaTableName()));
        }
        String target = (String) properties.get(MergeBranchProcedure.TARGET);
        String onConflict = (String) properties.get(MergeBranchProcedure.ON_CONFLICT);
        MergeOperations.policy(onConflict);
        if (!branches.exists(session, table.schemaTableName(), target)) {
            throw new TrinoException(BRANCH_NOT_FOUND, "Branch '%s' does not exist in table %s".formatted(target, table.schemaTableName()));
        }
        Optional<String> targetBranch = RefResolver.branch(target);
        accessControl.checkCanInsertIntoTable(null, table.schemaTableName(), targetBranch);
        accessControl.checkCanDeleteFromTable(null, table.schemaTableName(), targetBranch);
        // a merge moves rows the engine never filters: the source's into the target, and changes the target's
        String reason = "merge_branch cannot apply them to the rows it moves";
        rowSecurity.checkUnrestricted(session, accessControl, table.schemaTableName(), Optional.of(targetBranch.map(branch -> "branch:" + branch).orElse(RefResolver.MAIN)), "merge_branch into", reason);
        switch (merges.source(session, table.schemaTableName(), source)) {
            case MergeOperations.Source.Branch branch -> {
                accessControl.checkCanSelectFromColumns(null, table.schemaTableName(), Set.of());
                rowSecurity.checkUnrestricted(session, accessControl, table.schemaTableName(), Optional.of(branch.ref()), "merge_branch from", reason);
            }
            case MergeOperations.Source.Clone clone -> {
                accessControl.checkCanSelectFromColumns(null, clone.table(), Set.of());
                rowSecurity.checkUnrestricted(session, accessControl, clone.table(), Optional.empty(), "merge_branch from", reason);
            }
        }
        return ImmutableMap.of(
                MergeBranchProcedure.SOURCE, source,
                MergeBranchProcedure.TARGET, target,
                MergeBranchProcedure.ON_CONFLICT, onConflict,
                MergeBranchProcedure.DRY_RUN, properties.get(MergeBranchProcedure.DRY_RUN).toString());
    }

    @Override
    public Map<String, Long> execute(ConnectorSession session, LanceTableExecuteHandle handle)
    {
        SchemaTableName name = handle.table().schemaTableName();
        return merges.merge(session, name, merges.source(session, name, handle.argument(MergeBranchProcedure.SOURCE)), handle.argument(MergeBranchProcedure.TARGET),
                MergeOperations.policy(handle.argument(MergeBranchProcedure.ON_CONFLICT)), Boolean.parseBoolean(handle.argument(MergeBranchProcedure.DRY_RUN)),
                TableWrites.statementProperties(session, "MERGE BRANCH"));
    }
}
