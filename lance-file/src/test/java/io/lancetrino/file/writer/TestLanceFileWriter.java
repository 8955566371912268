package io.lancetrino.file.writer;

import io.airlift.slice.Slices;
import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.metadata.proto.Schema;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileReader;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeType.TIME_MICROS;
import static io.trino.spi.type.TimeType.TIME_MILLIS;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files the Java writer produces, read back by the Lance SDK (the oracle) and by the project's own reader, value by
 * value: random columns of every flat type it writes, with nulls, extremes, empty and long strings, over several
 * pages' worth of writes, in formats 2.1 and 2.2.
 */
final class TestLanceFileWriter
{
    private record Column(String name, Type type, String logicalType) {}

    private static final DecimalType SHORT_DECIMAL = DecimalType.createDecimalType(10, 2);
    private static final Type TIMESTAMP_SECONDS = TimestampType.createTimestampType(0);
    private static final DecimalType LONG_DECIMAL = DecimalType.createDecimalType(38, 10);

    // batches of up to 3,000 rows per file; -Dlance.writer.batches=N for a larger run
    private static final int BATCHES = Integer.getInteger("lance.writer.batches", 12);

    private static final List<Column> COLUMNS = List.of(
            new Column("flag", BOOLEAN, "bool"),
            new Column("tiny", TINYINT, "int8"),
            new Column("small", SMALLINT, "int16"),
            new Column("int", INTEGER, "int32"),
            new Column("big", BIGINT, "int64"),
            new Column("real", REAL, "float"),
            new Column("dbl", DOUBLE, "double"),
            new Column("day", DATE, "date32:day"),
            new Column("ts", TIMESTAMP_MICROS, "timestamp:us:-"),
            new Column("ts_ms", TIMESTAMP_MILLIS, "timestamp:ms:-"),
            new Column("ts_s", TIMESTAMP_SECONDS, "timestamp:s:-"),
            new Column("tstz_ms", TIMESTAMP_TZ_MILLIS, "timestamp:ms:UTC"),
            new Column("time_us", TIME_MICROS, "time64:us"),
            new Column("time_ms", TIME_MILLIS, "time32:ms"),
            new Column("price", SHORT_DECIMAL, "decimal:128:10:2"),
            new Column("amount", LONG_DECIMAL, "decimal:128:38:10"),
            new Column("text", VARCHAR, "string"),
            new Column("bytes", VARBINARY, "binary"));

    @Test
    void testSdkAndJavaReaderReadWhatTheJavaWriterWrote()
            throws Exception
    {
        // a fixed seed in the default run; another with -Dlance.writer.seed=S
        long seed = Long.getLong("lance.writer.seed", 20261205L);
        Set<String> encodings = new TreeSet<>();
        for (String version : List.of("2.1", "2.2")) {
            // one page per column, and many small pages
            for (long pageBytes : List.of(8L << 20, 16L << 10)) {
                for (Shape shape : Shape.values()) {
                    // strings at a zstd level that parses optimally get chunks of up to 256 KiB
                    for (EncodingOptions options : List.of(EncodingOptions.UNCOMPRESSED, EncodingOptions.DEFAULT, EncodingOptions.lz4(), new EncodingOptions(EncodingOptions.Compression.ZSTD, 3, 14))) {
                        encodings.addAll(checkRoundTrip(seed, version, pageBytes, shape, options));
                    }
                }
            }
        }
        // each way of encoding was taken somewhere, and so read back by both readers above
        assertThat(encodings).contains(
                "2.1 FEW text dictionary INLINE_BITPACKING", "2.2 FEW big dictionary INLINE_BITPACKING", "2.2 FEW dbl dictionary INLINE_BITPACKING",
                "2.1 FEW text dictionary GENERAL>BYTE_STREAM_SPLIT", "2.2 FEW text GENERAL dictionary GENERAL>BYTE_STREAM_SPLIT",
                "2.1 SMALL int INLINE_BITPACKING", "2.2 SMALL big INLINE_BITPACKING",
                "2.2 FRESH text GENERAL>VARIABLE", "2.2 SMALL dbl GENERAL>FLAT",
                "2.2 FRESH dbl FLAT", "2.1 FRESH flag FLAT",
                "2.1 FRESH amount FLAT", "2.2 SMALL price GENERAL>FLAT",
                // pages of one value (fixed width, format 2.2) or of NULLs only
                "2.2 SAME flag CONSTANT", "2.2 SAME tiny CONSTANT", "2.2 SAME real CONSTANT", "2.2 SAME dbl CONSTANT", "2.2 SAME tstz_ms CONSTANT",
                "2.2 SAME price CONSTANT", "2.2 SAME amount CONSTANT",
                "2.2 SAME text ALL_NULL", "2.1 SAME amount ALL_NULL", "2.1 SAME big ALL_NULL", "2.2 SAME bytes ALL_NULL",
                "2.2 SAME text CONSTANT", "2.2 SAME bytes CONSTANT",
                // format 2.1 pages with a value of 256 bytes or more
                "2.1 FRESH text FULL_ZIP def", "2.1 FRESH bytes FULL_ZIP", "2.1 FRESH bytes FULL_ZIP def",
                // values in runs: run-length chunks, of values and of dictionary indices
                "2.1 RUNS tiny RLE", "2.1 RUNS int RLE", "2.2 RUNS small RLE", "2.2 RUNS big RLE", "2.2 RUNS dbl RLE", "2.2 RUNS day RLE",
                "2.1 RUNS bytes dictionary RLE", "2.2 RUNS bytes dictionary RLE", "2.2 RUNS text dictionary RLE",
                // text without general compression: FSST, as Lance's writer codes it
                "2.2 FRESH text FSST", "2.1 FRESH text FULL_ZIP def FSST");
    }

