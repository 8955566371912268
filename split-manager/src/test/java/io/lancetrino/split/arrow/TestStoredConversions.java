package io.lancetrino.split.arrow;

import io.lancetrino.file.LanceFileMetadata;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.lancetrino.split.arrow.TestArrowBlocks.newAllocator;
import static io.lancetrino.split.arrow.TestArrowBlocks.values;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DecimalType.createDecimalType;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.createTimeType;
import static io.trino.spi.type.TimestampType.createTimestampType;
import static io.trino.spi.type.TimestampWithTimeZoneType.createTimestampWithTimeZoneType;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Columns whose Trino type is not their stored type, written by the SDK: the Java reader plus {@link StoredConversions}
 * returns exactly the values of the SDK's reader plus {@link ArrowBlocks}.
 */
final class TestStoredConversions
{
    private static final int ROWS = 3000;

    @TempDir
    Path directory;
    private BufferAllocator allocator;

    private record Column(Field field, Type type, Filler filler) {}

    private interface Filler
    {
        void fill(FieldVector vector, int row);
    }

    @BeforeEach
    void setUp()
    {
        allocator = newAllocator();
    }

    @AfterEach
    void tearDown()
    {
        allocator.close();
    }

    @Test
    void convertsLikeTheSdkPathVersion21()
            throws Exception
    {
        convertsLikeTheSdkPath("2.1");
    }

    @Test
    void convertsLikeTheSdkPathVersion22()
            throws Exception
    {
        convertsLikeTheSdkPath("2.2");
    }

