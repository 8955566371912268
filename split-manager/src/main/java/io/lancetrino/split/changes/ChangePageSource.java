package io.lancetrino.split.changes;

import io.airlift.slice.Slices;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * The rows of one change split, with the change columns appended as constants.
 *
 * @param dataChannel for each output column, its channel in the data source's pages, or -1 for a change column
 */
public final class ChangePageSource
        implements ConnectorPageSource
{
    private final ConnectorPageSource data;
    private final LanceChangeSplit split;
    private final int[] dataChannel;
    private final String[] changeColumn;

    /**
     * @param changeColumn for each output column, the name of the change column it is, or null for a data column
     */
    public ChangePageSource(ConnectorPageSource data, LanceChangeSplit split, int[] dataChannel, String[] changeColumn)
    {
        this.data = requireNonNull(data, "data is null");
        this.split = requireNonNull(split, "split is null");
        this.dataChannel = dataChannel.clone();
        this.changeColumn = changeColumn.clone();
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        SourcePage page = data.getNextSourcePage();
        if (page == null) {
            return null;
        }
        int rows = page.getPositionCount();
        Block[] blocks = new Block[dataChannel.length];
        for (int column = 0; column < blocks.length; column++) {
            blocks[column] = dataChannel[column] >= 0 ? page.getBlock(dataChannel[column]) : constant(changeColumn[column], rows);
        }
        return SourcePage.create(new Page(rows, blocks));
    }

    private Block constant(String column, int rows)
    {
        return switch (column) {
            case TableChanges.CHANGE_TYPE -> rle(VARCHAR, Slices.utf8Slice(split.changeType().sqlName()), rows);
            case TableChanges.CHANGE_VERSION -> rle(BIGINT, split.version(), rows);
            case TableChanges.CHANGE_TIMESTAMP -> rle(TIMESTAMP_TZ_MILLIS, packDateTimeWithZone(split.commitMillis(), UTC_KEY), rows);
            default -> throw new IllegalArgumentException("Not a change column: " + column);
        };
    }

    private static Block rle(io.trino.spi.type.Type type, Object value, int rows)
    {
        var builder = type.createBlockBuilder(null, 1);
        writeNativeValue(type, builder, value);
        return RunLengthEncodedBlock.create(builder.build(), rows);
    }

    @Override
    public long getCompletedBytes()
    {
        return data.getCompletedBytes();
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return data.getCompletedPositions();
    }

    @Override
    public long getReadTimeNanos()
    {
        return data.getReadTimeNanos();
    }

    @Override
    public boolean isFinished()
    {
        return data.isFinished();
    }

    @Override
    public long getMemoryUsage()
    {
        return data.getMemoryUsage();
    }

    @Override
    public CompletableFuture<?> isBlocked()
    {
        return data.isBlocked();
    }

    @Override
    public Metrics getMetrics()
    {
        return data.getMetrics();
    }

    @Override
    public void close()
            throws IOException
    {
        data.close();
    }
}
