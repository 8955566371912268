package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.refs.TagRef;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Branches (main first) and tags in one table. For a branch, {@code version} is its head; for a tag, the version it
 * names on {@code branch}.
 */
final class RefsTable
        extends InMemorySystemTable
{
    private final LanceTable table;

    RefsTable(SchemaTableName name, LanceTable table)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("name", VARCHAR),
                new ColumnMetadata("type", VARCHAR),
                new ColumnMetadata("branch", VARCHAR),
                new ColumnMetadata("version", BIGINT),
                new ColumnMetadata("parent_branch", VARCHAR),
                new ColumnMetadata("parent_version", BIGINT),
                new ColumnMetadata("created_at", TIMESTAMP_TZ_MILLIS)));
        this.table = table;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        rows.addRow(RefResolver.MAIN, "BRANCH", RefResolver.MAIN, table.latestVersion(Optional.empty()).orElse(0), null, null, null);
        for (BranchRef branch : table.refs().listBranches()) {
            Long head = table.latestVersion(Optional.of(branch.name())).stream().boxed().findFirst().orElse(null);
            rows.addRow(
                    branch.name(),
                    "BRANCH",
                    branch.name(),
                    head,
                    branch.parentBranch().orElse(RefResolver.MAIN),
                    branch.parentVersion(),
                    timestampWithZone(branch.createdAt().orElse(null)));
        }
        for (TagRef tag : table.refs().listTags()) {
            rows.addRow(tag.name(), "TAG", tag.branch().orElse(RefResolver.MAIN), tag.version(), null, null, timestampWithZone(tag.createdAt().orElse(null)));
        }
    }
}
