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
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static io.trino.spi.type.VarcharType.VARCHAR;
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
    private final int[] dataChannel;
    // for each change column, its one value; null for data columns
    private final Block[] changeValue;

    /**
     * @param changeColumn for each output column, the name of the change column it is, or null for a data column
     */
    public ChangePageSource(ConnectorPageSource data, LanceChangeSplit split, int[] dataChannel, String[] changeColumn)
    {
        this.data = requireNonNull(data, "data is null");
        requireNonNull(split, "split is null");
        this.dataChannel = dataChannel.clone();
        this.changeValue = new Block[changeColumn.length];
        for (int column = 0; column < changeColumn.length; column++) {
            if (changeColumn[column] != null) {
                changeValue[column] = value(changeColumn[column], split);
            }
        }
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
            blocks[column] = dataChannel[column] >= 0 ? page.getBlock(dataChannel[column]) : RunLengthEncodedBlock.create(changeValue[column], rows);
        }
        return SourcePage.create(new Page(rows, blocks));
    }

    private static Block value(String column, LanceChangeSplit split)
    {
        return switch (column) {
            case TableChanges.CHANGE_TYPE -> single(VARCHAR, Slices.utf8Slice(split.changeType().sqlName()));
            case TableChanges.CHANGE_VERSION -> single(BIGINT, split.version());
            case TableChanges.CHANGE_TIMESTAMP -> single(TIMESTAMP_TZ_MILLIS, packDateTimeWithZone(split.commitMillis(), UTC_KEY));
            default -> throw new IllegalArgumentException("Not a change column: " + column);
        };
    }

    private static Block single(io.trino.spi.type.Type type, Object value)
    {
        var builder = type.createBlockBuilder(null, 1);
        writeNativeValue(type, builder, value);
        return builder.build();
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
