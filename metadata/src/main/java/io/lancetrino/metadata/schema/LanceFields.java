package io.lancetrino.metadata.schema;

import com.google.common.collect.ImmutableList;
import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.Encoding;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;

import static java.lang.String.format;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Arrow schemas to Lance manifest fields and back (lance-format.md §17), as Lance's {@code Field::try_from(&ArrowField)}
 * and {@code LogicalType::try_from(&DataType)} do it.
 */
public final class LanceFields
{
    /**
     * Extension name of Lance's bfloat16 (a FixedSizeBinary(2) inside a fixed size list).
     */
    public static final String BFLOAT16 = "lance.bfloat16";
    /**
     * Extension name of Lance's JSONB (a LargeBinary), logical type {@code json}.
     */
    public static final String JSON = "lance.json";
    public static final String EXTENSION_NAME = "ARROW:extension:name";
    public static final String EXTENSION_METADATA = "ARROW:extension:metadata";
    public static final String LIST_ITEM = "item";
    /** Field metadata marking a field of the table's unenforced primary key, with a truthy value. */
    public static final String UNENFORCED_PRIMARY_KEY = "lance-schema:unenforced-primary-key";
    /** Field metadata: the 1-based position of a key field in the key. */
    public static final String UNENFORCED_PRIMARY_KEY_POSITION = "lance-schema:unenforced-primary-key:position";
    // what lance-core takes for true in field metadata, in any case
    private static final Set<String> TRUTHY = Set.of("1", "true", "on", "yes", "y");

    private LanceFields() {}

    /** Whether field metadata marks the field as part of the unenforced primary key. */
    public static boolean isPrimaryKeyField(Map<String, String> metadata)
    {
        String flag = metadata.get(UNENFORCED_PRIMARY_KEY);
        return flag != null && TRUTHY.contains(flag.toLowerCase(Locale.ROOT));
    }

    /**
     * Flattens Arrow fields into Lance fields in pre-order (parent before children), numbering them from
     * {@code firstId}: struct children and the list item are child fields, a fixed size list is one field.
     *
     * @throws IllegalArgumentException naming the field, for an Arrow type Lance cannot store (map, union, view types,
     * intervals, dictionaries, run-end encoding, 32/64-bit decimals, a fixed size list of lists or structs, a timestamp
     * zone containing {@code :} such as {@code +05:30})
     */
    public static List<io.lancetrino.metadata.proto.Field> fromArrow(List<Field> arrowFields, int firstId)
    {
        List<io.lancetrino.metadata.proto.Field> fields = new ArrayList<>();
        for (Field field : arrowFields) {
            flatten(field, -1, field.getName(), firstId, fields);
        }
        return ImmutableList.copyOf(fields);
    }

    /**
     * The Arrow field a Lance field is written as: its logical type with the children from the schema, names,
     * nullability and metadata as stored. A fixed size list gets the nullable child {@code item} Lance gives it.
     *
     * @throws IllegalArgumentException naming the field, for a logical type that cannot be written as plain Arrow
     * (dictionaries, blobs, unknown types)
     */
    public static Field toArrow(LanceField field)
    {
        List<Field> children = field.children().stream().map(LanceFields::toArrow).collect(ImmutableList.toImmutableList());
        return arrowField(field.name(), field.logicalType(), field.nullable(), field.metadata(), children);
    }

    public static Schema toArrowSchema(List<LanceField> fields)
    {
        return new Schema(fields.stream().map(LanceFields::toArrow).collect(ImmutableList.toImmutableList()));
    }

    private static void flatten(Field field, int parentId, String path, int firstId, List<io.lancetrino.metadata.proto.Field> fields)
    {
        if (field.getDictionary() != null) {
            throw unsupported(path, "dictionary " + field.getType());
        }
        int id = firstId + fields.size();
        io.lancetrino.metadata.proto.Field.Builder lanceField = io.lancetrino.metadata.proto.Field.newBuilder()
                .setName(field.getName())
                .setId(id)
                .setParentId(parentId)
                .setLogicalType(logicalType(field, path))
                .setNullable(field.isNullable())
                .setEncoding(encoding(field.getType()));
        Map<String, String> metadata = field.getMetadata();
        metadata.forEach((key, value) -> lanceField.putMetadata(key, ByteString.copyFrom(value, UTF_8)));
        if (isJson(field)) {
            // as the SDK records a JSONB field
            lanceField.setExtensionName(JSON);
        }
        if (isPrimaryKeyField(metadata)) {
            lanceField.setUnenforcedPrimaryKey(true);
        }
        fields.add(lanceField.build());
        switch (field.getType()) {
            case ArrowType.Struct _, ArrowType.List _, ArrowType.LargeList _ -> {
                for (Field child : field.getChildren()) {
                    flatten(child, id, path + "." + child.getName(), firstId, fields);
                }
            }
            default -> {
                // fixed size lists keep their element in the logical type
            }
        }
    }

    private static String logicalType(Field field, String path)
    {
        ArrowType type = field.getType();
        if (isJson(field)) {
            return "json";
        }
        return switch (type) {
            case ArrowType.Struct _ -> "struct";
            case ArrowType.List _ -> isStruct(onlyChild(field, path)) ? "list.struct" : "list";
            case ArrowType.LargeList _ -> isStruct(onlyChild(field, path)) ? "large_list.struct" : "large_list";
            case ArrowType.FixedSizeList list -> {
                Field item = onlyChild(field, path);
                if (isBfloat16(item)) {
                    yield "fixed_size_list:" + BFLOAT16 + ":" + list.getListSize();
                }
                if (item.getDictionary() != null || !(item.getType() instanceof ArrowType.FixedSizeList || !item.getType().isComplex())) {
                    // Lance keeps only the element type, so it cannot hold nested lists or structs here
                    throw unsupported(path, type + " of " + item.getType());
                }
                yield "fixed_size_list:" + logicalType(item, path + "." + item.getName()) + ":" + list.getListSize();
            }
            default -> primitiveType(type).orElseThrow(() -> unsupported(path, type.toString()));
        };
    }

