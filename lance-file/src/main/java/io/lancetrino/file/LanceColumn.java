package io.lancetrino.file;

import com.google.common.collect.ImmutableList;

import java.util.List;

import static java.lang.Math.max;
import static java.lang.Math.min;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/** One physical (leaf) column of a Lance data file: its pages in row order. */
public record LanceColumn(int index, List<LancePage> pages)
{
    public LanceColumn
    {
        pages = ImmutableList.copyOf(requireNonNull(pages, "pages is null"));
    }

    public long rows()
    {
        return pages.stream().mapToLong(LancePage::rows).sum();
    }

    /** The pages holding rows {@code [rowStart, rowEnd)} of the column, in order, each with those rows counted from its own first row. */
    public List<PageRows> pagesOf(long rowStart, long rowEnd)
    {
        ImmutableList.Builder<PageRows> result = ImmutableList.builder();
        long pageStart = 0;
        for (int page = 0; page < pages.size() && pageStart < rowEnd; page++) {
            LancePage lancePage = pages.get(page);
            long pageEnd = pageStart + lancePage.rows();
            if (pageEnd > rowStart && lancePage.rows() > 0) {
                result.add(new PageRows(page, lancePage, toIntExact(max(rowStart, pageStart) - pageStart), toIntExact(min(rowEnd, pageEnd) - pageStart)));
            }
            pageStart = pageEnd;
        }
        return result.build();
    }

    /** A page of the column and the wanted rows {@code [from, to)} of it. */
    public record PageRows(int index, LancePage page, int from, int to) {}
}
