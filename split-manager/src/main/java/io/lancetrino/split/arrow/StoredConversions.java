package io.lancetrino.split.arrow;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.PackedStructReader;
import io.trino.filesystem.TrinoInput;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static io.lancetrino.split.arrow.ArrowBuffers.isNull;
import static io.lancetrino.split.arrow.ArrowBuffers.optional;
import static java.lang.Math.floorDiv;
import static java.lang.String.format;

/**
 * How the pure-Java file reader reads a column into its Trino type: the type whose values are the stored values as
 * they are (same width; signed for unsigned ints, raw bits for half floats), and the conversion from those values to
 * the column's Trino type. Conversions compute exactly what the Arrow path (NumericBlocks, TemporalBlocks,
 * ArrowBlocks' JSON) computes for the same stored values; they cover the natural mapping of each Lance type
 * ({@link TrinoTypes}) only, so a column of another type reads through the SDK.
 */
public final class StoredConversions
{
    private static final String EXTENSION_NAME = "ARROW:extension:name";
    private static final String PACKED = "lance-encoding:packed";
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private StoredConversions() {}

    /** Reads a column's stored values and converts them to its Trino type. */
    public record Conversion(Type storedType, UnaryOperator<Block> convert, boolean packed)
    {
        public Block read(TrinoInput input, LanceColumn column, long rowStart, int rowCount)
                throws IOException
        {
            Block stored = packed
                    ? PackedStructReader.read(input, column, (RowType) storedType, rowStart, rowCount)
                    : LanceColumnReader.read(input, column, storedType, rowStart, rowCount);
            return convert.apply(stored);
        }
    }

    /** Whether the field is a packed struct: one physical column holds all its fields. */
    public static boolean isPackedStruct(Field field)
    {
        return field.getType() instanceof ArrowType.Struct && "true".equalsIgnoreCase(field.getMetadata().get(PACKED));
    }

    /**
     * The conversion of a leaf field (or a packed struct) of the file's schema to {@code type}, or empty when the
     * Java reader does not read it.
     */
    public static Optional<Conversion> forField(Field field, Type type)
    {
        if (field.getDictionary() != null) {
            return Optional.empty();
        }
        if (isPackedStruct(field)) {
            return packedStruct(field, type);
        }
        if (!field.getChildren().isEmpty()) {
            return Optional.empty();
        }
        String extension = field.getMetadata().get(EXTENSION_NAME);
        if (extension != null && !extension.equals(TrinoTypes.BFLOAT16) && !extension.equals("lance.json") && !extension.equals("arrow.json")) {
            return Optional.empty();
        }
        if (TrinoTypes.isJson(type)) {
            return json(field.getType(), type);
        }
        if (extension != null && !extension.equals(TrinoTypes.BFLOAT16)) {
            // JSON stored for a column of another type
            return Optional.empty();
        }
        return leaf(field.getType(), type, TrinoTypes.BFLOAT16.equals(extension)).map(convert -> new Conversion(convert.storedType(), convert.convert(), false));
    }

    private record Leaf(Type storedType, UnaryOperator<Block> convert) {}

    private static Optional<Leaf> leaf(ArrowType arrowType, Type type, boolean bfloat16)
    {
        if (bfloat16) {
            // the upper half of a float32, stored as fixed-size binary of 2 bytes
            return arrowType instanceof ArrowType.FixedSizeBinary binary && binary.getByteWidth() == 2 && type == RealType.REAL
                    ? Optional.of(new Leaf(SmallintType.SMALLINT, block -> map(block, SmallintType.SMALLINT, StoredConversions::bfloat16)))
                    : Optional.empty();
        }
        if (storedAsIs(arrowType, type)) {
            return Optional.of(new Leaf(type, UnaryOperator.identity()));
        }
        Leaf leaf = switch (arrowType) {
            case ArrowType.Int integer when !integer.getIsSigned() -> switch (integer.getBitWidth()) {
                case 8 -> type == SmallintType.SMALLINT ? new Leaf(TinyintType.TINYINT, block -> map(block, TinyintType.TINYINT, raw -> shorts(raw, 0xFFL))) : null;
                case 16 -> type == IntegerType.INTEGER ? new Leaf(SmallintType.SMALLINT, block -> map(block, SmallintType.SMALLINT, raw -> ints(raw, 0xFFFFL))) : null;
                case 32 -> type == BigintType.BIGINT ? new Leaf(IntegerType.INTEGER, block -> map(block, IntegerType.INTEGER, raw -> longs(raw, 0xFFFF_FFFFL))) : null;
                // uint64 as DECIMAL(20, 0): a zero high word and the raw bits as the low word
                case 64 -> type instanceof DecimalType decimal && decimal.getPrecision() == 20 && decimal.getScale() == 0
                        ? new Leaf(BigintType.BIGINT, block -> map(block, BigintType.BIGINT, StoredConversions::unsigned64))
                        : null;
                default -> null;
            };
            case ArrowType.FloatingPoint floating when floating.getPrecision() == FloatingPointPrecision.HALF && type == RealType.REAL ->
                    new Leaf(SmallintType.SMALLINT, block -> map(block, SmallintType.SMALLINT, StoredConversions::halfFloats));
            case ArrowType.Date date when date.getUnit() == DateUnit.MILLISECOND && type == DateType.DATE ->
                    new Leaf(BigintType.BIGINT, block -> map(block, BigintType.BIGINT, StoredConversions::days));
            case ArrowType.Time time when TemporalBlocks.timeFits(type, digits(time.getUnit())) -> {
                int digits = digits(time.getUnit());
                Type stored = time.getBitWidth() == 32 ? IntegerType.INTEGER : BigintType.BIGINT;
                yield new Leaf(stored, block -> map(block, stored, raw -> TemporalBlocks.time(raw.values(), raw.valid(), digits)));
            }
            case ArrowType.Timestamp timestamp when TemporalBlocks.timestampFits(type, digits(timestamp.getUnit())) -> {
                int digits = digits(timestamp.getUnit());
                yield new Leaf(BigintType.BIGINT, block -> map(block, BigintType.BIGINT, raw -> TemporalBlocks.timestamp(type, raw.values(), digits, raw.valid())));
            }
            // fixed-size binary is read as values of one length
            case ArrowType.FixedSizeBinary _ when type == VarbinaryType.VARBINARY -> new Leaf(VarbinaryType.VARBINARY, UnaryOperator.identity());
            default -> null;
        };
        return Optional.ofNullable(leaf);
    }

