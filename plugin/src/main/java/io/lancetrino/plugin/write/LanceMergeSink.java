package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.lancetrino.metadata.proto.DataFragment;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.MergePage;
import org.roaringbitmap.RoaringBitmap;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Collects deleted row addresses per fragment and writes inserted rows into new data files. Deletion files are written
 * by the coordinator, which unions the deletions of all sinks with the fragment's existing ones.
 */
final class LanceMergeSink
        implements ConnectorMergeSink
{
    private final LanceFileSink inserts;
    private final int dataColumnCount;
    private final Optional<InsertedKeysCollector> insertedKeys;
    private final Map<Long, RoaringBitmap> deletedRows = new HashMap<>();
    private long insertRows;
    private long mergeDeleteRows;

    LanceMergeSink(LanceFileSink inserts, int dataColumnCount, Optional<InsertedKeysCollector> insertedKeys)
    {
        this.inserts = requireNonNull(inserts, "inserts is null");
        this.dataColumnCount = dataColumnCount;
        this.insertedKeys = requireNonNull(insertedKeys, "insertedKeys is null");
    }

    @Override
    public void storeMergedRows(Page page)
    {
        countStatementRows(page);
        MergePage merge = MergePage.createDeleteAndInsertPages(page, dataColumnCount);
        merge.getDeletionsPage().ifPresent(deletions -> {
            Block addresses = deletions.getBlock(deletions.getChannelCount() - 1);
            for (int position = 0; position < addresses.getPositionCount(); position++) {
                long address = BIGINT.getLong(addresses, position);
                deletedRows.computeIfAbsent(address >>> 32, _ -> new RoaringBitmap()).add((int) address);
            }
        });
        merge.getInsertionsPage().ifPresent(inserts::append);
    }

    /**
     * Rows only a MERGE produces: plain inserts, and plain deletes from Trino's merge row processor, which marks them
     * with case number -1 (a DELETE statement's rows carry case 0). See {@link RowChangeStatement}.
     */
    private void countStatementRows(Page page)
    {
        Block operations = page.getBlock(dataColumnCount);
        Block caseNumbers = page.getBlock(dataColumnCount + 1);
        for (int position = 0; position < page.getPositionCount(); position++) {
            byte operation = TINYINT.getByte(operations, position);
            if (operation == INSERT_OPERATION_NUMBER) {
                insertRows++;
                // only rows a MERGE inserts bring new keys: an UPDATE keeps the row's key
                int row = position;
                insertedKeys.ifPresent(keys -> keys.add(page, row));
            }
            else if (operation == DELETE_OPERATION_NUMBER && INTEGER.getInt(caseNumbers, position) < 0) {
                mergeDeleteRows++;
            }
        }
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        List<byte[]> fragments = inserts.finish().stream().map(DataFragment::toByteArray).collect(ImmutableList.toImmutableList());
        Map<Long, byte[]> deletions = new HashMap<>();
        deletedRows.forEach((fragment, rows) -> deletions.put(fragment, WriterResult.serialize(rows)));
        return CompletableFuture.completedFuture(List.of(new WriterResult(fragments, deletions, insertRows, mergeDeleteRows, insertedKeys.map(InsertedKeysCollector::result).orElse(null)).toSlice()));
    }

    @Override
    public void abort()
    {
        inserts.abort();
    }

    @Override
    public long getCompletedBytes()
    {
        return inserts.writtenBytes();
    }
}
