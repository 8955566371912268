package io.lancetrino.index;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Opens readers of scalar index segments. Empty for kinds, versions and column types the readers do not evaluate
 * exactly as Trino does, so the caller scans instead.
 */
public final class ScalarIndexes
{
    // the index_version of each kind the readers were written against (lance-core 7.0)
    private static final Map<IndexKind, Integer> KNOWN_VERSIONS = ImmutableMap.of(
            IndexKind.BTREE, 0,
            IndexKind.BITMAP, 0,
            IndexKind.ZONEMAP, 0,
            IndexKind.LABEL_LIST, 1);

    private ScalarIndexes() {}

    /** Whether {@link #open} may return a reader of this kind for a column of this type (no I/O). */
    public static boolean supports(IndexKind kind, Type columnType)
    {
        return switch (kind) {
            case BTREE, BITMAP, ZONEMAP -> IndexValueTypes.supported(columnType);
            case LABEL_LIST -> columnType instanceof ArrayType array && IndexValueTypes.supported(array.getElementType());
            default -> false;
        };
    }

    /** Like {@link #open(IndexKind, IndexFiles, Type, IndexCache)}, and empty for index versions newer than the readers know. */
    public static Optional<ScalarIndexReader> open(IndexMetadata index, IndexFiles files, Type columnType, IndexCache cache)
            throws IOException
    {
        Optional<IndexKind> kind = IndexKind.of(index);
        if (kind.isEmpty() || !KNOWN_VERSIONS.containsKey(kind.get())) {
            return Optional.empty();
        }
        if (index.hasIndexVersion() && index.getIndexVersion() > KNOWN_VERSIONS.get(kind.get())) {
            return Optional.empty();
        }
        return open(kind.get(), files, columnType, cache);
    }

    /**
     * Opens the index's lookup tables (through the cache). Empty when the kind or the column type is not handled,
     * or the index stores its values in another type than the column's. Throws
     * {@link io.lancetrino.file.UnsupportedLanceEncodingException} for index files the file reader does not decode
     * (format 2.0, written by Lance before 2026-03), and an {@link IOException} naming the file when a file is
     * missing or damaged.
     */
    public static Optional<ScalarIndexReader> open(IndexKind kind, IndexFiles files, Type columnType, IndexCache cache)
            throws IOException
    {
        if (!supports(kind, columnType)) {
            return Optional.empty();
        }
        return switch (kind) {
            case BTREE -> BTreeIndexReader.open(files, columnType, cache);
            case BITMAP -> BitmapIndexReader.open(kind, files, columnType, cache).map(ScalarIndexReader.class::cast);
            case ZONEMAP -> ZoneMapIndexReader.open(files, columnType, cache);
            default -> Optional.empty();
        };
    }

    /** A label list index over an array column; empty when the element type is not handled. */
    public static Optional<LabelListIndexReader> openLabelList(IndexFiles files, ArrayType columnType, IndexCache cache)
            throws IOException
    {
        if (!supports(IndexKind.LABEL_LIST, columnType)) {
            return Optional.empty();
        }
        return BitmapIndexReader.open(IndexKind.LABEL_LIST, files, columnType.getElementType(), cache)
                .map(reader -> new LabelListIndexReader(columnType, reader));
    }
}
