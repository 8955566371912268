package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import com.google.protobuf.ByteString;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.writer.EncodingOptions;
import io.lancetrino.file.writer.FileColumn;
import io.lancetrino.file.writer.LanceFileWriter;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.proto.Schema;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LanceFields;
import io.lancetrino.metadata.schema.LogicalTypes;
import io.lancetrino.split.arrow.JsonbEncoder;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlock;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;
import java.util.HashSet;
import io.trino.spi.type.StandardTypes;
import io.trino.spi.type.RowType;
import io.trino.spi.type.ArrayType;
import io.trino.spi.block.SqlRow;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.block.ArrayBlockBuilder;

import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.lancetrino.split.LanceErrorCode.LANCE_INVALID_JSON;
import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static io.trino.spi.type.VarbinaryType.VARBINARY;

/**
 * A data file written by the project's own Lance file writer, straight from Trino blocks. It writes format 2.1 and 2.2 files of
 * columns of the types below, decimals, structs (Trino rows) and lists (Trino arrays) of them nested in any way, vectors
 * (fixed-size lists of integers or floating point) and json (also inside rows and arrays); other tables' files are
 * written by the SDK (the SDK add-on's writer).
 */
public final class JavaDataFileWriter
        implements DataFileWriter
{
    // logical types whose values the writer stores from the Trino type alone (times and timestamps in the unit the
    // connector gives each precision)
    private static final Set<String> LOGICAL_TYPES = Set.of(
            "bool", "int8", "int16", "int32", "int64", "float", "double", "date32:day", "string", "binary",
            "timestamp:s:-", "timestamp:ms:-", "timestamp:us:-", "timestamp:ns:-",
            "timestamp:s:UTC", "timestamp:ms:UTC", "timestamp:us:UTC", "timestamp:ns:UTC",
            "time32:s", "time32:ms", "time64:us", "time64:ns");
    // Arrow's decimal128, whatever the precision: what the connector makes of every Trino decimal
    private static final String DECIMAL_128 = "decimal:128:";
    // vectors: fixed-size lists of these
    private static final Set<String> VECTOR_ELEMENTS = Set.of("int8", "int16", "int32", "int64", "float", "double");
    // 2.0 has other encodings altogether
    private static final Set<String> FORMAT_VERSIONS = Set.of("2.1", "2.2");
    private static final String JSON = "json";
    private static final Set<String> VARIABLE_WIDTH = Set.of("string", "large_string", "binary", "large_binary", JSON);
    /** Schema metadata of the files it writes, naming the writer as Parquet's {@code created_by} does. */
    public static final String WRITER_KEY = "lance-trino:writer";
    public static final String WRITER_VALUE = "java";

    private final LanceFileWriter writer;
    private final List<LanceField> fields;
    private final List<FileColumn> columns;
    private final List<Type> types;
    // per column: whether it holds json anywhere, whose values are converted to JSONB on the way
    private final List<Boolean> hasJson;

    /**
     * @param arrowSchema the fields as Arrow has them, from which the file's own schema is numbered
     */
    JavaDataFileWriter(TableFileSystem fileSystem, String location, List<LanceField> fields, org.apache.arrow.vector.types.pojo.Schema arrowSchema, List<Type> types, String fileFormatVersion)
            throws IOException
    {
        Schema schema = Schema.newBuilder()
                .addAllFields(LanceFields.fromArrow(arrowSchema.getFields(), 0))
                .putMetadata(WRITER_KEY, ByteString.copyFromUtf8(WRITER_VALUE))
                .build();
        this.fields = ImmutableList.copyOf(fields);
        this.columns = fileColumns(fields, types);
        this.types = ImmutableList.copyOf(types);
        this.hasJson = types.stream().map(JavaDataFileWriter::hasJsonLeaves).collect(toImmutableList());
        this.writer = LanceFileWriter.create(
                fileSystem.newOutputStream(location),
                LanceDataFileLayout.majorVersion(fileFormatVersion),
                LanceDataFileLayout.minorVersion(fileFormatVersion),
                columns,
                encodingOptions(fields),
                rows -> FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray());
    }

    static boolean supports(List<LanceField> fields, List<Type> types, String fileFormatVersion)
    {
        return FORMAT_VERSIONS.contains(fileFormatVersion)
                && fields.stream().allMatch(field -> isWritable(field) || isVector(field))
                && fileColumns(fields, types).stream().allMatch(LanceFileWriter::supports);
    }

    /** A json field: Lance's JSONB values in a {@code large_binary} column. */
    private static boolean isJson(LanceField field)
    {
        return field.logicalType().equals(JSON) && field.children().isEmpty();
    }

    /**
     * A flat field or json, or a struct or a list of writable fields, nested in any way; not a packed struct, which
     * Lance stores as one column.
     */
    private static boolean isWritable(LanceField field)
    {
        if (isJson(field)) {
            return true;
        }
        if (field.logicalType().equals("struct")) {
            return !field.isPackedStruct() && !field.children().isEmpty() && field.children().stream().allMatch(JavaDataFileWriter::isWritable);
        }
        // Lance names a list of structs "list.struct"
        if (field.logicalType().equals("list") || field.logicalType().equals("list.struct")) {
            return field.children().size() == 1 && isWritable(field.children().getFirst());
        }
        return isFlat(field);
    }

    private static boolean isFlat(LanceField field)
    {
        return field.children().isEmpty() && (LOGICAL_TYPES.contains(field.logicalType()) || field.logicalType().startsWith(DECIMAL_128));
    }

    private static boolean isVector(LanceField field)
    {
        // Lance keeps a fixed-size list's element in its logical type, not as a child field
        return field.fixedSizeListSize().isPresent()
                && field.children().isEmpty()
                && VECTOR_ELEMENTS.contains(LogicalTypes.fixedSizeListElement(field.logicalType()));
    }

    private static List<FileColumn> fileColumns(List<LanceField> fields, List<Type> types)
    {
        ImmutableList.Builder<FileColumn> columns = ImmutableList.builder();
        for (int i = 0; i < fields.size(); i++) {
            OptionalInt dimension = fields.get(i).fixedSizeListSize();
            if (dimension.isPresent()) {
                columns.add(FileColumn.vector(types.get(i), dimension.getAsInt()));
                continue;
            }
            // json leaves are written as their JSONB bytes, with 64-bit offsets
            Set<Integer> jsonLeaves = new HashSet<>();
            addJsonLeaves(fields.get(i), new int[1], jsonLeaves);
            columns.add(FileColumn.withLargeOffsetLeaves(withJsonbLeaves(types.get(i)), jsonLeaves));
        }
        return columns.build();
    }

    /** Numbers the field's leaves in Lance's order (depth first, children in order), collecting the json ones. */
    private static void addJsonLeaves(LanceField field, int[] next, Set<Integer> jsonLeaves)
    {
        if (field.children().isEmpty()) {
            if (isJson(field)) {
                jsonLeaves.add(next[0]);
            }
            next[0]++;
            return;
        }
        field.children().forEach(child -> addJsonLeaves(child, next, jsonLeaves));
    }

    private static boolean isJsonType(Type type)
    {
        return type.getBaseName().equals(StandardTypes.JSON);
    }

    /** The type with its json leaves as varbinary, the JSONB bytes written for them. */
    private static Type withJsonbLeaves(Type type)
    {
        return switch (type) {
            case ArrayType array -> new ArrayType(withJsonbLeaves(array.getElementType()));
            case RowType row -> RowType.from(row.getFields().stream().map(field -> new RowType.Field(field.getName(), withJsonbLeaves(field.getType()))).toList());
            default -> isJsonType(type) ? VARBINARY : type;
        };
    }

    private static boolean hasJsonLeaves(Type type)
    {
        return isJsonType(type) || type.getTypeParameters().stream().anyMatch(JavaDataFileWriter::hasJsonLeaves);
    }

    /**
     * The general compression the fields ask for. The SDK reads it per field; the Java writer takes it for the file
     * and decides per page whether it pays, so {@code auto} (zstd on strings and integers) lets it try zstd on every
     * column, floating point included, where the SDK's small frames made those slow to decode.
     */
    static EncodingOptions encodingOptions(List<LanceField> fields)
    {
        // the fields of structs carry the settings too
        List<LanceField> all = fields.stream()
                .flatMap(field -> Stream.concat(Stream.of(field), allChildren(field)))
                .toList();
        boolean zstd = false;
        int level = EncodingOptions.DEFAULT_ZSTD_LEVEL;
        int stringLevel = EncodingOptions.DEFAULT_STRING_ZSTD_LEVEL;
        for (LanceField field : all) {
            String compression = field.metadata().getOrDefault(ColumnEncodings.COMPRESSION, ColumnEncodings.NONE);
            if (compression.equals("lz4")) {
                return EncodingOptions.lz4();
            }
            if (compression.equals("zstd")) {
                zstd = true;
                String fieldLevel = field.metadata().get(ColumnEncodings.COMPRESSION_LEVEL);
                if (fieldLevel != null && Integer.parseInt(fieldLevel) != 0) {
                    // a level on a string field (string_compression_level) is the strings' level, on any other the rest's
                    if (VARIABLE_WIDTH.contains(field.logicalType())) {
                        stringLevel = Integer.parseInt(fieldLevel);
                    }
                    else {
                        level = Integer.parseInt(fieldLevel);
                    }
                }
            }
        }
        return zstd ? new EncodingOptions(EncodingOptions.Compression.ZSTD, level, stringLevel) : EncodingOptions.UNCOMPRESSED;
    }

    private static Stream<LanceField> allChildren(LanceField field)
    {
        return field.children().stream().flatMap(child -> Stream.concat(Stream.of(child), allChildren(child)));
    }

    @Override
    public void write(Page page)
            throws IOException
    {
        Block[] blocks = new Block[page.getChannelCount()];
        for (int column = 0; column < columns.size(); column++) {
            blocks[column] = page.getBlock(column);
            OptionalInt dimension = columns.get(column).dimension();
            if (dimension.isPresent()) {
                checkVectorLengths(fields.get(column).name(), dimension.getAsInt(), blocks[column]);
            }
            if (hasJson.get(column)) {
                blocks[column] = withJsonb(fields.get(column).name(), types.get(column), blocks[column]);
            }
        }
        writer.write(new Page(page.getPositionCount(), blocks));
    }

    /**
     * The column with its json values as Lance's JSONB, the bytes the Lance SDK stores; a value JSONB cannot hold fails
     * the write, naming the column, before anything is committed. Rows and arrays holding json are copied value by
     * value, as such columns are rare.
     */
    private static Block withJsonb(String column, Type type, Block block)
    {
        BlockBuilder builder = withJsonbLeaves(type).createBlockBuilder(null, block.getPositionCount());
        for (int position = 0; position < block.getPositionCount(); position++) {
            copyWithJsonb(column, type, block, position, builder);
        }
        return builder.build();
    }

    private static void copyWithJsonb(String column, Type type, Block block, int position, BlockBuilder builder)
    {
        if (block.isNull(position)) {
            builder.appendNull();
            return;
        }
        switch (type) {
            case ArrayType array -> ((ArrayBlockBuilder) builder).buildEntry(elements -> {
                Block values = array.getObject(block, position);
                for (int element = 0; element < values.getPositionCount(); element++) {
                    copyWithJsonb(column, array.getElementType(), values, element, elements);
                }
            });
            case RowType row -> ((RowBlockBuilder) builder).buildEntry(fields -> {
                SqlRow value = row.getObject(block, position);
                for (int field = 0; field < row.getFields().size(); field++) {
                    copyWithJsonb(column, row.getFields().get(field).getType(), value.getUnderlyingFieldBlock(field), value.getUnderlyingFieldPosition(field), fields.get(field));
                }
            });
            default -> {
                if (isJsonType(type)) {
                    VARBINARY.writeSlice(builder, Slices.wrappedBuffer(jsonbValue(column, type.getSlice(block, position))));
                }
                else {
                    builder.append(block.getUnderlyingValueBlock(), block.getUnderlyingValuePosition(position));
                }
            }
        }
    }

    private static byte[] jsonbValue(String column, Slice text)
    {
        try {
            return JsonbEncoder.encode(text.byteArray(), text.byteArrayOffset(), text.length());
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(LANCE_INVALID_JSON, "Column %s: cannot store JSON value as Lance JSONB: %s".formatted(column, e.getMessage()), e);
        }
    }

    /** Every non-null array of a vector column has the column's dimension, or nothing of the write is committed. */
    private static void checkVectorLengths(String column, int dimension, Block block)
    {
        ArrayBlock arrays = (ArrayBlock) block.getUnderlyingValueBlock();
        int[] offsets = arrays.getRawOffsets();
        int base = arrays.getOffsetBase();
        int wrongLengths = 0;
        int firstWrongLength = 0;
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                continue;
            }
            int array = base + block.getUnderlyingValuePosition(position);
            int length = offsets[array + 1] - offsets[array];
            if (length != dimension && wrongLengths++ == 0) {
                firstWrongLength = length;
            }
        }
        if (wrongLengths > 0) {
            throw new TrinoException(CONSTRAINT_VIOLATION, "Column %s has dimension %s, but %s of %s rows written together have arrays of another length (the first has %s elements)"
                    .formatted(column, dimension, wrongLengths, block.getPositionCount(), firstWrongLength));
        }
    }

    @Override
    public long retainedBytes()
    {
        return writer.retainedBytes();
    }

    @Override
    public long finish()
            throws IOException
    {
        return writer.finish();
    }

    @Override
    public void abort()
    {
        try {
            writer.close();
        }
        catch (IOException _) {
            // the caller deletes the file
        }
    }
}
