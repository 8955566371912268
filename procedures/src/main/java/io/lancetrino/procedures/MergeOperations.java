package io.lancetrino.procedures;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.merge.BranchMerge;
import io.lancetrino.metadata.merge.MergeBase;
import io.lancetrino.metadata.merge.MergeBases;
import io.lancetrino.metadata.merge.MergeOutcome;
import io.lancetrino.metadata.merge.MergePolicy;
import io.lancetrino.metadata.merge.MergeRecords;
import io.lancetrino.metadata.refs.RefResolver;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.lancetrino.procedures.LanceTableOperations.open;
import static io.lancetrino.procedures.LanceTableOperations.translated;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * {@code merge_branch}: merges a branch of the table, or a shallow clone of it, into one of its branches.
 */
public final class MergeOperations
{
    private final ProcedureTables tables;

    @Inject
    public MergeOperations(ProcedureTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    /**
     * What {@code source} names: a branch of the table (also {@code '<branch>@<version>'} or a tag), or else, when
     * it reads {@code schema.table}, a shallow clone of the table.
     */
    public sealed interface Source
    {
        record Branch(String ref) implements Source {}

        record Clone(SchemaTableName table) implements Source {}
    }

    public Source source(ConnectorSession session, SchemaTableName name, String source)
    {
        LanceTable table = open(tables, session, name);
        boolean isRef = source.equals(RefResolver.MAIN) || source.contains("@") || source.startsWith("tag:") || source.startsWith("branch:")
                || translated(() -> table.refs().getBranch(source).isPresent() || table.refs().getTag(source).isPresent());
        int dot = source.indexOf('.');
        if (isRef || dot <= 0 || dot == source.length() - 1) {
            return new Source.Branch(source);
        }
        return new Source.Clone(new SchemaTableName(source.substring(0, dot).toLowerCase(Locale.ROOT), source.substring(dot + 1).toLowerCase(Locale.ROOT)));
    }

    public static MergePolicy policy(String onConflict)
    {
        return Arrays.stream(MergePolicy.values())
                .filter(policy -> policy.sqlName().equals(onConflict.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT, "on_conflict must be 'fail', 'source_wins' or 'target_wins', not '%s'".formatted(onConflict)));
    }

    public Map<String, Long> merge(ConnectorSession session, SchemaTableName name, Source source, String target, MergePolicy policy, boolean dryRun, Map<String, String> properties)
    {
        LanceTable table = open(tables, session, name);
        MergeOutcome outcome = translated(() -> {
            TableSnapshot targetHead = new RefResolver(table).branchHead(target);
            return switch (source) {
                case Source.Branch branch -> {
                    TableSnapshot sourceSnapshot = LanceTableOperations.resolve(table, Optional.of(branch.ref()));
                    if (sourceSnapshot.branch().equals(targetHead.branch())) {
                        throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot merge branch '%s' of table %s into itself".formatted(targetHead.branch().orElse(RefResolver.MAIN), name));
                    }
                    MergeBase base = MergeBases.forBranches(table, sourceSnapshot, targetHead);
                    yield new BranchMerge(tables.committer()).merge(table, targetHead, table, sourceSnapshot, "'" + branch.ref() + "'",
                            MergeRecords.branchSource(sourceSnapshot.branch()), base, policy, dryRun, false, properties);
                }
                case Source.Clone clone -> {
                    LanceTable cloneTable = open(tables, session, clone.table());
                    TableSnapshot sourceSnapshot = new RefResolver(cloneTable).latest(Optional.empty());
                    MergeBase base = MergeBases.forClone(table, targetHead, cloneTable, sourceSnapshot);
                    yield new BranchMerge(tables.committer()).merge(table, targetHead, cloneTable, sourceSnapshot, "table " + clone.table(),
                            MergeRecords.tableSource(cloneTable.root()), base, policy, dryRun, false, properties);
                }
            };
        });
        return ImmutableMap.<String, Long>builder()
                .put("fragments_added", outcome.fragmentsAdded())
                .put("rows_added", outcome.rowsAdded())
                .put("rows_deleted", outcome.rowsDeleted())
                .put("conflicts", (long) outcome.conflicts().size())
                .put("fast_forward", outcome.fastForward() ? 1L : 0L)
                .put("target_version", outcome.committedVersion().orElse(0))
                .buildOrThrow();
    }
}