    private static Optional<String> primitiveType(ArrowType type)
    {
        return Optional.ofNullable(switch (type) {
            case ArrowType.Null _ -> "null";
            case ArrowType.Bool _ -> "bool";
            case ArrowType.Int integer -> (integer.getIsSigned() ? "int" : "uint") + integer.getBitWidth();
            case ArrowType.FloatingPoint floating -> switch (floating.getPrecision()) {
                case HALF -> "halffloat";
                case SINGLE -> "float";
                case DOUBLE -> "double";
            };
            // Lance has no 32 and 64 bit decimals
            case ArrowType.Decimal decimal when decimal.getBitWidth() == 128 || decimal.getBitWidth() == 256 ->
                    format("decimal:%s:%s:%s", decimal.getBitWidth(), decimal.getPrecision(), decimal.getScale());
            case ArrowType.Utf8 _ -> "string";
            case ArrowType.LargeUtf8 _ -> "large_string";
            case ArrowType.Binary _ -> "binary";
            case ArrowType.LargeBinary _ -> "large_binary";
            case ArrowType.FixedSizeBinary binary -> "fixed_size_binary:" + binary.getByteWidth();
            case ArrowType.Date date -> switch (date.getUnit()) {
                case DAY -> "date32:day";
                case MILLISECOND -> "date64:ms";
            };
            case ArrowType.Time time -> "time" + time.getBitWidth() + ":" + unit(time.getUnit());
            // Lance splits the type string on ':' and fails on zones like +05:30
            case ArrowType.Timestamp timestamp when timestamp.getTimezone() == null || !timestamp.getTimezone().contains(":") ->
                    "timestamp:" + unit(timestamp.getUnit()) + ":" + (timestamp.getTimezone() == null ? "-" : timestamp.getTimezone());
            case ArrowType.Duration duration -> "duration:" + unit(duration.getUnit());
            default -> null;
        });
    }

    // legacy per-field encoding that Lance still writes
    private static Encoding encoding(ArrowType type)
    {
        return switch (type) {
            case ArrowType.Utf8 _, ArrowType.LargeUtf8 _, ArrowType.Binary _, ArrowType.LargeBinary _ -> Encoding.VAR_BINARY;
            case ArrowType.Bool _, ArrowType.Int _, ArrowType.FloatingPoint _, ArrowType.Decimal _, ArrowType.FixedSizeBinary _,
                 ArrowType.FixedSizeList _, ArrowType.Date _, ArrowType.Time _, ArrowType.Timestamp _, ArrowType.Duration _,
                 ArrowType.List _, ArrowType.LargeList _ -> Encoding.PLAIN;
            default -> Encoding.NONE;
        };
    }

    private static Field arrowField(String name, String logicalType, boolean nullable, Map<String, String> metadata, List<Field> children)
    {
        if (LogicalTypes.isDictionary(logicalType)) {
            throw unsupported(name, "dictionary " + logicalType);
        }
        ArrowType type = LogicalTypes.toArrowType(logicalType).orElseThrow(() -> unsupported(name, logicalType));
        FieldType fieldType = new FieldType(nullable, type, null, metadata.isEmpty() ? null : metadata);
        if (type instanceof ArrowType.FixedSizeList) {
            String element = LogicalTypes.fixedSizeListElement(logicalType.trim());
            Field item = element.equals(BFLOAT16)
                    ? new Field(LIST_ITEM, new FieldType(true, new ArrowType.FixedSizeBinary(2), null, Map.of(EXTENSION_NAME, BFLOAT16, EXTENSION_METADATA, "")), List.of())
                    : arrowField(LIST_ITEM, element, true, Map.of(), List.of());
            return new Field(name, fieldType, List.of(item));
        }
        int expectedChildren = switch (type) {
            case ArrowType.Struct _ -> children.size();
            case ArrowType.List _, ArrowType.LargeList _ -> 1;
            default -> 0;
        };
        if (children.size() != expectedChildren) {
            throw new IllegalArgumentException(format("Lance field %s of type %s has %s children, expected %s", name, logicalType, children.size(), expectedChildren));
        }
        return new Field(name, fieldType, children);
    }

    private static Field onlyChild(Field field, String path)
    {
        if (field.getChildren().size() != 1) {
            throw new IllegalArgumentException(format("Arrow field %s of type %s has %s children, expected one", path, field.getType(), field.getChildren().size()));
        }
        return field.getChildren().getFirst();
    }

    private static boolean isStruct(Field field)
    {
        return field.getType() instanceof ArrowType.Struct;
    }

    private static boolean isJson(Field field)
    {
        return field.getType() instanceof ArrowType.LargeBinary && JSON.equals(field.getMetadata().get(EXTENSION_NAME));
    }

    private static boolean isBfloat16(Field field)
    {
        return field.getType() instanceof ArrowType.FixedSizeBinary binary && binary.getByteWidth() == 2 && BFLOAT16.equals(field.getMetadata().get(EXTENSION_NAME));
    }

    private static String unit(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> "s";
            case MILLISECOND -> "ms";
            case MICROSECOND -> "us";
            case NANOSECOND -> "ns";
        };
    }

    private static IllegalArgumentException unsupported(String field, String type)
    {
        return new IllegalArgumentException(format("Lance cannot store field %s of Arrow type %s", field, type));
    }
}
