package io.lancetrino.file.writer;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.lancetrino.file.proto.encodings.PageLayout;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One page of one column, ready to be placed in the file: its rows, its buffers in order and its layout.
 */
record EncodedPage(long rows, List<Slice> buffers, PageLayout layout)
{
    EncodedPage
    {
        buffers = ImmutableList.copyOf(requireNonNull(buffers, "buffers is null"));
        requireNonNull(layout, "layout is null");
    }

    long bytes()
    {
        return buffers.stream().mapToLong(Slice::length).sum();
    }
}
