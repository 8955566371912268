package io.lancetrino.plugin.system;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.VersionChanges;
import io.lancetrino.metadata.merge.MergeRecords;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.plugin.write.TableWrites;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.ArrayType;

import java.util.List;
import java.util.Optional;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The readable history of a branch, one row per version: the transaction that made it (operation, read version,
 * uuid, and the query, user and statement kind our commits record as transaction properties) and what it changed,
 * derived from the manifests of the version and the one before it. Versions written by other engines have NULL query,
 * user and statement; a version without a transaction still has its actions. Actions are NULL when the manifest
 * before the version no longer exists. A merge or fast-forward also names its source version and merge base.
 */
final class TransactionsTable
        extends InMemorySystemTable
{
    /** fragment changes of one kind listed one by one before the rest are summed up */
    private static final int MAX_FRAGMENT_ACTIONS = 100;
    private static final ArrayType ACTIONS = new ArrayType(VARCHAR);

    private final LanceTable table;
    private final TableSnapshot current;

    TransactionsTable(SchemaTableName name, LanceTable table, TableSnapshot current)
    {
        super(name, ImmutableList.of(
                new ColumnMetadata("version", BIGINT),
                new ColumnMetadata("committed_at", TIMESTAMP_TZ_MILLIS),
                new ColumnMetadata("operation", VARCHAR),
                new ColumnMetadata("read_version", BIGINT),
                new ColumnMetadata("transaction_id", VARCHAR),
                new ColumnMetadata("query_id", VARCHAR),
                new ColumnMetadata("user", VARCHAR),
                new ColumnMetadata("statement", VARCHAR),
                new ColumnMetadata("actions", ACTIONS),
                new ColumnMetadata("merged_from", VARCHAR),
                new ColumnMetadata("merge_base", VARCHAR)));
        this.table = table;
        this.current = current;
    }

    @Override
    void addRows(InMemoryRecordSet.Builder rows)
    {
        TableSnapshot previous = null;
        for (TableSnapshot snapshot : history(table, current)) {
            long version = snapshot.version();
            Optional<Transaction> transaction = Transactions.read(table.fileSystem(), snapshot);
            Optional<Manifest> before = previous != null && previous.version() == version - 1
                    ? Optional.of(previous.manifest())
                    : VersionChanges.previousManifest(table, snapshot);
            Block actions = before
                    .map(manifest -> VersionChanges.between(manifest, snapshot.manifest(), transaction.map(Transaction::hasOverwrite).orElse(false)))
                    .map(changes -> actions(changes.describe(MAX_FRAGMENT_ACTIONS)))
                    .orElse(null);
            rows.addRow(
                    version,
                    timestampWithZone(RefResolver.commitTime(snapshot)),
                    transaction.map(Transactions::operationName).orElse(null),
                    transaction.map(Transaction::getReadVersion).orElse(null),
                    transaction.map(Transaction::getUuid).filter(uuid -> !uuid.isEmpty()).orElse(null),
                    property(transaction, TableWrites.QUERY_ID_PROPERTY),
                    property(transaction, TableWrites.USER_PROPERTY),
                    property(transaction, TableWrites.STATEMENT_PROPERTY),
                    actions,
                    mergedFrom(transaction),
                    property(transaction, MergeRecords.BASE));
            previous = snapshot;
        }
    }

    private static String property(Optional<Transaction> transaction, String key)
    {
        return transaction.map(value -> value.getTransactionPropertiesMap().get(key)).orElse(null);
    }

    // what merge_branch and FAST FORWARD record: branch:<name>@<version> or table:<location>@<version>
    private static String mergedFrom(Optional<Transaction> transaction)
    {
        String source = property(transaction, MergeRecords.SOURCE);
        String version = property(transaction, MergeRecords.SOURCE_VERSION);
        return source == null ? null : source + "@" + version;
    }

    private static Block actions(List<String> actions)
    {
        BlockBuilder builder = VARCHAR.createBlockBuilder(null, actions.size());
        for (String action : actions) {
            VARCHAR.writeSlice(builder, utf8Slice(action));
        }
        return builder.build();
    }
}
