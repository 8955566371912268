package io.lancetrino.split;

import io.trino.spi.TrinoException;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;

/**
 * How a failed read of a split's data file is reported, by either reader: the table, fragment, file and column at fault.
 */
public final class SplitReadErrors
{
    private SplitReadErrors() {}

    public static TrinoException unreadable(LanceSplit split, LanceDataFile file, Exception cause)
    {
        return new TrinoException(LANCE_BAD_DATA, "Table %s, fragment %s: cannot read data file %s: %s".formatted(split.table(), split.fragmentId(), file.location(), cause.getMessage()), cause);
    }

    public static TrinoException unreadable(LanceSplit split, LanceDataFile file, String column, Exception cause)
    {
        return new TrinoException(LANCE_BAD_DATA, "Table %s, fragment %s: cannot read column %s of data file %s: %s".formatted(split.table(), split.fragmentId(), column, file.location(), cause.getMessage()), cause);
    }
}
