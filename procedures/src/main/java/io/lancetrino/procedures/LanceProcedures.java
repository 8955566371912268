package io.lancetrino.procedures;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.procedure.Procedure.Argument;
import io.trino.spi.security.AccessDeniedException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.lancetrino.procedures.LanceTableOperations.required;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL lance.system.*}: branches and tags for clients that cannot send branch SQL (Trino has no tag SQL), and
 * clones. Each checks the caller's access through the session's access control before touching anything.
 */
public final class LanceProcedures
{
    private static final Logger log = Logger.get(LanceProcedures.class);
    private static final String SCHEMA = "system";

    private final BranchOperations branches;
    private final TagOperations tags;
    private final CloneOperations clones;
    private final CleanupOperations cleanups;
    private final RowSecurity rowSecurity;

    @Inject
    public LanceProcedures(BranchOperations branches, TagOperations tags, CloneOperations clones, CleanupOperations cleanups, RowSecurity rowSecurity)
    {
        this.rowSecurity = requireNonNull(rowSecurity, "rowSecurity is null");
        this.cleanups = requireNonNull(cleanups, "cleanups is null");
        this.branches = requireNonNull(branches, "branches is null");
        this.tags = requireNonNull(tags, "tags is null");
        this.clones = requireNonNull(clones, "clones is null");
    }

    public Set<Procedure> procedures()
    {
        Argument schema = new Argument("SCHEMA_NAME", VARCHAR);
        Argument table = new Argument("TABLE_NAME", VARCHAR);
        Argument optionalRef = new Argument("REF", VARCHAR, false, null);
        return ImmutableSet.of(
                procedure("create_branch", List.of(schema, table, new Argument("BRANCH", VARCHAR), optionalRef), "createBranch"),
                procedure("drop_branch", List.of(schema, table, new Argument("BRANCH", VARCHAR)), "dropBranch"),
                procedure("create_tag", List.of(schema, table, new Argument("TAG", VARCHAR), optionalRef), "createTag"),
                procedure("move_tag", List.of(schema, table, new Argument("TAG", VARCHAR), new Argument("REF", VARCHAR)), "moveTag"),
                procedure("drop_tag", List.of(schema, table, new Argument("TAG", VARCHAR)), "dropTag"),
                procedure("shallow_clone", List.of(schema, table, new Argument("TARGET_SCHEMA", VARCHAR), new Argument("TARGET_TABLE", VARCHAR), optionalRef), "shallowClone"),
                procedure("deep_clone", List.of(schema, table, new Argument("TARGET_SCHEMA", VARCHAR), new Argument("TARGET_TABLE", VARCHAR), optionalRef), "deepClone"),
                procedure("cleanup", List.of(schema, table, new Argument("RETENTION_THRESHOLD", VARCHAR, false, null), new Argument("DRY_RUN", BOOLEAN, false, false)), "cleanup"));
    }

    public void createBranch(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String branch, String ref)
    {
        SchemaTableName name = name(schema, table);
        checkBranchAccess(() -> accessControl.checkCanCreateBranch(null, name, required(branch, "BRANCH")), accessControl, name);
        branches.create(session, name, branch, Optional.ofNullable(ref), false);
    }

    public void dropBranch(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String branch)
    {
        SchemaTableName name = name(schema, table);
        checkBranchAccess(() -> accessControl.checkCanDropBranch(null, name, required(branch, "BRANCH")), accessControl, name);
        branches.drop(session, name, branch);
    }

    public void createTag(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String tag, String ref)
    {
        SchemaTableName name = name(schema, table);
        accessControl.checkCanInsertIntoTable(null, name);
        tags.create(session, name, required(tag, "TAG"), Optional.ofNullable(ref));
    }

    public void moveTag(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String tag, String ref)
    {
        SchemaTableName name = name(schema, table);
        accessControl.checkCanInsertIntoTable(null, name);
        tags.move(session, name, required(tag, "TAG"), Optional.of(required(ref, "REF")));
    }

