package io.lancetrino.procedures;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;

import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;

/**
 * {@code ALTER TABLE t EXECUTE merge_branch(source => 'dev', target => 'main', on_conflict => 'fail', dry_run => false)},
 * run on the coordinator; its figures come back as metric rows.
 */
public final class MergeBranchProcedure
{
    public static final String NAME = "MERGE_BRANCH";
    public static final String SOURCE = "source";
    public static final String TARGET = "target";
    public static final String ON_CONFLICT = "on_conflict";
    public static final String DRY_RUN = "dry_run";

    private MergeBranchProcedure() {}

    public static TableProcedureMetadata metadata()
    {
        return new TableProcedureMetadata(NAME, TableProcedureExecutionMode.coordinatorOnly(), ImmutableList.of(
                stringProperty(SOURCE, "Branch, ref, or schema.table of a shallow clone to merge from", null, false),
                stringProperty(TARGET, "Branch to merge into", "main", false),
                stringProperty(ON_CONFLICT, "What to do with conflicts: 'fail', 'source_wins' or 'target_wins'", "fail", false),
                booleanProperty(DRY_RUN, "Compute the figures without changing anything", false, false)));
    }
}
