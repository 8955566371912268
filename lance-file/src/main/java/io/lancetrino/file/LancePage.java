package io.lancetrino.file;

import com.google.common.collect.ImmutableList;
import io.lancetrino.file.proto.encodings.PageLayout;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/** One page of a column: its rows, the absolute positions and sizes of its buffers, and its decoded layout. */
public record LancePage(long rows, List<Long> bufferPositions, List<Long> bufferSizes, PageLayout layout)
{
    public LancePage
    {
        bufferPositions = ImmutableList.copyOf(requireNonNull(bufferPositions, "bufferPositions is null"));
        bufferSizes = ImmutableList.copyOf(requireNonNull(bufferSizes, "bufferSizes is null"));
        checkArgument(bufferPositions.size() == bufferSizes.size(), "buffer positions and sizes differ in count");
        requireNonNull(layout, "layout is null");
    }
}
