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
    BTREE("lance.table.BTreeIndexDetails"),
    BITMAP("lance.table.BitmapIndexDetails"),
    LABEL_LIST("lance.table.LabelListIndexDetails"),
    NGRAM("lance.table.NGramIndexDetails"),
    ZONEMAP("lance.table.ZoneMapIndexDetails"),
    BLOOM_FILTER("lance.table.BloomFilterIndexDetails"),
    INVERTED("lance.table.InvertedIndexDetails"),
    VECTOR("lance.index.pb.VectorIndexDetails"),
    // the older, empty vector details message
    VECTOR_LEGACY("lance.table.VectorIndexDetails"),
    FRAGMENT_REUSE("lance.table.FragmentReuseIndexDetails"),
    MEM_WAL("lance.table.MemWalIndexDetails"),
    // a kind this connector does not know (a newer Lance's): listed, kept, never used
    OTHER("");

    // the details message's full name, the part of the type URL after its last '/'
    private final String messageName;

    IndexKind(String messageName)
    {
        this.messageName = messageName;
    }

    public String typeUrl()
    {
        return "/" + messageName;
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
