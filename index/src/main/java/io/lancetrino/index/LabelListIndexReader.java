package io.lancetrino.index;

import com.google.common.collect.ImmutableList;
import io.trino.spi.type.ArrayType;

import java.io.IOException;
import java.util.Collection;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A label list index over an array column: the bitmap index file with one row per label (list element). Answers
 * {@code contains(column, label)}-style queries: the rows whose list holds all, or any, of some labels. Exact.
 */
public final class LabelListIndexReader
{
    private final ArrayType type;
    private final BitmapIndexReader labels;

    LabelListIndexReader(ArrayType type, BitmapIndexReader labels)
    {
        this.type = requireNonNull(type, "type is null");
        this.labels = requireNonNull(labels, "labels is null");
    }

    public ArrayType type()
    {
        return type;
    }

    /**
     * @param labels native values of the element type, none null
     * @param all the rows holding every label ({@code array_has_all}), else those holding any ({@code array_has_any})
     */
    public IndexAnswer searchLabels(Collection<?> labels, boolean all)
            throws IOException
    {
        checkArgument(!labels.isEmpty(), "no labels");
        labels.forEach(label -> requireNonNull(label, "label is null"));
        return this.labels.searchLabels(ImmutableList.copyOf(labels), all);
    }
}
