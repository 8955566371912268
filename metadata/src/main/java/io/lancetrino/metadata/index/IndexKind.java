package io.lancetrino.metadata.index;

import io.lancetrino.metadata.proto.IndexMetadata;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of Lance index, known by the type URL of their {@code index_details}. Vector indexes share one details
 * message; their sub-kind (IVF_PQ, IVF_HNSW_SQ, ...) is in the message, not the URL.
 */
public enum IndexKind
{
    BTREE("lance.table.BTreeIndexDetails", true),
    BITMAP("lance.table.BitmapIndexDetails", true),
    LABEL_LIST("lance.table.LabelListIndexDetails", true),
    NGRAM("lance.table.NGramIndexDetails", true),
    ZONEMAP("lance.table.ZoneMapIndexDetails", true),
    BLOOM_FILTER("lance.table.BloomFilterIndexDetails", true),
    INVERTED("lance.table.InvertedIndexDetails", false),
    VECTOR("lance.index.pb.VectorIndexDetails", false),
    // the older, empty vector details message
    VECTOR_LEGACY("lance.table.VectorIndexDetails", false),
    FRAGMENT_REUSE("lance.table.FragmentReuseIndexDetails", false),
    MEM_WAL("lance.table.MemWalIndexDetails", false),
    // a kind this connector does not know (a newer Lance's): listed, kept, never used
    OTHER("", false);

    private final String messageName;
    private final boolean scalar;

    IndexKind(String messageName, boolean scalar)
    {
        this.messageName = messageName;
        this.scalar = scalar;
    }

    /** The details message's full name, the part of the type URL after its last {@code /}. */
    public String messageName()
    {
        return messageName;
    }

    public String typeUrl()
    {
        return "/" + messageName;
    }

    public boolean isScalar()
    {
        return scalar;
    }

    public boolean isVector()
    {
        return this == VECTOR || this == VECTOR_LEGACY;
    }

    /** Lance's system indexes have no column and are never shown, dropped or used to answer a query. */
    public boolean isSystem()
    {
        return this == FRAGMENT_REUSE || this == MEM_WAL;
    }

    /** The name SQL shows: {@code btree}, {@code label_list}, {@code vector}. */
    public String sqlName()
    {
        return this == VECTOR_LEGACY ? "vector" : name().toLowerCase(Locale.ROOT);
    }

    public static Optional<IndexKind> fromTypeUrl(String typeUrl)
    {
        String message = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
        return Arrays.stream(values()).filter(kind -> kind != OTHER && kind.messageName.equals(message)).findFirst();
    }

    public static Optional<IndexKind> of(IndexMetadata index)
    {
        return index.hasIndexDetails() ? fromTypeUrl(index.getIndexDetails().getTypeUrl()) : Optional.empty();
    }
}