    /** The Trino type's values are the stored values as they are: no unit, width or sign conversion. */
    public static boolean storedAsIs(ArrowType arrowType, Type type)
    {
        return switch (arrowType) {
            case ArrowType.Int integer when integer.getIsSigned() -> switch (integer.getBitWidth()) {
                case 64 -> type == BigintType.BIGINT;
                case 32 -> type == IntegerType.INTEGER;
                case 16 -> type == SmallintType.SMALLINT;
                case 8 -> type == TinyintType.TINYINT;
                default -> false;
            };
            case ArrowType.FloatingPoint floating when floating.getPrecision() == FloatingPointPrecision.DOUBLE -> type == DoubleType.DOUBLE;
            case ArrowType.FloatingPoint floating when floating.getPrecision() == FloatingPointPrecision.SINGLE -> type == RealType.REAL;
            case ArrowType.Bool _ -> type == BooleanType.BOOLEAN;
            case ArrowType.Date date when date.getUnit() == DateUnit.DAY -> type == DateType.DATE;
            case ArrowType.Timestamp timestamp when timestamp.getUnit() == TimeUnit.MICROSECOND && timestamp.getTimezone() == null -> type.equals(TimestampType.TIMESTAMP_MICROS);
            case ArrowType.Decimal decimal when decimal.getBitWidth() == 128 ->
                    type instanceof DecimalType decimalType && decimalType.getPrecision() == decimal.getPrecision() && decimalType.getScale() == decimal.getScale();
            case ArrowType.Utf8 _, ArrowType.LargeUtf8 _ -> type instanceof VarcharType && !TrinoTypes.isJson(type);
            case ArrowType.Binary _, ArrowType.LargeBinary _ -> type == VarbinaryType.VARBINARY;
            default -> false;
        };
    }

    /** Lance JSONB (binary) becomes Trino's JSON text, as ArrowBlocks does; JSON text is taken as it is. */
    private static Optional<Conversion> json(ArrowType arrowType, Type type)
    {
        return switch (arrowType) {
            case ArrowType.Binary _, ArrowType.LargeBinary _ -> Optional.of(new Conversion(VarbinaryType.VARBINARY, block -> jsonValues(block, type, true), false));
            case ArrowType.Utf8 _, ArrowType.LargeUtf8 _ -> Optional.of(new Conversion(VarcharType.VARCHAR, block -> jsonValues(block, type, false), false));
            default -> Optional.empty();
        };
    }

    private static Block jsonValues(Block block, Type type, boolean binary)
    {
        int count = block.getPositionCount();
        BlockBuilder builder = type.createBlockBuilder(null, count);
        for (int i = 0; i < count; i++) {
            if (block.isNull(i)) {
                builder.appendNull();
                continue;
            }
            Slice value = VarbinaryType.VARBINARY.getSlice(block, i);
            if (binary) {
                byte[] bytes = value.getBytes();
                try {
                    value = Slices.utf8Slice(JsonbValues.toJson(bytes, 0, bytes.length));
                }
                catch (IllegalArgumentException e) {
                    throw new TrinoException(LANCE_BAD_DATA, format("A column holds a JSON value this connector cannot decode at row %s of the batch: %s", i, e.getMessage()), e);
                }
            }
            type.writeSlice(builder, value);
        }
        return builder.build();
    }

