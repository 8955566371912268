package io.lancetrino.index;

import io.lancetrino.metadata.index.IndexKind;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.Type;

import java.io.IOException;

/**
 * Answers a column's domain from one segment of a scalar index: the row addresses, in the fragments the segment
 * covers, whose value is in the domain (and the null rows when the domain allows null). Readers exist only for types
 * they evaluate exactly as Trino does; {@link ScalarIndexes#open} declines the others.
 */
public interface ScalarIndexReader
{
    IndexKind kind();

    /** The Trino type of the indexed column; domains must be of this type. */
    Type type();

    /** Whether answers are the exact matching rows (btree, bitmap) or a superset (zonemap). */
    boolean exact();

    /**
     * Throws {@link io.lancetrino.file.UnsupportedLanceEncodingException} when a page of the index uses an encoding
     * the file reader does not decode (the caller then scans), and an {@link IOException} naming the file when it is
     * damaged.
     */
    IndexAnswer search(Domain domain)
            throws IOException;
}
