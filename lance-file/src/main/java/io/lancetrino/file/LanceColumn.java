package io.lancetrino.file;

import com.google.common.collect.ImmutableList;

import java.util.List;

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
}