    private static List<Column> columns()
    {
        List<Column> columns = new ArrayList<>();
        // full ranges, so values above the signed maximum show up
        columns.add(column("u8", new ArrowType.Int(8, false), SMALLINT, (v, r) -> ((UInt1Vector) v).set(r, r * 7)));
        columns.add(column("u16", new ArrowType.Int(16, false), INTEGER, (v, r) -> ((UInt2Vector) v).set(r, (char) (r * 977))));
        columns.add(column("u32", new ArrowType.Int(32, false), BIGINT, (v, r) -> ((UInt4Vector) v).set(r, r * 1_999_993)));
        columns.add(column("u64", new ArrowType.Int(64, false), createDecimalType(20, 0), (v, r) -> ((UInt8Vector) v).set(r, r * 6_148_914_691_236_517_203L)));
        columns.add(column("half", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF), REAL, (v, r) -> ((Float2Vector) v).setWithPossibleTruncate(r, r * 0.37f - 200)));
        columns.add(new Column(
                new Field("bf16", new FieldType(true, new ArrowType.FixedSizeBinary(2), null, Map.of("ARROW:extension:name", "lance.bfloat16", "ARROW:extension:metadata", "")), null),
                REAL,
                (v, r) -> ((FixedSizeBinaryVector) v).set(r, new byte[] {(byte) (r * 13), (byte) (0x3f + r % 3 - (r % 5 == 0 ? 0x80 : 0))})));
        columns.add(column("t_s", new ArrowType.Time(TimeUnit.SECOND, 32), createTimeType(0), (v, r) -> ((TimeSecVector) v).set(r, r * 28)));
        columns.add(column("t_ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32), createTimeType(3), (v, r) -> ((TimeMilliVector) v).set(r, r * 28_001)));
        columns.add(column("t_us", new ArrowType.Time(TimeUnit.MICROSECOND, 64), createTimeType(6), (v, r) -> ((TimeMicroVector) v).set(r, r * 28_000_003L)));
        columns.add(column("t_ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64), createTimeType(9), (v, r) -> ((TimeNanoVector) v).set(r, r * 28_000_000_007L)));
        columns.add(column("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null), createTimestampType(0), (v, r) -> ((TimeStampVector) v).set(r, 1_700_000_000L - r * 86_413L)));
        columns.add(column("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null), createTimestampType(3), (v, r) -> ((TimeStampVector) v).set(r, -r * 86_413_007L)));
        columns.add(column("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null), createTimestampType(9), (v, r) -> ((TimeStampVector) v).set(r, 1_700_000_000_000_000_000L - r * 86_413_000_000_011L)));
        columns.add(column("tz_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"), createTimestampWithTimeZoneType(3), (v, r) -> ((TimeStampVector) v).set(r, 1_700_000_000_000L - r * 86_413_007L)));
        columns.add(column("tz_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York"), createTimestampWithTimeZoneType(6), (v, r) -> ((TimeStampVector) v).set(r, -r * 86_413_000_007L)));
        columns.add(column("tz_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC"), createTimestampWithTimeZoneType(9), (v, r) -> ((TimeStampVector) v).set(r, r * 86_413_000_000_011L)));
        columns.add(column("d64", new ArrowType.Date(DateUnit.MILLISECOND), DATE, (v, r) -> ((DateMilliVector) v).set(r, r * 86_400_000L * 3 - r % 2 * 5)));
        columns.add(column("fsb", new ArrowType.FixedSizeBinary(5), VARBINARY, (v, r) -> ((FixedSizeBinaryVector) v).set(r, new byte[] {1, (byte) r, 3, (byte) (r >> 8), (byte) -r})));
        columns.add(column("lstr", ArrowType.LargeUtf8.INSTANCE, VARCHAR, (v, r) -> ((LargeVarCharVector) v).setSafe(r, ("v" + r + "ü".repeat(r % 3)).getBytes(StandardCharsets.UTF_8))));
        columns.add(column("lbin", ArrowType.LargeBinary.INSTANCE, VARBINARY, (v, r) -> ((LargeVarBinaryVector) v).setSafe(r, new byte[] {(byte) r, (byte) (r % 7)})));
        // last: the SDK's file reader miscounts the columns after a packed struct
        columns.add(new Column(
                new Field("ps", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")), List.of(
                        new Field("u", FieldType.nullable(new ArrowType.Int(16, false)), null),
                        new Field("t", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)), null),
                        new Field("h", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)), null))),
                RowType.rowType(RowType.field("u", INTEGER), RowType.field("t", createTimestampType(3)), RowType.field("h", REAL)),
                (v, r) -> {
                    // the SDK writes no NULL packed struct nor NULL fields in one
                    StructVector struct = (StructVector) v;
                    struct.setIndexDefined(r);
                    ((UInt2Vector) struct.getChild("u")).set(r, (char) (65_000 - r));
                    ((TimeStampVector) struct.getChild("t")).set(r, r * 1_000_003L);
                    ((Float2Vector) struct.getChild("h")).setWithPossibleTruncate(r, r / 8.0f);
                }));
        return columns;
    }

    private static Column column(String name, ArrowType arrowType, Type type, Filler filler)
    {
        // every 7th row NULL, where the SDK can store one
        return new Column(new Field(name, FieldType.nullable(arrowType), null), type, (vector, row) -> {
            if (row % 7 == 3) {
                vector.setNull(row);
            }
            else {
                filler.fill(vector, row);
            }
        });
    }

    private void convertsLikeTheSdkPath(String version)
            throws Exception
    {
        List<Column> columns = columns();
        Path path = directory.resolve("conversions-" + version + ".lance");
        write(path, version, columns);

        TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///" + path.getFileName()));
        LanceFileMetadata metadata = LanceFileMetadata.read(file);
        assertThat(metadata.columns()).hasSize(columns.size());
        try (TrinoInput input = file.newInput()) {
            for (int c = 0; c < columns.size(); c++) {
                Column column = columns.get(c);
                List<Object> expected = sdkValues(path, column);
                assertThat(expected).hasSize(ROWS);
                StoredConversions.Conversion conversion = StoredConversions.forField(column.field(), column.type()).orElseThrow();
                assertThat(values(column.type(), conversion.read(input, metadata.columns().get(c), 0, ROWS))).as("%s %s", version, column.field().getName()).isEqualTo(expected);
                assertThat(values(column.type(), conversion.read(input, metadata.columns().get(c), 1001, 77))).as("%s %s", version, column.field().getName()).isEqualTo(expected.subList(1001, 1078));
            }
        }
    }

    private void write(Path path, String version, List<Column> columns)
            throws Exception
    {
        Schema schema = new Schema(columns.stream().map(Column::field).toList());
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                LanceFileWriter writer = LanceFileWriter.open(path.toString(), allocator, null, Optional.of(version), Map.of())) {
            root.allocateNew();
            for (Column column : columns) {
                FieldVector vector = root.getVector(column.field().getName());
                if (vector instanceof BaseFixedWidthVector fixed) {
                    fixed.allocateNew(ROWS);
                }
                else {
                    vector.setInitialCapacity(ROWS);
                    vector.allocateNew();
                }
                for (int row = 0; row < ROWS; row++) {
                    column.filler().fill(vector, row);
                }
                vector.setValueCount(ROWS);
            }
            root.setRowCount(ROWS);
            writer.write(root);
        }
    }

