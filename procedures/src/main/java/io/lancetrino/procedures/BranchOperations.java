package io.lancetrino.procedures;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.merge.BranchMerge;
import io.lancetrino.metadata.merge.MergeBases;
import io.lancetrino.metadata.merge.MergePolicy;
import io.lancetrino.metadata.merge.MergeRecords;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.maintenance.DroppedBranchFiles;
import io.lancetrino.metadata.refs.Branches;
import io.lancetrino.metadata.refs.RefResolver;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.lancetrino.procedures.LanceTableOperations.open;
import static io.lancetrino.procedures.LanceTableOperations.translated;
import static io.trino.spi.StandardErrorCode.INVALID_BRANCH_PROPERTY;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * Branches of a table, for Trino's branch SQL and the branch procedures alike.
 */
public final class BranchOperations
{
    private final ProcedureTables tables;
    private final Clock clock = Clock.systemUTC();

    @Inject
    public BranchOperations(ProcedureTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    /**
     * {@code main} first, then the branches, so {@code t @ main} and {@code FAST FORWARD} of main work.
     */
    public List<String> list(ConnectorSession session, SchemaTableName name)
    {
        Optional<LanceTable> table = tables.open(session.getIdentity(), name);
        if (table.isEmpty()) {
            return ImmutableList.of();
        }
        return ImmutableList.<String>builder()
                .add(RefResolver.MAIN)
                .addAll(translated(() -> table.get().refs().listBranches()).stream().map(BranchRef::name).toList())
                .build();
    }

    public boolean exists(ConnectorSession session, SchemaTableName name, String branch)
    {
        if (branch.equals(RefResolver.MAIN)) {
            return tables.open(session.getIdentity(), name).isPresent();
        }
        return tables.open(session.getIdentity(), name)
                .map(table -> translated(() -> table.refs().getBranch(branch)).isPresent())
                .orElse(false);
    }

    /**
     * @param fromBranch the branch of the SQL's {@code FROM}; with {@code fromVersion} that version of it
     * @param fromTag where a tag points, instead of a branch's head
     */
    public void create(ConnectorSession session, SchemaTableName name, String branch, Optional<String> fromBranch, OptionalLong fromVersion, Optional<String> fromTag, boolean replace)
    {
        if (fromTag.isPresent() && (fromVersion.isPresent() || fromBranch.isPresent())) {
            throw new TrinoException(INVALID_BRANCH_PROPERTY, "Branch '%s' of table %s: from_tag names a version by itself; it cannot be combined with from_version or FROM".formatted(branch, name));
        }
        Optional<String> ref = fromTag.map(tag -> "tag:" + tag)
                .or(() -> fromVersion.isPresent()
                        ? Optional.of(fromBranch.orElse(RefResolver.MAIN) + "@" + fromVersion.getAsLong())
                        : fromBranch.map(source -> "branch:" + source));
        create(session, name, branch, ref, replace);
    }

    /**
     * @param ref anything {@code FOR VERSION AS OF} takes; empty for the head of main
     */
    public void create(ConnectorSession session, SchemaTableName name, String branch, Optional<String> ref, boolean replace)
    {
        LanceTable table = open(tables, session, name);
        translated(() -> {
            Branches.checkName(table, branch);
            TableSnapshot source = LanceTableOperations.resolve(table, ref);
            Branches branches = new Branches(table, tables.committer(), clock);
            if (replace && table.refs().getBranch(branch).isPresent()) {
                DroppedBranchFiles.delete(table, branches.drop(branch));
            }
            branches.create(branch, source);
        });
    }

    public void drop(ConnectorSession session, SchemaTableName name, String branch)
    {
        if (branch.equals(RefResolver.MAIN)) {
            throw new TrinoException(NOT_SUPPORTED, "The main branch of table %s cannot be dropped".formatted(name));
        }
        LanceTable table = open(tables, session, name);
        translated(() -> {
            String location = new Branches(table, tables.committer(), clock).drop(branch);
            DroppedBranchFiles.delete(table, location);
        });
    }

    /**
     * Moves {@code moving} to the head of {@code to}, as one new version of {@code moving} with {@code to}'s content;
     * refused unless {@code moving} has not changed since the two shared a version.
     */
    public void fastForward(ConnectorSession session, SchemaTableName name, String moving, String to, Map<String, String> properties)
    {
        LanceTable table = open(tables, session, name);
        translated(() -> {
            RefResolver resolver = new RefResolver(table);
            TableSnapshot target = resolver.branchHead(moving);
            TableSnapshot source = resolver.branchHead(to);
            new BranchMerge(tables.committer()).merge(table, target, table, source, "'" + to + "'", MergeRecords.branchSource(source.branch()),
                    MergeBases.forBranches(table, source, target), MergePolicy.FAIL, false, true, properties);
        });
    }
}