    /** A packed struct whose every field the Java reader reads; its fields are converted one by one. */
    private static Optional<Conversion> packedStruct(Field field, Type type)
    {
        if (!(type instanceof RowType rowType) || rowType.getFields().size() != field.getChildren().size() || field.getChildren().isEmpty()) {
            return Optional.empty();
        }
        List<Type> storedTypes = new ArrayList<>();
        List<UnaryOperator<Block>> converts = new ArrayList<>();
        for (int i = 0; i < field.getChildren().size(); i++) {
            Optional<Conversion> child = forField(field.getChildren().get(i), rowType.getTypeParameters().get(i));
            // a boolean takes one bit of the row, so the fields after it are not byte aligned: the SDK reads those
            if (child.isEmpty() || child.get().packed() || child.get().storedType() instanceof RowType || child.get().storedType() == BooleanType.BOOLEAN) {
                return Optional.empty();
            }
            storedTypes.add(child.get().storedType());
            converts.add(child.get().convert());
        }
        return Optional.of(new Conversion(RowType.anonymous(storedTypes), block -> rows(block, converts), true));
    }

    private static Block rows(Block block, List<UnaryOperator<Block>> converts)
    {
        // the reader returns a row block with nulls kept in the fields
        RowBlock rows = (RowBlock) block;
        List<Block> fields = RowBlock.getRowFieldsFromBlock(rows);
        Block[] converted = new Block[fields.size()];
        for (int i = 0; i < converted.length; i++) {
            converted[i] = converts.get(i).apply(fields.get(i));
        }
        int count = rows.getPositionCount();
        long[] valid = null;
        if (rows.mayHaveNull()) {
            valid = validity(rows);
        }
        return RowBlock.fromNotNullSuppressedFieldBlocks(count, optional(valid), converted);
    }

    private static int digits(TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> 0;
            case MILLISECOND -> 3;
            case MICROSECOND -> 6;
            case NANOSECOND -> 9;
        };
    }

    /** Stored values widened to longs (sign-extended) with their validity (null when all are valid). */
    private record Raw(long[] values, long[] valid)
    {
        int count()
        {
            return values.length;
        }
    }

    /** Converts the values of a block the reader returned, keeping its dictionary or run-length form. */
    private static Block map(Block block, Type storedType, java.util.function.Function<Raw, Block> convert)
    {
        return switch (block) {
            case RunLengthEncodedBlock rle -> RunLengthEncodedBlock.create(map(rle.getValue(), storedType, convert), rle.getPositionCount());
            case DictionaryBlock dictionary -> {
                int[] ids = new int[dictionary.getPositionCount()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = dictionary.getId(i);
                }
                yield DictionaryBlock.create(ids.length, map(dictionary.getDictionary(), storedType, convert), ids);
            }
            case ValueBlock values -> convert.apply(raw(values, storedType));
            default -> throw new IllegalArgumentException("Unexpected block " + block.getClass().getSimpleName());
        };
    }

    private static Raw raw(ValueBlock block, Type storedType)
    {
        int count = block.getPositionCount();
        long[] values = new long[count];
        long[] valid = block.mayHaveNull() ? validity(block) : null;
        for (int i = 0; i < count; i++) {
            if (!isNull(valid, i)) {
                values[i] = storedType.getLong(block, i);
            }
        }
        return new Raw(values, valid);
    }

    private static long[] validity(Block block)
    {
        int count = block.getPositionCount();
        long[] valid = new long[(count + 63) >>> 6];
        for (int i = 0; i < count; i++) {
            if (!block.isNull(i)) {
                valid[i >>> 6] |= 1L << i;
            }
        }
        return valid;
    }

    private static Block shorts(Raw raw, long mask)
    {
        short[] values = new short[raw.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (short) (raw.values()[i] & mask);
        }
        return new ShortArrayBlock(values.length, optional(raw.valid()), values);
    }

    private static Block ints(Raw raw, long mask)
    {
        int[] values = new int[raw.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (int) (raw.values()[i] & mask);
        }
        return new IntArrayBlock(values.length, optional(raw.valid()), values);
    }

    private static Block longs(Raw raw, long mask)
    {
        long[] values = new long[raw.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = raw.values()[i] & mask;
        }
        return new LongArrayBlock(values.length, optional(raw.valid()), values);
    }

    private static Block unsigned64(Raw raw)
    {
        long[] int128 = new long[raw.count() * 2];
        for (int i = 0; i < raw.count(); i++) {
            int128[i * 2 + 1] = raw.values()[i];
        }
        return new Int128ArrayBlock(raw.count(), optional(raw.valid()), int128);
    }

    private static Block halfFloats(Raw raw)
    {
        int[] values = new int[raw.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = Float.floatToRawIntBits(Float.float16ToFloat((short) raw.values()[i]));
        }
        return new IntArrayBlock(values.length, optional(raw.valid()), values);
    }

    private static Block bfloat16(Raw raw)
    {
        int[] values = new int[raw.count()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ((short) raw.values()[i]) << 16;
        }
        return new IntArrayBlock(values.length, optional(raw.valid()), values);
    }

    private static Block days(Raw raw)
    {
        int[] values = new int[raw.count()];
        for (int i = 0; i < values.length; i++) {
            long days = floorDiv(raw.values()[i], MILLIS_PER_DAY);
            if (days != (int) days && !isNull(raw.valid(), i)) {
                throw new TrinoException(LANCE_BAD_DATA, "Date out of range: " + days + " days");
            }
            values[i] = (int) days;
        }
        return new IntArrayBlock(values.length, optional(raw.valid()), values);
    }
}