    public void dropTag(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String tag)
    {
        SchemaTableName name = name(schema, table);
        accessControl.checkCanInsertIntoTable(null, name);
        tags.drop(session, name, required(tag, "TAG"));
    }

    public void shallowClone(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String targetSchema, String targetTable, String ref)
    {
        SchemaTableName source = name(schema, table);
        SchemaTableName target = name(targetSchema, targetTable);
        checkCanClone(session, accessControl, source, target, ref, "shallow_clone");
        clones.shallowClone(session, source, target, Optional.ofNullable(ref), canWrite(accessControl, source));
    }

    public void deepClone(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String targetSchema, String targetTable, String ref)
    {
        SchemaTableName source = name(schema, table);
        SchemaTableName target = name(targetSchema, targetTable);
        checkCanClone(session, accessControl, source, target, ref, "deep_clone");
        clones.deepClone(session, source, target, Optional.ofNullable(ref));
    }

    /**
     * The same cleanup as {@code ALTER TABLE t EXECUTE cleanup(...)}; CALL cannot return rows, so its figures go to the
     * server log.
     */
    public void cleanup(ConnectorSession session, ConnectorAccessControl accessControl, String schema, String table, String retentionThreshold, Boolean dryRun)
    {
        SchemaTableName name = name(schema, table);
        var retention = cleanups.retention(session, name, retentionThreshold == null ? CleanupOperations.DEFAULT_RETENTION : retentionThreshold);
        accessControl.checkCanInsertIntoTable(null, name);
        accessControl.checkCanDeleteFromTable(null, name);
        var report = cleanups.cleanup(session, name, retention, dryRun != null && dryRun);
        log.info("Cleanup of %s (retention %s, dry run %s): %s", name, retention, dryRun, report.metrics());
    }

    /**
     * Trino 483's file-based access control throws {@link UnsupportedOperationException} for every branch check; a
     * branch changes the table's storage, so the table's INSERT privilege decides instead.
     */
    private static void checkBranchAccess(Runnable branchCheck, ConnectorAccessControl accessControl, SchemaTableName table)
    {
        try {
            branchCheck.run();
        }
        catch (UnsupportedOperationException e) {
            accessControl.checkCanInsertIntoTable(null, table);
        }
    }

    /**
     * A clone holds every row and value of the version cloned, readable by whoever may read the clone: only a user
     * who sees the source whole may make one.
     */
    private void checkCanClone(ConnectorSession session, ConnectorAccessControl accessControl, SchemaTableName source, SchemaTableName target, String ref, String procedure)
    {
        accessControl.checkCanSelectFromColumns(null, source, Set.of());
        accessControl.checkCanCreateTable(null, target, Map.of());
        rowSecurity.checkUnrestricted(session, accessControl, source, Optional.ofNullable(ref), procedure,
                "a clone cannot carry them: its data files are the source's, readable whole");
    }

    private static boolean canWrite(ConnectorAccessControl accessControl, SchemaTableName table)
    {
        try {
            accessControl.checkCanInsertIntoTable(null, table);
            return true;
        }
        catch (AccessDeniedException e) {
            return false;
        }
    }

    private static SchemaTableName name(String schema, String table)
    {
        return new SchemaTableName(required(schema, "SCHEMA_NAME").toLowerCase(Locale.ROOT), required(table, "TABLE_NAME").toLowerCase(Locale.ROOT));
    }

    private Procedure procedure(String name, List<Argument> arguments, String methodName)
    {
        for (Method method : LanceProcedures.class.getMethods()) {
            if (method.getName().equals(methodName)) {
                try {
                    MethodHandle handle = MethodHandles.lookup().unreflect(method).bindTo(this);
                    return new Procedure(SCHEMA, name, arguments, handle);
                }
                catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalArgumentException("No method " + methodName);
    }
}