    /**
     * How values repeat within a file: SAME is one value per batch (a batch is a page where pages are small), RUNS
     * repeats values of a few in runs of up to 600 (sorted data).
     */
    private enum Shape { FRESH, FEW, SMALL, SAME, RUNS }

    /** Returns what was used, e.g. "2.2 FEW text dictionary INLINE_BITPACKING" or "2.1 SMALL int INLINE_BITPACKING", per column and page. */
    private static Set<String> checkRoundTrip(long seed, String version, long pageBytes, Shape shape, EncodingOptions options)
            throws Exception
    {
        Random random = new Random(seed);
        List<List<Object>> pools = COLUMNS.stream().map(column -> (List<Object>) java.util.stream.Stream.generate(() -> randomValue(random, column.type(), Shape.FRESH)).limit(20).toList()).toList();
        Path directory = Files.createTempDirectory("java-writer");
        Path path = directory.resolve("data.lance");
        List<List<Object>> expected = COLUMNS.stream().map(_ -> (List<Object>) new ArrayList<>()).toList();
        int minor = Integer.parseInt(version.substring(2));
        try (OutputStream output = Files.newOutputStream(path)) {
            // one value per batch: with small pages, each batch its own page
            long writerPageBytes = shape == Shape.SAME && pageBytes < 1 << 20 ? 1 : pageBytes;
            LanceFileWriter writer = new LanceFileWriter(output, 2, minor, COLUMNS.stream().map(column -> FileColumn.of(column.type())).toList(), options, TestLanceFileWriter::descriptor, writerPageBytes);
            for (int batch = 0; batch < BATCHES; batch++) {
                writer.write(randomPage(random, 1 + random.nextInt(3000), batch, shape, pools, expected));
            }
            long length = writer.finish();
            assertThat(length).isEqualTo(Files.size(path));
        }
        long rows = expected.getFirst().size();
        String where = "seed %s, version %s, pages of %s bytes, %s values, %s".formatted(seed, version, pageBytes, shape, options);

        try (BufferAllocator allocator = new RootAllocator();
                LanceFileReader reader = LanceFileReader.open(path.toString(), allocator)) {
            assertThat(reader.numRows()).as(where).isEqualTo(rows);
            for (int column = 0; column < COLUMNS.size(); column++) {
                assertThat(sdkValues(reader, COLUMNS.get(column).name())).as("%s, column %s read by the SDK", where, COLUMNS.get(column).name())
                        .isEqualTo(expected.get(column));
            }
        }

        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///data.lance"));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.minorVersion()).isEqualTo(minor);
        if (pageBytes < 1 << 20) {
            assertThat(metadata.columns().getLast().pages().size()).as(where).isGreaterThan(3);
        }
        Set<String> encodings = new TreeSet<>();
        for (int column = 0; column < COLUMNS.size(); column++) {
            Column spec = COLUMNS.get(column);
            // the file reader returns times and timestamps in their stored unit; the page source converts them
            Type stored = storedType(spec.type());
            Block block = LanceColumnReader.read(file, metadata, column, stored, 0, (int) rows);
            List<Object> read = trinoValues(block, stored);
            if (stored != spec.type()) {
                read = read.stream().map(value -> value == null ? null : toTrino(spec.type(), (Long) value)).toList();
            }
            assertThat(read).as("%s, column %s read by the Java reader", where, spec.name())
                    .isEqualTo(expected.get(column));
            for (LancePage page : metadata.columns().get(column).pages()) {
                if (page.layout().hasConstantLayout()) {
                    boolean constant = page.layout().getConstantLayout().hasInlineValue() || !page.bufferSizes().isEmpty();
                    encodings.add("%s %s %s %s".formatted(version, shape, spec.name(), constant ? "CONSTANT" : "ALL_NULL"));
                    continue;
                }
                if (page.layout().hasFullZipLayout()) {
                    var fullZip = page.layout().getFullZipLayout();
                    encodings.add("%s %s %s FULL_ZIP%s%s".formatted(version, shape, spec.name(), fullZip.getBitsDef() > 0 ? " def" : "", fullZip.getValueCompression().hasFsst() ? " FSST" : ""));
                    continue;
                }
                MiniBlockLayout layout = page.layout().getMiniBlockLayout();
                String values = layout.getValueCompression().getCompressionCase().toString();
                if (layout.getValueCompression().hasGeneral()) {
                    values += ">" + layout.getValueCompression().getGeneral().getValues().getCompressionCase();
                }
                String dictionary = !layout.hasDictionary() ? "" : layout.getDictionary().hasGeneral() ? "GENERAL dictionary " : "dictionary ";
                encodings.add("%s %s %s %s%s".formatted(version, shape, spec.name(), dictionary, values));
            }
        }
        return encodings;
    }

