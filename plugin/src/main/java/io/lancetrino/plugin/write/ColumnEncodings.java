package io.lancetrino.plugin.write;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.Field;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The encoding settings a table's fields carry as {@code lance-encoding:*} metadata. Every Lance writer (this
 * connector's through the SDK, and any other engine appending to the table) reads them from the schema, so they hold
 * for the life of the table and for columns added later.
 */
public record ColumnEncodings(Optional<String> compression)
{
    public static final String COMPRESSION = "lance-encoding:compression";
    // Lance's default (0.8) compares dictionary indices against the raw size and never picks a dictionary for
    // one-character strings; at 0.9 those shrink from 5 bytes a row to under 0.3 and read no slower
    static final String DICTIONARY_SIZE_RATIO = "lance-encoding:dict-size-ratio";
    static final String DICTIONARY_SIZE_RATIO_VALUE = "0.9";
    // general compression works on mini-block chunks; Lance's default chunk for strings is a few KiB, too small for
    // zstd to find repeats and slow to decode (TPC-H l_comment: 78 MB and 5x slower reads against 63 MB and the
    // speed of uncompressed with 64 KiB chunks); format 2.1 ignores the setting
    static final String MINICHUNK_SIZE = "lance-encoding:minichunk-size";
    static final String MINICHUNK_SIZE_VALUE = String.valueOf(64 * 1024);
    private static final Set<String> VARIABLE_WIDTH_TYPES = Set.of("string", "large_string", "binary", "large_binary");

    public ColumnEncodings
    {
        requireNonNull(compression, "compression is null");
    }

    /**
     * The settings of an existing table, for the columns it gets later.
     */
    public static ColumnEncodings of(List<Field> fields)
    {
        return new ColumnEncodings(fields.stream()
                .map(field -> field.getMetadataMap().get(COMPRESSION))
                .filter(Objects::nonNull)
                .map(value -> value.toString(UTF_8))
                .findFirst());
    }

    public List<Field> apply(List<Field> fields)
    {
        return fields.stream().map(this::apply).toList();
    }

    private Field apply(Field field)
    {
        Field.Builder builder = field.toBuilder();
        compression.ifPresent(value -> builder.putMetadata(COMPRESSION, ByteString.copyFrom(value, UTF_8)));
        if (VARIABLE_WIDTH_TYPES.contains(field.getLogicalType())) {
            builder.putMetadata(DICTIONARY_SIZE_RATIO, ByteString.copyFrom(DICTIONARY_SIZE_RATIO_VALUE, UTF_8));
            if (compression.isPresent()) {
                builder.putMetadata(MINICHUNK_SIZE, ByteString.copyFrom(MINICHUNK_SIZE_VALUE, UTF_8));
            }
        }
        return builder.build();
    }
}