    private List<Object> sdkValues(Path path, Column column)
            throws Exception
    {
        String name = column.field().getName();
        List<Object> values = new ArrayList<>();
        try (LanceFileReader reader = LanceFileReader.open(path.toString(), allocator);
                ArrowReader batches = reader.readAll(List.of(name), null, 1024)) {
            while (batches.loadNextBatch()) {
                values.addAll(values(column.type(), ArrowBlocks.toBlock(column.type(), batches.getVectorSchemaRoot().getVector(name), batches)));
            }
        }
        return values;
    }

    @Test
    void readsPackedStructsOfOtherFieldTypes()
            throws Exception
    {
        Column packed = new Column(
                new Field("pk", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")), List.of(
                        new Field("dec", FieldType.nullable(new ArrowType.Decimal(10, 2, 128)), null),
                        new Field("day", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null),
                        new Field("code", FieldType.nullable(new ArrowType.FixedSizeBinary(3)), null))),
                RowType.rowType(RowType.field("dec", createDecimalType(10, 2)), RowType.field("day", DATE), RowType.field("code", VARBINARY)),
                (v, r) -> {
                    StructVector struct = (StructVector) v;
                    struct.setIndexDefined(r);
                    ((org.apache.arrow.vector.DecimalVector) struct.getChild("dec")).set(r, java.math.BigDecimal.valueOf(r * 1_000_003L - 500_000, 2));
                    ((org.apache.arrow.vector.DateDayVector) struct.getChild("day")).set(r, 19_000 - r);
                    ((FixedSizeBinaryVector) struct.getChild("code")).set(r, new byte[] {(byte) r, 7, (byte) (r >> 8)});
                });
        for (String version : List.of("2.1", "2.2")) {
            Path path = directory.resolve("packed-" + version + ".lance");
            write(path, version, List.of(packed));
            TrinoInputFile file = new LocalFileSystem(directory).newInputFile(Location.of("local:///" + path.getFileName()));
            LanceFileMetadata metadata = LanceFileMetadata.read(file);
            try (TrinoInput input = file.newInput()) {
                StoredConversions.Conversion conversion = StoredConversions.forField(packed.field(), packed.type()).orElseThrow();
                assertThat(values(packed.type(), conversion.read(input, metadata.columns().getFirst(), 0, ROWS))).isEqualTo(sdkValues(path, packed));
            }
        }
    }

    @Test
    void leavesOtherMappingsToTheSdk()
    {
        // not the natural mapping of the stored type: the Arrow path's narrowing and range checks apply
        assertThat(StoredConversions.forField(new Field("u8", FieldType.nullable(new ArrowType.Int(8, false)), null), INTEGER)).isEmpty();
        assertThat(StoredConversions.forField(new Field("ts", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)), null), createTimestampType(6))).isEmpty();
        assertThat(StoredConversions.forField(new Field("x", new FieldType(true, new ArrowType.FixedSizeBinary(16), null, Map.of("ARROW:extension:name", "arrow.uuid")), null), VARBINARY)).isEmpty();
        // a boolean packs into one bit (a row of 185 bits for decimal, date, 3 bytes and a boolean): not byte aligned
        assertThat(StoredConversions.forField(new Field("pk", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")), List.of(
                        new Field("day", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null),
                        new Field("flag", FieldType.nullable(ArrowType.Bool.INSTANCE), null))),
                RowType.rowType(RowType.field("day", DATE), RowType.field("flag", io.trino.spi.type.BooleanType.BOOLEAN)))).isEmpty();
        // a struct that is not packed has a column per leaf
        assertThat(StoredConversions.forField(new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null))),
                RowType.rowType(RowType.field("a", INTEGER)))).isEmpty();
    }
}