    @Test
    void testRefusesTypesItCannotWriteYet()
    {
        assertThat(LanceFileWriter.supports(new io.trino.spi.type.ArrayType(io.trino.spi.type.RowType.anonymous(List.of(VARCHAR, io.trino.spi.type.UuidType.UUID))))).isFalse();
        assertThat(LanceFileWriter.supports(new io.trino.spi.type.ArrayType(new io.trino.spi.type.ArrayType(VARCHAR)))).isTrue();
        assertThat(LanceFileWriter.supports(VARCHAR)).isTrue();
    }

    private static byte[] descriptor(long rows)
    {
        Schema.Builder schema = Schema.newBuilder();
        for (int id = 0; id < COLUMNS.size(); id++) {
            schema.addFields(Field.newBuilder()
                    .setType(Field.Type.LEAF)
                    .setName(COLUMNS.get(id).name())
                    .setId(id)
                    .setParentId(-1)
                    .setLogicalType(COLUMNS.get(id).logicalType())
                    .setNullable(true));
        }
        return FileDescriptor.newBuilder().setSchema(schema).setLength(rows).build().toByteArray();
    }

    /** A page of random values; every column's values are appended to {@code expected} as the readers must return them. */
    private static Page randomPage(Random random, int rows, int batch, Shape shape, List<List<Object>> pools, List<List<Object>> expected)
    {
        Block[] blocks = new Block[COLUMNS.size()];
        // some batches have no nulls at all, one is all nulls
        double nullShare = batch % 4 == 0 ? 0 : batch == 5 ? 1 : random.nextDouble() * 0.5;
        for (int column = 0; column < COLUMNS.size(); column++) {
            Type type = COLUMNS.get(column).type();
            BlockBuilder builder = type.createBlockBuilder(null, rows);
            Object batchValue = pools.get(column).get(random.nextInt(pools.get(column).size()));
            Object runValue = batchValue;
            int runLeft = 0;
            for (int row = 0; row < rows; row++) {
                if (runLeft-- == 0) {
                    runValue = pools.get(column).get(random.nextInt(pools.get(column).size()));
                    runLeft = random.nextInt(600);
                }
                if (random.nextDouble() < nullShare) {
                    builder.appendNull();
                    expected.get(column).add(null);
                    continue;
                }
                Object value = switch (shape) {
                    case FEW -> pools.get(column).get(random.nextInt(pools.get(column).size()));
                    case SAME -> batchValue;
                    case RUNS -> runValue;
                    default -> randomValue(random, type, shape);
                };
                expected.get(column).add(value instanceof byte[] bytes ? Arrays.toString(bytes) : value);
                switch (value) {
                    case Boolean flag -> BOOLEAN.writeBoolean(builder, flag);
                    case Double number -> DOUBLE.writeDouble(builder, number);
                    case Float number -> REAL.writeLong(builder, Float.floatToIntBits(number));
                    case Long number -> type.writeLong(builder, number);
                    case String text -> VARCHAR.writeSlice(builder, Slices.utf8Slice(text));
                    case byte[] bytes -> VARBINARY.writeSlice(builder, Slices.wrappedBuffer(bytes));
                    case BigDecimal number when type == SHORT_DECIMAL -> SHORT_DECIMAL.writeLong(builder, number.unscaledValue().longValueExact());
                    case BigDecimal number -> LONG_DECIMAL.writeObject(builder, Int128.valueOf(number.unscaledValue()));
                    default -> throw new IllegalStateException(value.toString());
                }
            }
            blocks[column] = builder.build();
        }
        return new Page(rows, blocks);
    }

