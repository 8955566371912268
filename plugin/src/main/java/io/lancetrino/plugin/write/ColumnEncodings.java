package io.lancetrino.plugin.write;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Manifest;

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
 *
 * @param compression the {@code compression} table property: {@code auto}, {@code zstd}, {@code lz4} or {@code none}
 * @param fileFormatVersion the table's data file format version
 * @param stringCompressionLevel the {@code string_compression_level} table property: the zstd level of variable-width fields
 */
public record ColumnEncodings(String compression, String fileFormatVersion, Optional<Integer> stringCompressionLevel)
{
    public static final String COMPRESSION = "lance-encoding:compression";
    // the table property, kept in the table metadata: with "auto" the fields alone do not tell it
    public static final String COMPRESSION_KEY = "lance-trino.compression";
    public static final String COMPRESSION_LEVEL = "lance-encoding:compression-level";
    // the table property, kept in the table metadata for columns added later
    public static final String STRING_COMPRESSION_LEVEL_KEY = "lance-trino.string-compression-level";
    public static final String AUTO = "auto";
    public static final String NONE = "none";
    // Lance's default (0.8) compares dictionary indices against the raw size and never picks a dictionary for
    // one-character strings; at 0.9 those shrink from 5 bytes a row to under 0.3 and read no slower
    static final String DICTIONARY_SIZE_RATIO = "lance-encoding:dict-size-ratio";
    static final String DICTIONARY_SIZE_RATIO_VALUE = "0.9";
    // general compression works on mini-block chunks; Lance's default chunk for strings is a few KiB, too small for
    // zstd to find repeats and slow to decode (TPC-H l_comment: 78 MB and 5x slower reads against 63 MB and the
    // speed of uncompressed with 64 KiB chunks); format 2.1 ignores the setting
    static final String MINICHUNK_SIZE = "lance-encoding:minichunk-size";
    static final String MINICHUNK_SIZE_VALUE = String.valueOf(64 * 1024);
    // with general compression Lance otherwise splits fixed-width values into byte planes before compressing them,
    // which made TPC-H integer keys larger and dictionary-encoded strings 4x slower to decode than bit-packing does
    static final String BYTE_STREAM_SPLIT = "lance-encoding:bss";
    static final String BYTE_STREAM_SPLIT_VALUE = "off";
    private static final Set<String> VARIABLE_WIDTH_TYPES = Set.of("string", "large_string", "binary", "large_binary");
    private static final Set<String> LARGE_CHUNK_VERSIONS = Set.of("2.2");

    public ColumnEncodings
    {
        requireNonNull(compression, "compression is null");
        requireNonNull(fileFormatVersion, "fileFormatVersion is null");
        requireNonNull(stringCompressionLevel, "stringCompressionLevel is null");
    }

    public ColumnEncodings(String compression, String fileFormatVersion)
    {
        this(compression, fileFormatVersion, Optional.empty());
    }

    /**
     * The settings of an existing table, for the columns it gets later. Tables without the table-metadata key
     * (created before it, or by another engine) compress every field alike, if at all.
     */
    public static ColumnEncodings of(List<Field> fields, Manifest manifest, String fileFormatVersion)
    {
        String compression = manifest.getTableMetadataMap().get(COMPRESSION_KEY);
        if (compression == null) {
            compression = fields.stream()
                    .map(field -> field.getMetadataMap().get(COMPRESSION))
                    .filter(Objects::nonNull)
                    .map(value -> value.toString(UTF_8))
                    .findFirst()
                    .orElse(NONE);
        }
        return new ColumnEncodings(compression, fileFormatVersion, stringCompressionLevel(manifest));
    }

    /** The table's {@code string_compression_level}, from its table metadata. */
    public static Optional<Integer> stringCompressionLevel(Manifest manifest)
    {
        String value = manifest.getTableMetadataMap().get(STRING_COMPRESSION_LEVEL_KEY);
        try {
            return Optional.ofNullable(value).map(Integer::parseInt);
        }
        catch (NumberFormatException e) {
            // written by hand or by another tool: the writer's default level then
            return Optional.empty();
        }
    }

    public List<Field> apply(List<Field> fields)
    {
        return fields.stream().map(this::apply).toList();
    }

    private Field apply(Field field)
    {
        Field.Builder builder = field.toBuilder();
        boolean variableWidth = VARIABLE_WIDTH_TYPES.contains(field.getLogicalType());
        if (variableWidth) {
            builder.putMetadata(DICTIONARY_SIZE_RATIO, ByteString.copyFrom(DICTIONARY_SIZE_RATIO_VALUE, UTF_8));
        }
        String fieldCompression = fieldCompression(field.getLogicalType(), variableWidth);
        if (!fieldCompression.equals(NONE)) {
            builder.putMetadata(COMPRESSION, ByteString.copyFrom(fieldCompression, UTF_8));
            builder.putMetadata(BYTE_STREAM_SPLIT, ByteString.copyFrom(BYTE_STREAM_SPLIT_VALUE, UTF_8));
            if (variableWidth) {
                builder.putMetadata(MINICHUNK_SIZE, ByteString.copyFrom(MINICHUNK_SIZE_VALUE, UTF_8));
                if (fieldCompression.equals("zstd")) {
                    stringCompressionLevel.ifPresent(level -> builder.putMetadata(COMPRESSION_LEVEL, ByteString.copyFrom(String.valueOf(level), UTF_8)));
                }
            }
        }
        return builder.build();
    }

    /**
     * {@code auto} compresses strings, binaries, integers, dates and times with zstd in format 2.2, where Lance keeps
     * zstd only for chunks it shrinks and strings are chunked by 64 KiB. Measured on TPC-H lineitem: strings and
     * sorted keys shrink (l_comment 81 -> 63 MB, l_orderkey 14 -> 3 MB) at about the decode time of their plain
     * encodings; floating-point values and vectors are left alone, as zstd over 1,024 doubles decoded 6x slower for a
     * quarter fewer bytes.
     */
    private String fieldCompression(String logicalType, boolean variableWidth)
    {
        if (!compression.equals(AUTO)) {
            return compression;
        }
        boolean integral = logicalType.startsWith("int") || logicalType.startsWith("uint") || logicalType.startsWith("date") || logicalType.startsWith("time");
        return (variableWidth || integral) && LARGE_CHUNK_VERSIONS.contains(fileFormatVersion) ? "zstd" : NONE;
    }
}
