package io.lancetrino.plugin.search;

import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.search.VectorMetric;
import io.trino.spi.type.ArrayType;

import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;

/**
 * What the searches ask of a version about its vector columns: their dimension and their vector indexes.
 */
final class VectorIndexes
{
    private VectorIndexes() {}

    /** The dimension of a vector column: a Lance fixed-size list of float or double. */
    static OptionalInt dimension(TableSnapshot snapshot, LanceColumnHandle column)
    {
        if (!(column.type() instanceof ArrayType array) || !(array.getElementType().equals(REAL) || array.getElementType().equals(DOUBLE))) {
            return OptionalInt.empty();
        }
        return snapshot.schema().field(column.fieldId()).map(LanceField::fixedSizeListSize).orElse(OptionalInt.empty());
    }

    /** A vector index on the column trained for the metric, or for any metric a search supports when none is given. */
    static Optional<IndexSegments> find(String table, TableSnapshot snapshot, int fieldId, Optional<VectorMetric> metric)
    {
        return TableIndexes.describe(table, snapshot).stream()
                .filter(index -> index.kind() == IndexKind.VECTOR && index.fieldIds().getFirst() == fieldId)
                .filter(index -> metric(index).isPresent() && (metric.isEmpty() || metric.equals(metric(index))))
                .findFirst();
    }

    /** The metric a vector index was trained for, when a search supports it. */
    static Optional<VectorMetric> metric(IndexSegments index)
    {
        return TableIndexes.vectorMetric(index.segments().getFirst()).flatMap(VectorMetric::fromLanceName);
    }
}