    private static Object randomValue(Random random, Type type, Shape shape)
    {
        if (type == TIMESTAMP_MILLIS || type == TIMESTAMP_SECONDS || type == TIMESTAMP_TZ_MILLIS) {
            long unit = type == TIMESTAMP_SECONDS ? 1000 : 1;
            long millis = (shape == Shape.SMALL ? random.nextInt(100_000) : random.nextLong() % 10_000_000_000_000L) / unit * unit;
            return type == TIMESTAMP_TZ_MILLIS ? packDateTimeWithZone(millis, UTC_KEY) : millis * 1000;
        }
        if (type == TIME_MICROS || type == TIME_MILLIS) {
            long picosPerUnit = type == TIME_MICROS ? 1_000_000 : 1_000_000_000;
            long unitsPerDay = 86_400_000_000_000_000L / picosPerUnit;
            return (shape == Shape.SMALL ? random.nextInt(1000) : Math.floorMod(random.nextLong(), unitsPerDay)) * picosPerUnit;
        }
        if (type instanceof DecimalType decimal) {
            BigInteger unscaled = shape == Shape.SMALL
                    ? BigInteger.valueOf(random.nextInt(10_000))
                    : decimal.isShort()
                            ? BigInteger.valueOf(pick(random, random.nextLong() % 10_000_000_000L, 9_999_999_999L, -9_999_999_999L, 0L))
                            : pick(random, new BigInteger(120, random).subtract(BigInteger.ONE.shiftLeft(119)), BigInteger.TEN.pow(38).subtract(BigInteger.ONE), BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate());
            return new BigDecimal(unscaled, decimal.getScale());
        }
        if (shape == Shape.SMALL) {
            return switch (type) {
                case Type t when t == BOOLEAN -> random.nextInt(10) == 0;
                case Type t when t == REAL -> (float) random.nextInt(100);
                case Type t when t == DOUBLE -> random.nextInt(10_000) / 100.0;
                case Type t when t == VARCHAR -> "ab".repeat(random.nextInt(3));
                case Type t when t == VARBINARY -> new byte[random.nextInt(3)];
                default -> (long) random.nextInt(100);
            };
        }
        if (type == BOOLEAN) {
            return random.nextBoolean();
        }
        if (type == TINYINT) {
            return (long) (byte) random.nextInt();
        }
        if (type == SMALLINT) {
            return (long) (short) random.nextInt();
        }
        if (type == INTEGER || type == DATE) {
            return (long) pick(random, random.nextInt(), Integer.MIN_VALUE, Integer.MAX_VALUE, 0);
        }
        if (type == BIGINT || type == TIMESTAMP_MICROS) {
            return pick(random, random.nextLong(), Long.MIN_VALUE, Long.MAX_VALUE, -1L);
        }
        if (type == REAL) {
            return pick(random, random.nextFloat() * 1e6f - 5e5f, Float.NaN, Float.NEGATIVE_INFINITY, -0.0f);
        }
        if (type == DOUBLE) {
            return pick(random, random.nextGaussian() * 1e9, Double.NaN, Double.MAX_VALUE, -0.0);
        }
        // now and then a value past format 2.1's 32 KiB chunks
        int length = random.nextInt(3000) == 0 ? 40_000 : random.nextInt(10) == 0 ? random.nextInt(300) : random.nextInt(12);
        if (type == VARCHAR) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < length; i++) {
                text.append(random.nextInt(8) == 0 ? (char) ('α' + random.nextInt(20)) : (char) ('a' + random.nextInt(26)));
            }
            return text.toString();
        }
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T usual, T... extremes)
    {
        return random.nextInt(20) == 0 ? extremes[random.nextInt(extremes.length)] : usual;
    }

    private static List<Object> sdkValues(LanceFileReader reader, String column)
            throws Exception
    {
        List<Object> values = new ArrayList<>();
        try (ArrowReader arrow = reader.readAll(List.of(column), null, 4096)) {
            while (arrow.loadNextBatch()) {
                FieldVector vector = arrow.getVectorSchemaRoot().getVector(column);
                for (int i = 0; i < vector.getValueCount(); i++) {
                    values.add(vector.isNull(i) ? null : switch (vector) {
                        case BitVector bits -> bits.get(i) == 1;
                        case TinyIntVector tiny -> (long) tiny.get(i);
                        case SmallIntVector small -> (long) small.get(i);
                        case IntVector ints -> (long) ints.get(i);
                        case DateDayVector days -> (long) days.get(i);
                        case BigIntVector longs -> longs.get(i);
                        case TimeStampMicroVector micros -> micros.get(i);
                        case TimeStampMilliTZVector millis -> packDateTimeWithZone(millis.get(i), UTC_KEY);
                        case TimeStampMilliVector millis -> millis.get(i) * 1000;
                        case TimeStampSecVector seconds -> seconds.get(i) * 1_000_000;
                        case TimeMicroVector micros -> micros.get(i) * 1_000_000;
                        case TimeMilliVector millis -> millis.get(i) * 1_000_000_000L;
                        case Float4Vector floats -> floats.get(i);
                        case Float8Vector doubles -> doubles.get(i);
                        case VarCharVector text -> new String(text.get(i), java.nio.charset.StandardCharsets.UTF_8);
                        case VarBinaryVector bytes -> Arrays.toString(bytes.get(i));
                        case DecimalVector decimals -> decimals.getObject(i);
                        default -> throw new IllegalStateException("Unexpected vector " + vector);
                    });
                }
            }
        }
        return values;
    }

    private static Type storedType(Type type)
    {
        if (type == TIME_MILLIS) {
            return INTEGER;
        }
        return type == TIMESTAMP_MILLIS || type == TIMESTAMP_SECONDS || type == TIMESTAMP_TZ_MILLIS || type == TIME_MICROS ? BIGINT : type;
    }

    /** A stored time or timestamp as the Trino type's long. */
    private static Object toTrino(Type type, long stored)
    {
        if (type == TIMESTAMP_MILLIS) {
            return stored * 1000;
        }
        if (type == TIMESTAMP_SECONDS) {
            return stored * 1_000_000;
        }
        if (type == TIMESTAMP_TZ_MILLIS) {
            return packDateTimeWithZone(stored, UTC_KEY);
        }
        return type == TIME_MICROS ? stored * 1_000_000 : stored * 1_000_000_000L;
    }

    private static List<Object> trinoValues(Block block, Type type)
    {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < block.getPositionCount(); i++) {
            if (block.isNull(i)) {
                values.add(null);
            }
            else if (type == BOOLEAN) {
                values.add(BOOLEAN.getBoolean(block, i));
            }
            else if (type == DOUBLE) {
                values.add(DOUBLE.getDouble(block, i));
            }
            else if (type == REAL) {
                values.add(REAL.getFloat(block, i));
            }
            else if (type == VARCHAR) {
                values.add(VARCHAR.getSlice(block, i).toStringUtf8());
            }
            else if (type == VARBINARY) {
                values.add(Arrays.toString(VARBINARY.getSlice(block, i).getBytes()));
            }
            else if (type == SHORT_DECIMAL) {
                values.add(BigDecimal.valueOf(SHORT_DECIMAL.getLong(block, i), SHORT_DECIMAL.getScale()));
            }
            else if (type == LONG_DECIMAL) {
                values.add(new BigDecimal(((Int128) LONG_DECIMAL.getObject(block, i)).toBigInteger(), LONG_DECIMAL.getScale()));
            }
            else {
                values.add(type.getLong(block, i));
            }
        }
        return values;
    }
}
